import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { taskJobOf, taskJobRequest, taskJobServerContext } from '../../lib/tasks/task-job.js';
import { fakeScope, fakeServerContext, toolCall } from '../support/fake-call.js';

const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl';
const TIMING = { ttlMs: 60_000, pollIntervalMs: 1_000 };

/** A verified OAuth caller, as the `auth` option's guard leaves it on the request. */
function oauthRequest(auth: Partial<AuthInfo> = {}, user: unknown = { sub: 'ada' }) {
  return {
    headers: { authorization: `Bearer ${TOKEN}`, cookie: 'session=s3cr3t-cookie-value' },
    auth: { token: TOKEN, clientId: 'desk', scopes: ['notes.read'], ...auth },
    user,
  };
}

/** The job of a `tools/call` made by `request`, with its `AuthInfo` in the SDK context too. */
function jobOf(request: ReturnType<typeof oauthRequest>) {
  const { ctx } = fakeServerContext();
  const serverContext = { ...ctx, http: { authInfo: request.auth } } as unknown as ServerContext;
  const scope = fakeScope(serverContext, {
    transport: { request },
    identity: 'oauth-sub:"https://as.example":"ada"',
  });
  return taskJobOf(toolCall('import', { rows: 3 }, scope), 'task-1', 'import', TIMING);
}

describe('taskJobOf', () => {
  it('keeps the identity, the scopes and the user, never the token or a header', () => {
    const job = jobOf(oauthRequest());
    expect(job.caller).toEqual({
      identity: 'oauth-sub:"https://as.example":"ada"',
      authInfo: { clientId: 'desk', scopes: ['notes.read'] },
      user: { sub: 'ada' },
    });
    const text = JSON.stringify(job);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('s3cr3t-cookie-value');
    expect(text).not.toMatch(/authorization|cookie/i);
  });

  it('leaves out a string of auth or user that carries the credentials', () => {
    const job = jobOf(
      oauthRequest(
        { extra: { raw: TOKEN, header: `Bearer ${TOKEN}`, claims: { sub: 'ada' } } },
        {
          id: 'ada',
          accessToken: TOKEN,
          tokens: [TOKEN, 'kept'],
          note: 'ok',
          session: 's3cr3t-cookie-value',
        },
      ),
    );
    expect(job.caller.authInfo).toEqual({
      clientId: 'desk',
      scopes: ['notes.read'],
      extra: { claims: { sub: 'ada' } },
    });
    expect(job.caller.user).toEqual({ id: 'ada', tokens: ['kept'], note: 'ok' });
  });

  it('leaves out the credentials of a custom guard, a short one only where it is the whole value', () => {
    const request = {
      headers: { authorization: 'Bearer ok' },
      user: { id: 'alice', token: 'ok', book: 'a book' },
    };
    const scope = fakeScope(fakeServerContext().ctx, {
      transport: { request },
      identity: 'user:alice',
    });
    const job = taskJobOf(toolCall('import', {}, scope), 'task-2', 'import', TIMING);
    expect(job.caller).toEqual({ identity: 'user:alice', user: { id: 'alice', book: 'a book' } });
  });
});

describe('the worker side of a job', () => {
  it('gives the method request.auth and ctx.http.authInfo without a token, and no headers', () => {
    const job = jobOf(oauthRequest());
    expect(taskJobRequest(job)).toEqual({
      method: 'POST',
      url: '',
      headers: {},
      auth: { clientId: 'desk', scopes: ['notes.read'] },
      user: { sub: 'ada' },
    });
    const context = taskJobServerContext(job, new AbortController().signal);
    expect(context.http?.authInfo).toEqual({ clientId: 'desk', scopes: ['notes.read'] });
  });
});

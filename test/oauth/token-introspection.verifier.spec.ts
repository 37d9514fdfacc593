import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthorizationServerMetadataLoader } from '../../lib/oauth/authorization-server-metadata.loader.js';
import {
  OAuthChallengeError,
  VerifierUnavailableError,
} from '../../lib/oauth/oauth-challenge.error.js';
import {
  retryAfterSeconds,
  TokenIntrospectionVerifier,
} from '../../lib/oauth/token-introspection.verifier.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const A = 'https://a.example.com';
const B = 'https://b.example.com';
const CREDENTIALS = { clientId: 'mcp', clientSecret: 's3cret' };

/** The introspection endpoint: each call recorded, the answer set by the test. */
let server: Server;
let base: string;
let calls: string[];
let answer: { status: number; headers?: Record<string, string>; body?: unknown };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      calls.push(`${req.url} ${new URLSearchParams(body).get('token')}`);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  calls = [];
  answer = {
    status: 200,
    body: { active: true, aud: RESOURCE, iss: B, exp: Math.floor(Date.now() / 1000) + 600 },
  };
});

/** Each issuer's metadata names its own introspection endpoint on the test server. */
const metadata = {
  load: async (issuer: string) => ({
    issuer,
    introspection_endpoint: `${base}/${new URL(issuer).hostname}/introspect`,
  }),
} as unknown as AuthorizationServerMetadataLoader;

const verifier = (options: Record<string, unknown> = {}) =>
  new TokenIntrospectionVerifier({ ...CREDENTIALS, issuer: B, ...options }, [A, B], 30, metadata);

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );

describe('TokenIntrospectionVerifier', () => {
  it("posts a token to the introspection endpoint of the issuer it is configured for, not the first's", async () => {
    await verifier().verify('tok-1', [RESOURCE]);
    expect(calls).toEqual(['/b.example.com/introspect tok-1']);
  });

  it('refuses an answer naming another issuer, even a trusted one', async () => {
    answer.body = { ...(answer.body as object), iss: A };
    const error = await failure(verifier().verify('tok-1', [RESOURCE]));
    expect(error).toBeInstanceOf(OAuthChallengeError);
    expect((error as OAuthChallengeError).description).toBe(
      'The access token was issued by https://a.example.com, which this server does not trust (it trusts https://b.example.com)',
    );
  });

  it('asks once for concurrent requests with one token, then answers from its cache', async () => {
    const introspecting = verifier();
    await Promise.all([1, 2, 3].map(() => introspecting.verify('tok-1', [RESOURCE])));
    await introspecting.verify('tok-1', [RESOURCE]);
    expect(calls).toHaveLength(1);
  });

  it('takes a 200 that is not an RFC 7662 answer for an outage, not for an inactive token', async () => {
    answer.body = { ok: true };
    const error = await failure(verifier().verify('tok-1', [RESOURCE]));
    expect(error).toBeInstanceOf(VerifierUnavailableError);
    expect((error as VerifierUnavailableError).retryAfterSeconds).toBe(30);
  });

  it('passes on a 429 Retry-After, and does not call again until it has passed', async () => {
    answer = { status: 429, headers: { 'retry-after': '12' } };
    const introspecting = verifier();
    const first = (await failure(
      introspecting.verify('tok-1', [RESOURCE]),
    )) as VerifierUnavailableError;
    expect(first.retryAfterSeconds).toBe(12);
    expect(first.unavailability.warning).toMatch(/answered HTTP 429.*asked for 12 s/);
    const second = (await failure(
      introspecting.verify('tok-2', [RESOURCE]),
    )) as VerifierUnavailableError;
    expect(second).toBeInstanceOf(VerifierUnavailableError);
    expect(second.retryAfterSeconds).toBeLessThanOrEqual(12);
    expect(calls).toHaveLength(1);
  });

  it('answers a 5xx without Retry-After with the default, and keeps calling', async () => {
    answer = { status: 500 };
    const introspecting = verifier();
    for (const token of ['tok-1', 'tok-2']) {
      const error = (await failure(
        introspecting.verify(token, [RESOURCE]),
      )) as VerifierUnavailableError;
      expect(error.retryAfterSeconds).toBe(VerifierUnavailableError.DEFAULT_RETRY_AFTER_SECONDS);
    }
    expect(calls).toHaveLength(2);
  });

  it('needs the issuer named when several are trusted', () => {
    expect(() => new TokenIntrospectionVerifier(CREDENTIALS, [A, B], 30, metadata)).toThrow(
      /auth\.introspection\.issuer/,
    );
    expect(new TokenIntrospectionVerifier(CREDENTIALS, [A], 30, metadata).issuer).toBe(A);
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it.each([
    ['20', 20],
    [' 0 ', 0],
    ['Tue, 01 Jan 2030 00:00:45 GMT', 45],
    ['Mon, 31 Dec 2029 23:00:00 GMT', 0],
    ['86400', 300],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('reads %j as %j seconds', (value, seconds) => {
    expect(retryAfterSeconds(value, now)).toBe(seconds);
  });
});

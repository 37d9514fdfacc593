import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  type INestApplication,
  Module,
  UnauthorizedException,
} from '@nestjs/common';
import { IsString } from 'class-validator';
import {
  McpContext,
  type McpCallContext,
  McpModule,
  type McpModuleOptions,
  McpPrompt,
  McpResource,
  McpScopes,
  McpTool,
} from 'nestjs-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer, unsignedToken } from '../oauth/token-issuer.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';
import { modernMeta } from '../support/mcp-post.js';

const logs = captureLogs();

class NoteDto {
  @IsString()
  text!: string;
}

@Injectable()
class NotesService {
  private readonly notes = ['first'];

  @McpTool({ description: 'Reads the notes.' })
  @McpScopes('notes.read')
  readNotes() {
    return this.notes.join(', ');
  }

  @McpTool({ description: 'Adds a note.' })
  @McpScopes('notes.read', 'notes.write')
  addNote(note: NoteDto) {
    this.notes.push(note.text);
    return `added ${note.text}`;
  }

  @McpTool({ description: 'Who the token says the caller is.' })
  whoAmI(@McpContext() call: McpCallContext) {
    const request = call.httpRequest as { auth: Record<string, any>; user: Record<string, any> };
    const authInfo = call.serverContext.http?.authInfo;
    return JSON.stringify({
      sub: request.user.sub,
      userScopes: request.user.scopes,
      clientId: request.auth.clientId,
      resource: String(request.auth.resource),
      sdkAuthInfoClientId: authInfo?.clientId,
      callScopes: call.scopes,
    });
  }

  @McpPrompt({ description: 'Drafts a summary.' })
  @McpScopes('notes.admin')
  summaryDraft() {
    return 'Summarize the notes.';
  }

  @McpResource({ uri: 'notes://archive', description: 'The archive.' })
  @McpScopes({ any: ['notes.admin', 'notes.archive'] })
  archive() {
    return 'archived notes';
  }
}

const authOptions = (issuer: TokenIssuer, extra: Partial<McpModuleOptions['auth']> = {}) => ({
  authorizationServers: [issuer.issuer],
  resourceName: 'Notes',
  ...extra,
});

/**
 * Without `auth.resource`, the resource is derived from the request only when its host is
 * listed: the apps of these tests listen on 127.0.0.1 with a port known once they do.
 */
const DERIVED_RESOURCE_HTTP = { allowedHosts: ['127.0.0.1'] };

function notesModule(options: Omit<McpModuleOptions, 'name' | 'version'>) {
  @Module({
    imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0', ...options })],
    providers: [NotesService],
  })
  class NotesAppModule {}
  return NotesAppModule;
}

const ACCEPT = 'application/json, text/event-stream';

/** One JSON-RPC request over real HTTP, as a 2025-era or a 2026-07-28 client sends it. */
async function post(
  url: URL,
  era: 'legacy' | 'modern',
  method: string,
  params: Record<string, unknown>,
  token?: string,
) {
  const headers: Record<string, string> = { accept: ACCEPT, 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (era === 'modern') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = method;
    const name = params.name ?? params.uri;
    if (typeof name === 'string') headers['mcp-name'] = name;
  }
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method,
    params: era === 'modern' ? { ...params, _meta: modernMeta() } : params,
  };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    text: await response.text(),
  };
}

const names = async (client: TestClient) =>
  (await client.listTools()).tools.map((tool) => tool.name);

const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');

describe.each(ADAPTERS)('OAuth resource server on %s', (adapter) => {
  let issuer: TokenIssuer;

  beforeAll(async () => {
    issuer = await new TokenIssuer().start();
  });
  afterAll(() => issuer.close());

  describe.each([undefined, 'api'])('metadata with global prefix %s', (globalPrefix) => {
    let app: INestApplication;
    let url: URL;
    let origin: string;
    let resource: string;

    beforeAll(async () => {
      ({ app, url } = await startApp(
        notesModule({ auth: authOptions(issuer), http: DERIVED_RESOURCE_HTTP }),
        {
          adapter,
          globalPrefix,
          logger: logs,
        },
      ));
      origin = url.origin;
      resource = url.href;
    });
    afterAll(() => app?.close());

    const expectedDocument = () => ({
      resource,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['notes.admin', 'notes.archive', 'notes.read', 'notes.write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Notes',
    });

    it('serves the Protected Resource Metadata at the host root, path inserted', async () => {
      const path = globalPrefix ? '/api/mcp' : '/mcp';
      const response = await fetch(`${origin}/.well-known/oauth-protected-resource${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual(expectedDocument());
    });

    it('serves it at the bare well-known URI too, the app having one protected server', async () => {
      const response = await fetch(`${origin}/.well-known/oauth-protected-resource`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(expectedDocument());
    });

    it('does not serve it under the global prefix, nor for another path', async () => {
      if (globalPrefix) {
        const prefixed = await fetch(`${origin}/api/.well-known/oauth-protected-resource/api/mcp`);
        expect(prefixed.status).toBe(404);
      }
      const other = await fetch(`${origin}/.well-known/oauth-protected-resource/elsewhere`);
      expect(other.status).toBe(404);
    });

    it('warns once that the resource is derived from the request', async () => {
      await fetch(`${origin}/.well-known/oauth-protected-resource`);
      await post(url, 'modern', 'tools/list', {});
      const warnings = logs
        .messages('warn', 'OAuthResourceServer')
        .filter((message) => message.startsWith('auth.resource is not set'));
      // Once per server: the first request of the app may have come before this test.
      expect(warnings.length).toBeLessThanOrEqual(1);
      expect(
        logs
          .messages('warn', 'OAuthResourceServer')
          .filter((message) => message.includes(resource)),
      ).toEqual(warnings);
    });

    it('answers a request without a token with 401 and the metadata URL', async () => {
      const answer = await post(url, 'modern', 'tools/list', {});
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe(
        `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource${new URL(resource).pathname}"`,
      );
    });
  });

  describe('challenges and step-up', () => {
    let app: INestApplication;
    let url: URL;
    let metadataUrl: string;
    const token = (scope: string, audience = url.href) => issuer.mint(audience, { scope });

    beforeAll(async () => {
      ({ app, url } = await startApp(
        notesModule({ auth: authOptions(issuer), http: DERIVED_RESOURCE_HTTP }),
        {
          adapter,
          logger: logs,
        },
      ));
      metadataUrl = `${url.origin}/.well-known/oauth-protected-resource/mcp`;
    });
    afterAll(() => app?.close());

    it('answers an invalid token with 401 invalid_token, a description and the metadata URL', async () => {
      const answer = await post(url, 'modern', 'tools/list', {}, 'not-a-jwt');
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe(
        'Bearer error="invalid_token", error_description="The access token is not a JWT, and ' +
          'this server verifies only JWT access tokens (RFC 9068); opaque tokens need token ' +
          `introspection on the server", resource_metadata="${metadataUrl}"`,
      );
      expect(JSON.parse(answer.text)).toMatchObject({ error: 'invalid_token' });
    });

    it('refuses a token in the query string with 401, even a valid one', async () => {
      const valid = await token('notes.read');
      const response = await fetch(`${url.href}?access_token=${valid}`, {
        method: 'POST',
        headers: { accept: ACCEPT, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer error="invalid_token", error_description="Access tokens are accepted only in the Authorization header/,
      );
    });

    it.each(['legacy', 'modern'] as const)(
      'answers a %s tools/call the token lacks scopes for with ONE 403 insufficient_scope challenge naming every scope it needs',
      async (era) => {
        const answer = await post(
          url,
          era,
          'tools/call',
          { name: 'add_note', arguments: { text: 'x' } },
          await token('notes.read offline_access'),
        );
        expect(answer.status).toBe(403);
        expect(answer.challenge).toBe(
          'Bearer error="insufficient_scope", error_description="The tool \'add_note\' needs the ' +
            'scope(s) notes.read notes.write; the token has notes.read offline_access: request a ' +
            `token with them", scope="notes.read notes.write", resource_metadata="${metadataUrl}"`,
        );
      },
    );

    it.each(['legacy', 'modern'] as const)(
      'answers a %s prompts/get and resources/read the token lacks scopes for with 403',
      async (era) => {
        const reader = await token('notes.read');
        const prompt = await post(url, era, 'prompts/get', { name: 'summary_draft' }, reader);
        expect(prompt.status).toBe(403);
        expect(prompt.challenge).toMatch(/^Bearer error="insufficient_scope", /);
        expect(prompt.challenge).toContain(
          `scope="notes.admin", resource_metadata="${metadataUrl}"`,
        );
        const read = await post(url, era, 'resources/read', { uri: 'notes://archive' }, reader);
        expect(read.status).toBe(403);
        expect(read.challenge).toContain(`scope="notes.admin notes.archive"`);
        const archivist = await token('notes.archive');
        const allowed = await post(
          url,
          era,
          'resources/read',
          { uri: 'notes://archive' },
          archivist,
        );
        expect(allowed.status).toBe(200);
        expect(allowed.text).toContain('archived notes');
      },
    );

    describe.each(CLIENTS)('with the $era', ({ era, connect }) => {
      let reader: TestClient;
      let writer: TestClient;

      /** The v1 client reports the HTTP status; the v2 client reads the challenge itself. */
      const expectStepUp = async (call: Promise<unknown>, scope: string) => {
        const error = await call.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        if (era.startsWith('2025')) {
          expect(error).toMatchObject({
            code: 403,
            message: expect.stringContaining('"error":"insufficient_scope"'),
          });
        } else {
          const { requiredScope, resourceMetadataUrl } = error as Record<string, unknown>;
          expect(error).toBeInstanceOf(Error);
          expect({ requiredScope, resourceMetadataUrl: String(resourceMetadataUrl) }).toEqual({
            requiredScope: scope,
            resourceMetadataUrl: metadataUrl,
          });
        }
      };

      beforeAll(async () => {
        reader = await connect(url, await token('notes.read'));
        writer = await connect(url, await token('notes.read notes.write'));
      });
      afterAll(async () => {
        await reader?.close();
        await writer?.close();
      });

      it('lists only the tools the token can use', async () => {
        expect(await names(reader)).toEqual(['read_notes', 'who_am_i']);
        expect(await names(writer)).toEqual(['add_note', 'read_notes', 'who_am_i']);
      });

      it('gives the tools the verified identity: request.user, request.auth, the SDK AuthInfo', async () => {
        const result = JSON.parse(textOf(await reader.callTool('who_am_i', {})));
        expect(result).toEqual({
          sub: 'user-1',
          userScopes: ['notes.read'],
          clientId: 'test-client',
          resource: url.href,
          sdkAuthInfoClientId: 'test-client',
          callScopes: ['notes.read'],
        });
      });

      it('refuses a call the token lacks scopes for with HTTP 403, and a stepped-up token succeeds', async () => {
        await expectStepUp(
          reader.callTool('add_note', { text: 'denied' }),
          'notes.read notes.write',
        );
        expect(textOf(await writer.callTool('add_note', { text: 'stepped up' }))).toBe(
          'added stepped up',
        );
      });

      it('refuses a prompt and a resource with HTTP 403', async () => {
        await expectStepUp(reader.sdk.getPrompt({ name: 'summary_draft' }), 'notes.admin');
        await expectStepUp(
          reader.sdk.readResource({ uri: 'notes://archive' }),
          'notes.admin notes.archive',
        );
        // The server keeps serving the same client.
        expect((await reader.listTools()).tools.length).toBe(2);
      });
    });

    it('keeps serving after hostile tokens', async () => {
      const now = Math.floor(Date.now() / 1000);
      const hostile = [
        await issuer.mint(url.href, { scope: 'notes.read', expiresIn: -3600 }),
        await issuer.mint(url.href, { scope: 'notes.read', notBefore: 3600 }),
        await issuer.mint(url.href, { scope: 'notes.read', issuer: 'https://evil.example.com' }),
        await issuer.mint('https://other.example.com/mcp', { scope: 'notes.read' }),
        await issuer.mint(url.href, { scope: 'notes.read', foreignKey: true }),
        unsignedToken({ iss: issuer.issuer, aud: url.href, exp: now + 300, scope: 'notes.read' }),
        'a.b.c',
        '',
      ];
      for (const bad of hostile) {
        const answer = await post(url, 'modern', 'tools/call', { name: 'read_notes' }, bad);
        expect(answer.status).toBe(401);
        expect(answer.challenge).toContain(`resource_metadata="${metadataUrl}"`);
      }
      const ok = await post(
        url,
        'modern',
        'tools/call',
        { name: 'read_notes' },
        await token('notes.read'),
      );
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('first');
    });
  });

  describe('requiredScopes and a configured resource', () => {
    let app: INestApplication;
    let url: URL;
    const resource = 'https://notes.example.com/mcp';

    beforeAll(async () => {
      ({ app, url } = await startApp(
        notesModule({ auth: authOptions(issuer, { resource, requiredScopes: ['notes.mcp'] }) }),
        { adapter, logger: logs },
      ));
    });
    afterAll(() => app?.close());

    it('names the required scopes in the 401 and the configured resource in the metadata', async () => {
      const answer = await post(url, 'modern', 'tools/list', {});
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe(
        'Bearer scope="notes.mcp", resource_metadata="https://notes.example.com/.well-known/oauth-protected-resource/mcp"',
      );
      const document = await (
        await fetch(`${url.origin}/.well-known/oauth-protected-resource/mcp`)
      ).json();
      expect(document.resource).toBe(resource);
    });

    it('answers every request of a token without the required scopes with 403 insufficient_scope', async () => {
      const answer = await post(
        url,
        'modern',
        'tools/list',
        {},
        await issuer.mint(resource, { scope: 'notes.read' }),
      );
      expect(answer.status).toBe(403);
      expect(answer.challenge).toMatch(
        /^Bearer error="insufficient_scope", error_description="This request needs the scope\(s\) notes\.mcp; the token has notes\.read: request a token with them", scope="notes\.mcp", resource_metadata="https:\/\/notes\.example\.com\/\.well-known\/oauth-protected-resource\/mcp"$/,
      );
    });

    it('accepts a token for the configured resource only, and names every scope on a step-up', async () => {
      const derived = await issuer.mint(url.href, { scope: 'notes.mcp notes.read' });
      expect((await post(url, 'modern', 'tools/list', {}, derived)).status).toBe(401);
      const good = await issuer.mint(resource, { scope: 'notes.mcp notes.read' });
      expect((await post(url, 'modern', 'tools/list', {}, good)).status).toBe(200);
      const stepUp = await post(
        url,
        'legacy',
        'tools/call',
        { name: 'add_note', arguments: { text: 'x' } },
        good,
      );
      expect(stepUp.status).toBe(403);
      expect(stepUp.challenge).toContain('scope="notes.mcp notes.read notes.write"');
    });
  });
});

describe('OAuth resource server with several protected servers', () => {
  let issuer: TokenIssuer;
  let app: INestApplication;
  let url: URL;

  @Module({
    imports: [
      McpModule.forRoot({
        name: 'notes',
        version: '1.0.0',
        auth: { authorizationServers: ['http://127.0.0.1:1'], resource: 'http://127.0.0.1/mcp' },
      }),
      McpModule.forRoot({
        name: 'notes-admin',
        version: '1.0.0',
        http: { path: 'admin/mcp' },
        auth: {
          authorizationServers: ['http://127.0.0.1:1'],
          resource: 'http://127.0.0.1/admin/mcp',
        },
      }),
    ],
    providers: [NotesService],
  })
  class TwoServersModule {}

  beforeAll(async () => {
    issuer = await new TokenIssuer().start();
    ({ app, url } = await startApp(TwoServersModule, { logger: logs }));
  });
  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  it('serves each server its own document and no document at the bare well-known URI', async () => {
    const notes = await (
      await fetch(`${url.origin}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(notes.resource).toBe('http://127.0.0.1/mcp');
    const admin = await (
      await fetch(`${url.origin}/.well-known/oauth-protected-resource/admin/mcp`)
    ).json();
    expect(admin.resource).toBe('http://127.0.0.1/admin/mcp');
    const root = await fetch(`${url.origin}/.well-known/oauth-protected-resource`);
    expect(root.status).toBe(404);
    expect((await root.json()).error_description).toBe(
      'This app has several MCP servers; their metadata is at /.well-known/oauth-protected-resource/mcp, /.well-known/oauth-protected-resource/admin/mcp',
    );
  });

  it('answers a CORS preflight for the metadata', async () => {
    const response = await fetch(`${url.origin}/.well-known/oauth-protected-resource/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example.com', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers 503, not 401, while the authorization server cannot be reached, and keeps serving', async () => {
    const unreachable = await issuer.mint('http://127.0.0.1/mcp', {
      issuer: 'http://127.0.0.1:1',
      scope: 'notes.read',
    });
    const answer = await post(url, 'modern', 'tools/list', {}, unreachable);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toMatchObject({
      error: 'temporarily_unavailable',
      error_description:
        'The access token could not be verified now (the authorization server could not be reached); retry later',
    });
    expect(logs.messages('warn', 'McpOAuthGuard')).toContainEqual(
      expect.stringMatching(
        /^The metadata of the authorization server http:\/\/127\.0\.0\.1:1 could not be loaded/,
      ),
    );
    const metadata = await fetch(`${url.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(200);
  });
});

describe('OAuth step-up on a 2025 session (http.legacySessions)', () => {
  let issuer: TokenIssuer;
  let app: INestApplication;
  let url: URL;
  let client: TestClient;

  beforeAll(async () => {
    issuer = await new TokenIssuer().start();
    ({ app, url } = await startApp(
      notesModule({
        http: { legacySessions: true },
        auth: { authorizationServers: [issuer.issuer], resource: 'http://127.0.0.1/mcp' },
      }),
      { logger: logs },
    ));
    client = await CLIENTS[0].connect(
      url,
      await issuer.mint('http://127.0.0.1/mcp', { scope: 'notes.read' }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await issuer?.close();
  });

  it('refuses a call the session token lacks scopes for with HTTP 403 and serves the rest', async () => {
    await expect(client.callTool('add_note', { text: 'x' })).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining('"error":"insufficient_scope"'),
    });
    expect(textOf(await client.callTool('read_notes', {}))).toContain('first');
  });
});

/** The app's own guard after the token check: it reads the verified `request.user`. */
const accountGuard: CanActivate = {
  canActivate(context: ExecutionContext) {
    const { user } = context.switchToHttp().getRequest<{ user: Record<string, unknown> }>();
    if (user.suspended) throw new UnauthorizedException('This account is suspended');
    if (user.readOnly) throw new ForbiddenException('Read-only accounts cannot use MCP');
    return true;
  },
};

describe.each(ADAPTERS)('OAuth with the app guards of http.guards, on %s', (adapter) => {
  let issuer: TokenIssuer;
  let app: INestApplication;
  let url: URL;
  const resource = 'http://127.0.0.1/mcp';

  beforeAll(async () => {
    issuer = await new TokenIssuer().start();
    ({ app, url } = await startApp(
      notesModule({
        http: { guards: [accountGuard] },
        auth: { authorizationServers: [issuer.issuer], resource },
      }),
      { adapter, logger: logs },
    ));
  });
  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  it('runs them after the token is verified, on request.user', async () => {
    const good = await issuer.mint(resource, { scope: 'notes.read' });
    expect((await post(url, 'modern', 'tools/list', {}, good)).status).toBe(200);
  });

  it('adds the challenge to a 401 one of them answers, and none to a 403', async () => {
    const suspended = await issuer.mint(resource, { claims: { suspended: true } });
    const refused = await post(url, 'modern', 'tools/list', {}, suspended);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text).message).toBe('This account is suspended');
    expect(refused.challenge).toBe(
      `Bearer error="invalid_token", error_description="The access token was refused by this server's ` +
        `authentication: get a new one or use another account", ` +
        'resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
    );
    const readOnly = await issuer.mint(resource, { claims: { readOnly: true } });
    const forbidden = await post(url, 'modern', 'tools/list', {}, readOnly);
    expect(forbidden.status).toBe(403);
    expect(forbidden.challenge).toBeNull();
  });
});

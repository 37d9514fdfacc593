import {
  ClientCredentialsProvider,
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import {
  Controller,
  Get,
  Inject,
  Injectable,
  Req,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { createPublicKey } from 'node:crypto';
import { decodeProtectedHeader, type JWK } from 'jose';
import { ExtractJwt, type SecretOrKeyProvider, Strategy as JwtStrategyBase } from 'passport-jwt';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  type OAuthApp,
  READ_TOOLS,
  startOAuthApp,
  WRITE_TOOLS,
} from '../fixtures/oauth.fixture.js';
import {
  claimsOf,
  DEFAULT_CLIENT,
  type RunningAuthorizationServer,
  startAuthorizationServer,
} from '../support/authorization-server.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS } from '../support/fixture-app.js';
import { CLIENTS } from '../support/mcp-clients.js';
import { modernRequest } from '../support/mcp-post.js';
import { challengeOf } from '../support/oauth-clients.js';

// An app that already authenticates with passport-jwt keeps its strategy as the MCP
// endpoint's guard; `auth` adds what MCP clients need around it: the metadata and the
// challenges. The scopes the strategy puts on request.user reach @McpScopes.

const logs = captureLogs();

/** Where the app's existing JWT setup finds the authorization server. */
const JWT_SETTINGS = Symbol('JWT_SETTINGS');
interface JwtSettings {
  issuer: string;
  audience: string;
  jwksUri: string;
}

/** What jwks-rsa does: the PEM of the JWKS key named by the token's `kid`, the JWKS fetched once. */
function jwksKeyProvider(jwksUri: string): SecretOrKeyProvider {
  let keys: Promise<JWK[]> | undefined;
  return (_request, rawJwtToken: string, done) => {
    keys ??= fetch(jwksUri).then(
      async (response) => ((await response.json()) as { keys: JWK[] }).keys,
    );
    keys
      .then((all) => {
        const { kid } = decodeProtectedHeader(rawJwtToken);
        const jwk = all.find((key) => key.kid === kid);
        if (!jwk) return done(new Error(`No key ${kid} in ${jwksUri}`));
        done(
          null,
          createPublicKey({ key: jwk as any, format: 'jwk' }).export({
            type: 'spki',
            format: 'pem',
          }),
        );
      })
      .catch((error: Error) => done(error));
  };
}

/** The app's existing Passport strategy for its JWT access tokens, unchanged by MCP. */
@Injectable()
class JwtStrategy extends PassportStrategy(JwtStrategyBase, 'jwt') {
  constructor(@Inject(JWT_SETTINGS) settings: JwtSettings) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      issuer: settings.issuer,
      audience: settings.audience,
      algorithms: ['RS256'],
      secretOrKeyProvider: jwksKeyProvider(settings.jwksUri),
    });
  }

  validate(payload: { sub: string; client_id: string; scope?: string }) {
    // The app's own rule, which the token alone does not show.
    if (payload.client_id === SUSPENDED_CLIENT.clientId)
      throw new UnauthorizedException('This client is suspended');
    return {
      id: payload.sub,
      clientId: payload.client_id,
      scope: payload.scope,
      via: 'passport-jwt',
    };
  }
}

/** The app's REST API, behind the same guard. */
@Controller('me')
@UseGuards(AuthGuard('jwt'))
class MeController {
  @Get()
  me(@Req() req: { user: unknown }) {
    return req.user;
  }
}

/** A client the authorization server still serves, but the app's strategy refuses. */
const SUSPENDED_CLIENT = {
  clientId: 'suspended-agent',
  clientSecret: 'suspended-secret-0123456789',
};

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');

describe.each(ADAPTERS)(
  'passport-jwt as the endpoint guard, with auth for the metadata and challenges, on %s',
  (adapter) => {
    let as: RunningAuthorizationServer;
    let running: OAuthApp;
    let resource: string;
    let metadataUrl: string;
    let readToken: string;
    let fullToken: string;

    beforeAll(async () => {
      const port = await freePort();
      resource = `http://127.0.0.1:${port}/mcp`;
      metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
      as = await startAuthorizationServer({
        resource,
        clients: [DEFAULT_CLIENT, SUSPENDED_CLIENT],
      });
      running = await startOAuthApp({
        adapter,
        port,
        logger: logs,
        imports: [PassportModule],
        controllers: [MeController],
        providers: [
          JwtStrategy,
          {
            provide: JWT_SETTINGS,
            useValue: { issuer: as.issuer, audience: resource, jwksUri: as.jwksUri },
          },
        ],
        mcp: {
          http: { guards: [AuthGuard('jwt')] },
          auth: { authorizationServers: [as.issuer], resource },
        },
      });
      readToken = await as.clientCredentialsToken('catalog.read');
      fullToken = await as.clientCredentialsToken('catalog.read catalog.write');
    });

    afterAll(async () => {
      await running?.close();
      await as?.close();
    });

    const post = (method: string, params: Record<string, unknown> = {}, headers = {}) =>
      modernRequest(running.app, '/mcp', method, params, headers);

    it('answers a request without a token with 401 and the challenge naming the metadata', async () => {
      const res = await post('tools/list');
      expect(res.status).toBe(401);
      expect(challengeOf(res.headers['www-authenticate'])).toEqual({
        scheme: 'Bearer',
        params: expect.objectContaining({ resource_metadata: metadataUrl }),
      });
      const metadata = await (await fetch(metadataUrl)).json();
      expect(metadata).toMatchObject({ resource, authorization_servers: [as.issuer] });
    });

    it('answers a token the strategy refuses with 401 and the challenge, and keeps serving', async () => {
      const claims = claimsOf(readToken);
      const elsewhere = await as.signAccessToken({
        ...claims,
        aud: 'https://elsewhere.example/mcp',
      });
      const res = await post('tools/list', {}, bearer(elsewhere));
      expect(res.status).toBe(401);
      expect(challengeOf(res.headers['www-authenticate']).params.resource_metadata).toBe(
        metadataUrl,
      );
      expect((await post('tools/list', {}, bearer(readToken))).status).toBe(200);
    });

    it('answers a valid token that only the strategy refuses with 401 and the challenge', async () => {
      const suspended = await as.clientCredentialsToken('catalog.read', {
        clientId: SUSPENDED_CLIENT.clientId,
      });
      const res = await post('tools/list', {}, bearer(suspended));
      expect(res.status).toBe(401);
      expect(challengeOf(res.headers['www-authenticate'])).toEqual({
        scheme: 'Bearer',
        params: expect.objectContaining({ resource_metadata: metadataUrl }),
      });
      expect((await post('tools/list', {}, bearer(readToken))).status).toBe(200);
    });

    describe.each(CLIENTS)('$era with a bearer header', ({ connect }) => {
      it("lists and calls what the token's scopes allow, as the strategy's user carries them", async () => {
        const reader = await connect(running.url, readToken);
        const writer = await connect(running.url, fullToken);
        try {
          expect((await reader.listTools()).tools.map((tool) => tool.name).toSorted()).toEqual(
            READ_TOOLS.toSorted(),
          );
          expect((await writer.listTools()).tools.map((tool) => tool.name).toSorted()).toEqual(
            [...READ_TOOLS, ...WRITE_TOOLS].toSorted(),
          );
          expect(textOf(await writer.callTool('add_product', { name: 'kale' }))).toBe('added kale');
          await expect(reader.callTool('remove_product', { name: 'kale' })).rejects.toThrow(
            /403|insufficient.scope|forbidden/i,
          );
          const seen = JSON.parse(textOf(await reader.callTool('who_am_i', {})));
          expect(seen.user).toEqual({
            id: DEFAULT_CLIENT.clientId,
            clientId: DEFAULT_CLIENT.clientId,
            scope: 'catalog.read',
            via: 'passport-jwt',
          });
          expect(seen.scopes).toEqual(['catalog.read']);
        } finally {
          await reader.close();
          await writer.close();
        }
      });
    });

    it('answers a call the scopes do not cover with 403 insufficient_scope naming catalog.write', async () => {
      const res = await post(
        'tools/call',
        { name: 'add_product', arguments: { name: 'leek' } },
        bearer(readToken),
      );
      expect(res.status).toBe(403);
      expect(challengeOf(res.headers['www-authenticate']).params).toMatchObject({
        error: 'insufficient_scope',
        scope: 'catalog.write',
        resource_metadata: metadataUrl,
      });
    });

    it('lets the v2 client find the issuer from the challenge and get a token the strategy accepts', async () => {
      const client = new ModernClient(
        { name: 'passport-e2e', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new ModernTransport(running.url, {
          authProvider: new ClientCredentialsProvider({
            clientId: DEFAULT_CLIENT.clientId,
            clientSecret: DEFAULT_CLIENT.clientSecret,
            expectedIssuer: as.issuer,
          }),
        }),
      );
      try {
        expect(
          textOf(await client.callTool({ name: 'add_product', arguments: { name: 'chard' } })),
        ).toBe('added chard');
      } finally {
        await client.close();
      }
    });

    it('keeps the REST API behind the same strategy', async () => {
      const server = running.app.getHttpServer();
      expect((await request(server).get('/me')).status).toBe(401);
      const me = await request(server).get('/me').set(bearer(readToken));
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ via: 'passport-jwt', scope: 'catalog.read' });
    });
  },
);

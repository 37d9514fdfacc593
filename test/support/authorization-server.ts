import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  decodeJwt,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JWK,
  type JWTHeaderParameters,
  type JWTPayload,
  SignJWT,
} from 'jose';
import Provider, { type ClientMetadata, errors } from 'oidc-provider';
import { finishInteraction, followAuthorization } from './authorization-server.interaction.js';
import { memoryAdapter } from './oidc-memory.adapter.js';

/** The scopes the catalog resource server knows, as the issue's tests use them. */
export const CATALOG_SCOPES = ['catalog.read', 'catalog.write'] as const;

/** A confidential client registered up front, for the client-credentials grant. */
export interface ConfidentialClient {
  clientId: string;
  clientSecret: string;
  /**
   * The resource scopes this client may be granted; a request for others gets fewer.
   * @default every scope of the resource server
   */
  scopes?: readonly string[];
}

export interface StartAuthorizationServerOptions {
  /**
   * The resource indicator (RFC 8707) tokens are issued for: the MCP endpoint's canonical URL.
   * More resources can be added with `allowResource`, before or after the server listens.
   */
  resource?: string;
  /** Further resources the server issues tokens for (another MCP server, say). @default [] */
  otherResources?: readonly string[];
  /**
   * Resources whose access tokens are opaque, for introspection (RFC 7662) by
   * `RESOURCE_SERVER_CLIENT`, instead of JWTs. They are issued for like any other resource.
   * @default []
   */
  opaqueResources?: readonly string[];
  /** Scopes of every resource server. @default CATALOG_SCOPES */
  scopes?: readonly string[];
  /** Confidential clients. @default one client, `DEFAULT_CLIENT`, that may get every scope */
  clients?: readonly ConfidentialClient[];
  /** The signing algorithm of access tokens. @default 'RS256' */
  alg?: 'RS256' | 'ES256';
  /** Lifetime of access tokens, in seconds. @default 600 */
  accessTokenTtl?: number;
  /** The account an authorization-code login signs in as. @default 'ada' */
  account?: string;
}

/** Where oidc-provider serves token introspection (its default route). */
const INTROSPECTION_PATH = '/token/introspection';

/** The client registered when `clients` is not given. */
export const DEFAULT_CLIENT: ConfidentialClient = {
  clientId: 'catalog-agent',
  clientSecret: 'catalog-agent-secret-0123456789',
};

/**
 * The resource server's own credentials, registered on every server: what an MCP server
 * authenticates to the introspection endpoint with (`auth.introspection`).
 */
export const RESOURCE_SERVER_CLIENT: ConfidentialClient = {
  clientId: 'catalog-mcp-server',
  clientSecret: 'catalog-mcp-server-secret-0123456789',
};

/** A public client (no secret, PKCE) registered on every server, for the authorization code. */
export const PUBLIC_CLIENT = {
  clientId: 'catalog-desktop',
  redirectUri: 'http://127.0.0.1/callback',
} as const;

export interface TokenOptions {
  /** @default the server's `resource` */
  resource?: string;
  /** @default the first confidential client */
  clientId?: string;
}

export interface AuthorizeResult {
  /** The URL the authorization server redirected the user agent to (the client's redirect URI). */
  redirect: URL;
  code: string | null;
  state: string | null;
  iss: string | null;
  error: string | null;
}

export interface RunningAuthorizationServer {
  /** The issuer identifier, `http://127.0.0.1:<port>` (no trailing slash). */
  readonly issuer: string;
  readonly jwksUri: string;
  readonly tokenEndpoint: string;
  /** The public signing keys, as `jwks_uri` serves them, the current one first. */
  readonly jwks: { keys: JWK[] };
  /** The current public signing key as an SPKI PEM (for the HS256-with-the-public-key attack). */
  readonly publicKeyPem: string;
  /**
   * Rotates the signing key: a new key (new `kid`) signs from now on, and the JWKS
   * publishes it before the previous ones, which stay published.
   */
  rotateSigningKey(): Promise<void>;
  /** Issues tokens for `resource` too (the sample's URL, known once it listens). */
  allowResource(resource: string): void;
  /** A JWT access token from the client-credentials grant, through the token endpoint. */
  clientCredentialsToken(scope: string, options?: TokenOptions): Promise<string>;
  /** Revokes a token (RFC 7009) as the first confidential client. */
  revoke(token: string): Promise<void>;
  /** The requests the server received, as `METHOD /path` (no query), oldest first. */
  readonly requests: readonly string[];
  /** How many introspection requests (RFC 7662) the server received. */
  introspections(): number;
  /**
   * Makes the introspection endpoint answer `status` with `headers` and no body (a rate
   * limit, an outage) instead of introspecting; `undefined` restores it.
   */
  failIntrospection(status: number | undefined, headers?: Record<string, string>): void;
  /** The token endpoint's answer, status and JSON, for requests a test expects to be refused. */
  tokenRequest(params: Record<string, string>, clientId?: string): Promise<TokenAnswer>;
  /**
   * Signs `claims` with this server's own access-token key (its `kid`, `typ: at+jwt`): a
   * token only the claims can make invalid (expired, wrong audience...).
   */
  signAccessToken(claims: JWTPayload, header?: Partial<JWTHeaderParameters>): Promise<string>;
  /**
   * Plays the user agent of an authorization-code request: loads `authorizationUrl`, signs
   * in as the configured account, consents to what is asked, and follows the redirects
   * (with cookies) until the one that leaves the authorization server.
   */
  authorize(authorizationUrl: string | URL): Promise<AuthorizeResult>;
  close(): Promise<void>;
}

export interface TokenAnswer {
  status: number;
  body: Record<string, any>;
}

/** The claims of a JWT, unverified (the test reads what it was given). */
export const claimsOf = (token: string): JWTPayload => decodeJwt(token);

/** The `Authorization` header of client_secret_basic (RFC 6749 §2.3.1). */
const basicAuth = (client: ConfidentialClient) =>
  `Basic ${Buffer.from(
    `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
  ).toString('base64')}`;

/**
 * Starts a real OpenID provider (oidc-provider) in-process on 127.0.0.1 with a free port. It
 * issues RFC 9068 JWT access tokens for resource indicators (RFC 8707), through the
 * client-credentials grant and the authorization code with PKCE; dynamic client
 * registration (RFC 7591) is open, as the MCP SDK client's OAuth flow uses it.
 */
export async function startAuthorizationServer(
  options: StartAuthorizationServerOptions = {},
): Promise<RunningAuthorizationServer> {
  const scopes = [...(options.scopes ?? CATALOG_SCOPES)];
  const clients = [...(options.clients ?? [DEFAULT_CLIENT])];
  const alg = options.alg ?? 'RS256';
  const accessTokenTtl = options.accessTokenTtl ?? 600;
  const resources = new Set<string>(
    [
      options.resource,
      ...(options.otherResources ?? []),
      ...(options.opaqueResources ?? []),
    ].filter((r): r is string => !!r),
  );
  const signingKeys: SigningKey[] = [await newSigningKey(alg, 1)];

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const opaque = new Set(options.opaqueResources ?? []);
  const staticClients: ClientMetadata[] = [
    {
      client_id: RESOURCE_SERVER_CLIENT.clientId,
      client_secret: RESOURCE_SERVER_CLIENT.clientSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
    },
    ...clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: scopes.join(' '),
    })),
    {
      client_id: PUBLIC_CLIENT.clientId,
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [PUBLIC_CLIENT.redirectUri],
    },
  ];
  const allowedScopes = new Map(clients.map((c) => [c.clientId, c.scopes ?? scopes]));

  const Adapter = memoryAdapter();
  // oidc-provider reads its keys once: a rotation builds a new provider on the same storage.
  const makeProvider = () =>
    new Provider(issuer, {
      adapter: Adapter,
      clients: staticClients,
      jwks: { keys: signingKeys.map((key) => key.privateJwk) },
      // Resource scopes must also be Authorization Server scopes: the MCP SDK registers its
      // client (RFC 7591) with the scopes it is about to ask for.
      scopes: ['openid', 'offline_access', ...scopes],
      claims: { openid: ['sub'] },
      findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
      cookies: { keys: ['authorization-server-test-cookie-key'] },
      // Every lifetime set, so the provider does not print a notice for each default.
      ttl: {
        AccessToken: accessTokenTtl,
        ClientCredentials: accessTokenTtl,
        AuthorizationCode: 60,
        IdToken: 600,
        RefreshToken: 3600,
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
      },
      pkce: { required: () => true },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        registration: { enabled: true },
        revocation: { enabled: true, allowedPolicy: async () => true },
        // Confidential clients may introspect any token (the resource server does).
        introspection: {
          enabled: true,
          allowedPolicy: async (_ctx: unknown, client: { clientAuthMethod: string }) =>
            client.clientAuthMethod !== 'none',
        },
        resourceIndicators: {
          enabled: true,
          defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (
            _ctx: unknown,
            resourceIndicator: string,
            client: { clientId: string },
          ) => {
            if (!resources.has(resourceIndicator))
              throw new errors.InvalidTarget(
                `this authorization server has no resource ${resourceIndicator}`,
              );
            const mayHave = allowedScopes.get(client.clientId) ?? scopes;
            return {
              scope: scopes.filter((scope) => mayHave.includes(scope)).join(' '),
              audience: resourceIndicator,
              accessTokenTTL: accessTokenTtl,
              accessTokenFormat: opaque.has(resourceIndicator) ? 'opaque' : 'jwt',
              jwt: { sign: { alg } },
            };
          },
        },
      },
    });

  const account = options.account ?? 'ada';
  let provider = makeProvider();
  let handle = provider.callback();
  const requests: string[] = [];
  let introspectionFailure: { status: number; headers: Record<string, string> } | undefined;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push(`${req.method} ${path}`);
    if (introspectionFailure && path === INTROSPECTION_PATH) {
      res.writeHead(introspectionFailure.status, introspectionFailure.headers).end();
    } else if (req.url?.startsWith('/interaction/'))
      void finishInteraction(provider, req, res, account).catch((error: Error) => {
        res.statusCode = 500;
        res.end(`interaction failed: ${error.message}`);
      });
    else handle(req, res);
  });

  const tokenEndpoint = `${issuer}/token`;
  const tokenRequest = async (
    params: Record<string, string>,
    clientId = clients[0]!.clientId,
  ): Promise<TokenAnswer> => {
    const client = clients.find((c) => c.clientId === clientId);
    if (!client) throw new Error(`No confidential client ${clientId} on this authorization server`);
    const response = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: basicAuth(client),
      },
      body: new URLSearchParams(params),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const revoke = async (token: string) => {
    const response = await fetch(`${issuer}/token/revocation`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: basicAuth(clients[0]!),
      },
      body: new URLSearchParams({ token }),
    });
    if (response.status !== 200) throw new Error(`Revocation refused: ${await response.text()}`);
  };

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint,
    get jwks() {
      return { keys: signingKeys.map((key) => key.publicJwk) };
    },
    get publicKeyPem() {
      return signingKeys[0]!.publicKeyPem;
    },
    async rotateSigningKey() {
      signingKeys.unshift(await newSigningKey(alg, signingKeys.length + 1));
      provider = makeProvider();
      handle = provider.callback();
    },
    allowResource: (resource) => void resources.add(resource),
    revoke,
    requests,
    introspections: () => requests.filter((line) => line === `POST ${INTROSPECTION_PATH}`).length,
    failIntrospection(status, headers = {}) {
      introspectionFailure = status === undefined ? undefined : { status, headers };
    },
    tokenRequest,
    async clientCredentialsToken(scope, tokenOptions = {}) {
      const resource = tokenOptions.resource ?? options.resource;
      if (!resource) throw new Error('clientCredentialsToken needs a resource');
      const answer = await tokenRequest(
        { grant_type: 'client_credentials', scope, resource },
        tokenOptions.clientId,
      );
      if (answer.status !== 200 || typeof answer.body.access_token !== 'string')
        throw new Error(`The token endpoint refused: ${JSON.stringify(answer.body)}`);
      return answer.body.access_token;
    },
    signAccessToken: (claims, header = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg, kid: signingKeys[0]!.kid, typ: 'at+jwt', ...header })
        .sign(signingKeys[0]!.privateKey),
    authorize: (authorizationUrl) => followAuthorization(new URL(authorizationUrl), issuer),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  privateJwk: JWK;
  publicJwk: JWK;
  publicKeyPem: string;
}

async function newSigningKey(alg: string, generation: number): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `as-${alg.toLowerCase()}-${generation}`;
  return {
    kid,
    privateKey,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' },
    publicKeyPem: await exportSPKI(publicKey),
  };
}

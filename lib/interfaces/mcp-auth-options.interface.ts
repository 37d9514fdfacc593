import type { AuthInfo } from '@modelcontextprotocol/server';

/**
 * Token introspection (RFC 7662), for an authorization server that issues opaque tokens.
 * An opaque token names no issuer, so one authorization server introspects them: a token
 * is never sent to another.
 */
export interface McpAuthIntrospectionOptions {
  /**
   * The authorization server whose opaque tokens are introspected, one of
   * `authorizationServers`; required when there are several. An answer that names another
   * `iss` is refused.
   * @default the only entry of `authorizationServers`
   */
  issuer?: string;
  /**
   * The introspection endpoint.
   * @default the `introspection_endpoint` of the issuer's metadata
   */
  endpoint?: string;
  /** The client id this server authenticates to the introspection endpoint with. */
  clientId: string;
  /** The client secret this server authenticates to the introspection endpoint with. */
  clientSecret: string;
  /**
   * How long an active answer is reused, in seconds: a revoked token is refused at the
   * latest this long after its revocation, and never past its `exp`. Answers are kept by a
   * hash of the token, at most 10,000 of them (the least recently used go first); an
   * inactive answer is kept 10 seconds. `0` asks the authorization server on every request
   * with an active token.
   * @default 60
   */
  cacheTtlSeconds?: number;
}

/**
 * The endpoint as an OAuth 2.1 resource server (MCP `basic/authorization`): it publishes
 * Protected Resource Metadata (RFC 9728), verifies bearer tokens and answers with
 * `WWW-Authenticate` challenges. See docs/authorization.md.
 */
export interface McpAuthOptions {
  /** The issuer URLs of the authorization servers whose tokens this server accepts. */
  authorizationServers: string[];
  /**
   * The canonical URL of this MCP server (the `resource` of RFC 8707 and RFC 9728): what
   * tokens must name in `aud` (unless `audience` is set) and the metadata names. Required
   * on the HTTP endpoint unless `http.allowedHosts` is set: then the resource is derived
   * from a request whose host (`Host`, or `X-Forwarded-Host` behind a trusted proxy) is in
   * that list, and a request naming another host is refused with 403.
   * @default none: the bootstrap fails unless `http.allowedHosts` is set (or `http: false`)
   */
  resource?: string;
  /**
   * The audience a token must name in `aud`.
   * @default the resource
   */
  audience?: string | string[];
  /**
   * The scopes listed in the metadata's `scopes_supported`.
   * @default every scope named by `@McpScopes()` on this server
   */
  scopesSupported?: string[];
  /** Verifies a token in place of the built-in JWT verifier (and introspection). */
  verifyToken?: (token: string, request: any) => Promise<AuthInfo>;
  /** Verifies opaque tokens through the authorization server's introspection endpoint. */
  introspection?: McpAuthIntrospectionOptions;
  /**
   * Scopes every request to the endpoint needs, whatever it asks for.
   * @default []
   */
  requiredScopes?: string[];
  /** The `resource_name` of the metadata: a human-readable name of this server. */
  resourceName?: string;
  /** The `resource_documentation` of the metadata: a URL of documentation for developers. */
  resourceDocumentation?: string;
  /**
   * The JWS algorithms a JWT access token may be signed with: asymmetric ones only (an
   * HMAC secret made of a public key, or `none`, is never accepted).
   * @default ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']
   */
  algorithms?: string[];
  /**
   * How far apart this server's clock and the authorization server's may be, in seconds,
   * when `exp` and `nbf` are checked.
   * @default 30
   */
  clockToleranceSeconds?: number;
  /**
   * The JWT `typ` headers an access token may carry (compared without `application/` and
   * case); a token without `typ` is accepted. RFC 9068 access tokens are `at+jwt`; Keycloak
   * and Entra ID sign theirs `JWT`: add `'JWT'` for them (the audience check still keeps
   * ID tokens out).
   * @default ['at+jwt']
   */
  tokenTypes?: string[];
}

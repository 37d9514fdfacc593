import type { AuthInfo } from '@modelcontextprotocol/server';

/** Token introspection (RFC 7662), for authorization servers that issue opaque tokens. */
export interface McpAuthIntrospectionOptions {
  /**
   * The introspection endpoint.
   * @default the `introspection_endpoint` of the authorization server's metadata
   */
  endpoint?: string;
  /** The client id this server authenticates to the introspection endpoint with. */
  clientId: string;
  /** The client secret this server authenticates to the introspection endpoint with. */
  clientSecret: string;
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
   * The canonical URL of this MCP server (the `resource` of RFC 8707 and RFC 9728).
   * @default derived from the request and the endpoint's path, with a warning to set it
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

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
}

import {
  getOAuthProtectedResourceMetadataUrl,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/server';

/** The well-known prefix of RFC 9728 §3. */
export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** What the Protected Resource Metadata of one MCP server says. */
export interface ProtectedResourceDescription {
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported: readonly string[];
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
}

/**
 * The RFC 9728 document: the resource, the authorization servers that issue tokens for
 * it, the scopes it knows and how tokens are sent (the header only, RFC 6750 §2.1).
 * `scopes_supported` is left out when the server names no scope.
 */
export function protectedResourceMetadata(
  description: ProtectedResourceDescription,
): OAuthProtectedResourceMetadata {
  const { resource, authorizationServers, scopesSupported, resourceName, resourceDocumentation } =
    description;
  return {
    resource,
    authorization_servers: [...authorizationServers],
    ...(scopesSupported.length > 0 && { scopes_supported: [...scopesSupported] }),
    bearer_methods_supported: ['header'],
    ...(resourceName !== undefined && { resource_name: resourceName }),
    ...(resourceDocumentation !== undefined && { resource_documentation: resourceDocumentation }),
  };
}

/** `/a//b/` → `/a/b`; `''` → `''` (the root). */
export const normalizePath = (path: string): string =>
  path
    .split('/')
    .filter(Boolean)
    .map((segment) => `/${segment}`)
    .join('');

/**
 * Where the metadata of a resource at `path` is served: the well-known prefix inserted
 * before the path (RFC 9728 §3.1), at the host root.
 */
export const protectedResourceMetadataPath = (path: string): string =>
  `${PROTECTED_RESOURCE_WELL_KNOWN}${normalizePath(path)}`;

/** The metadata URL of a resource URL (what `resource_metadata` in a challenge names). */
export const protectedResourceMetadataUrl = (resource: string): string =>
  getOAuthProtectedResourceMetadataUrl(new URL(resource));

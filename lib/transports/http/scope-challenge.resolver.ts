import type { ScopeChallengeHandler } from '@modelcontextprotocol/server';
import type { OAuthResourceServer } from '../../oauth/oauth-resource.server.js';
import type { McpProtocolRuntime } from '../../protocol/protocol-runtime.interface.js';

/**
 * The MCP SDK's scope challenge for one server with `auth`: before a `tools/call`,
 * `prompts/get` or `resources/read` is dispatched, the entry's `@McpScopes()` requirement
 * is checked against the verified token's scopes, and a token without them gets HTTP 403
 * with ONE `WWW-Authenticate: Bearer error="insufficient_scope", scope="<every scope the
 * operation needs>", resource_metadata="..."` challenge (the SDK builds it, on both eras,
 * stateless or in a 2025 session), so the client can step up. Without `auth` (and over
 * stdio) the guard's refusal stays an `isError` result. Listing is untouched: `tools/list`
 * keeps leaving out what the caller's guards refuse.
 */
export function operationScopeChallenge(
  server: McpProtocolRuntime,
  resourceServer: OAuthResourceServer,
): ScopeChallengeHandler {
  return ({ request, authInfo }) => {
    if (authInfo === undefined) return undefined;
    const found = server.scopeRequirementOf(request);
    if (!found) return undefined;
    const needed = resourceServer.missingScopes(found.requirement, authInfo.scopes);
    if (!needed) return undefined;
    return {
      scopes: needed as [string, ...string[]],
      errorDescription: resourceServer.operationRefusal(found.what, needed, authInfo.scopes),
    };
  };
}

import { emptyServerMessage } from '../messages/catalog.messages.js';
import type { ExploredPrimitives } from './mcp.explorer.js';
import {
  describeMembership,
  describeScope,
  isPublishedOn,
  type ServerMembership,
  type ServerScope,
} from './server-membership.js';

/**
 * The warning of a server that publishes nothing: what the scan saw, and where the app's
 * entries went instead (other groups or versions, `@McpHidden()`), so the likely cause is
 * named rather than guessed. A warning, not an error: entries may come at run time
 * (`McpServerHost#addTool()`).
 */
export function emptyServerReport(
  server: string,
  explored: ExploredPrimitives,
  scope: ServerScope,
): string {
  const entries: { membership?: ServerMembership }[] = [
    ...explored.tools,
    ...explored.prompts,
    ...explored.resources,
  ];
  const elsewhere = new Map<string, number>();
  for (const { membership } of entries) {
    if (isPublishedOn(membership, scope)) continue;
    const where = describeMembership(membership);
    elsewhere.set(where, (elsewhere.get(where) ?? 0) + 1);
  }
  return emptyServerMessage({
    server,
    scope: describeScope(scope),
    providers: explored.scanned.providers,
    controllers: explored.scanned.controllers,
    elsewhere: [...elsewhere].map(([where, count]) => `${count} ${where}`),
    hidden: explored.hidden.filter(({ membership }) => isPublishedOn(membership, scope)).length,
  });
}

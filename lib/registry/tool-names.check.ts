import type { DiscoveredTool } from '../discovery/discovered-tool.interface.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { aliasTakenMessage } from '../messages/names.messages.js';

/**
 * Fails the bootstrap when an alias of one server's tools is also a name or another alias
 * there (names among themselves are checked by `assertUnique`): `tools/call` could not tell
 * which tool a client means. Names both methods.
 */
export function assertUniqueAliases(tools: readonly DiscoveredTool[]): void {
  const owners = new Map<string, { where: string; as: string }>();
  for (const tool of tools) owners.set(tool.definition.name, { where: tool.where, as: 'name' });
  for (const tool of tools) {
    for (const alias of tool.aliases ?? []) {
      const owner = owners.get(alias);
      if (owner) {
        throw new McpConfigurationError(aliasTakenMessage(alias, tool.where, owner));
      }
      owners.set(alias, { where: tool.where, as: 'alias' });
    }
  }
}

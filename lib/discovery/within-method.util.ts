import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { inMethodMessage } from '../messages/discovery.messages.js';

/** Runs a bootstrap step so that a configuration mistake names the method it belongs to. */
export function withinMethod<T>(where: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof McpConfigurationError) {
      throw new McpConfigurationError(inMethodMessage(where, error.message));
    }
    throw error;
  }
}

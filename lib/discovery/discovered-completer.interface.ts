import type { McpCompletionTarget } from '../interfaces/mcp-completion.interface.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';

/** A `@McpCompletion()` method found at bootstrap. */
export interface DiscoveredCompleter {
  readonly target: McpCompletionTarget;
  readonly where: string;
  readonly wrapper: InstanceWrapper;
  readonly methodName: string;
}

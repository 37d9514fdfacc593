import type { Icon } from '@modelcontextprotocol/server';
import type { McpArgumentOptions } from './mcp-tool-options.interface.js';
import type { McpMembershipOptions } from './mcp-group-options.interface.js';

/** Options of `@McpPrompt()`. Every field is optional. */
export interface McpPromptOptions extends McpMembershipOptions {
  /**
   * The prompt's name, unique per server.
   * @default the method name in snake_case (`summarizeOrders` → `summarize_orders`)
   */
  name?: string;
  /** A human-readable title for clients to display. */
  title?: string;
  /** What the prompt is for; clients show it to the user who picks a prompt. */
  description?: string;
  /** Icons for clients to display (`src` must be `https:` or `data:`). */
  icons?: Icon[];
  /** Extra metadata published with the prompt in `prompts/list`. */
  _meta?: Record<string, unknown>;
  /**
   * Descriptions of the arguments, by property name of the arguments DTO; they take
   * precedence over `@ApiProperty()` descriptions.
   */
  arguments?: Record<string, string | Pick<McpArgumentOptions, 'description'>>;
  /** Keeps the method off MCP, with the reason why. */
  hidden?: string;
}

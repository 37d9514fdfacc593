import type { Icon, ToolAnnotations } from '@modelcontextprotocol/server';

/** Options of `@McpTool()`. Every field is optional. */
export interface McpToolOptions {
  /**
   * The tool's name, unique per server and matching `^[a-zA-Z0-9_.-]{1,128}$`.
   * @default the method name in snake_case (`searchProducts` → `search_products`)
   */
  name?: string;
  /**
   * A human-readable title for clients to display.
   * @default the `summary` of `@ApiOperation()` (`@nestjs/swagger`) when present
   */
  title?: string;
  /**
   * What the tool does, written for the model that decides whether to call it.
   * @default the `description` of `@ApiOperation()` when present; without either, a
   * warning names the method at bootstrap
   */
  description?: string;
  /** Behaviour hints for clients (read-only, destructive, idempotent, open-world). */
  annotations?: ToolAnnotations;
  /** Icons for clients to display (`src` must be `https:` or `data:`). */
  icons?: Icon[];
  /** Extra metadata published with the tool in `tools/list`. */
  _meta?: Record<string, unknown>;
  /**
   * Keeps the method off MCP, with the reason why (for the next reader, the startup log at
   * debug level and `McpServerHost#hiddenTools()`). Useful to keep the decorator and its
   * options while a tool is withdrawn.
   */
  hidden?: string;
}

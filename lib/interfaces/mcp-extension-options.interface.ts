import type { McpMembershipOptions } from './mcp-group-options.interface.js';

/**
 * The settings of an extension, advertised with it in `capabilities.extensions`: the
 * object its specification defines, `{}` when it defines none (SEP-2133).
 */
export type McpExtensionSettings = Readonly<Record<string, unknown>>;

/** Options of `@McpMethod()`. */
export interface McpMethodOptions extends McpMembershipOptions {
  /**
   * The extension the method belongs to (`com.example/audit`): it is advertised, and a
   * caller that did not declare it gets `-32021` instead of an answer.
   * @default the extension of the class's `@McpExtension()`
   */
  extension?: string;
}

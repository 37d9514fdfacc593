import type { McpExplorerOptions } from '../interfaces/mcp-explorer-options.interface.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { DEFAULT_HTTP_PATH } from '../mcp.constants.js';
import { normalizePath } from '../oauth/protected-resource-metadata.js';

/** Where a server's explorer is, when it has one. */
export interface ExplorerMount {
  /** Its path below the app's global prefix, such as `/mcp/explorer`. */
  readonly path: string;
  /** `explorer.title`, when set. */
  readonly title?: string;
}

/** Why a server has no explorer, for the bootstrap's debug line. */
export type ExplorerOff = 'option' | 'production' | 'no-http';

/**
 * The explorer of a server's options: on by default, off in production unless the options
 * turn it on (`explorer: true`, `{ enabled: true }`), off whenever they turn it off, and
 * off without the HTTP endpoint. `NODE_ENV` is read once, at bootstrap.
 */
export function explorerMountOf(
  options: McpModuleOptions,
  nodeEnv: string | undefined = process.env.NODE_ENV,
): ExplorerMount | ExplorerOff {
  const { explorer, http } = options;
  if (http === false) return 'no-http';
  const settings: McpExplorerOptions =
    typeof explorer === 'object' ? explorer : { enabled: explorer };
  if (settings.enabled === false) return 'option';
  if (settings.enabled === undefined && nodeEnv === 'production') return 'production';
  const path = settings.path ?? `/${http?.path ?? DEFAULT_HTTP_PATH}/explorer`;
  return {
    path: normalizePath(path),
    ...(settings.title !== undefined && { title: settings.title }),
  };
}

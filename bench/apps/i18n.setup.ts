import { fileURLToPath } from 'node:url';
import type { McpModuleOptions } from 'nestjs-mcp';

// The `i18n` option of the localization bench (j): English is the code's, German comes from
// YAML files. A translation key that names no published tool fails the bootstrap, so each
// server has the directory of its own tools: `call/` (add_numbers) and `list-100/`
// (add_numbers and the 99 generated tools of the 100-tool list).

/** The tool counts that have translations. */
export const I18N_TOOL_COUNTS = [1, 100] as const;

/** The German title the list answers must carry, by tool name (checked before measuring). */
export const GERMAN_TITLES = { add_numbers: 'Zahlen addieren', tool_0000: 'Werkzeug 0000' };

/** The module's `i18n` for a server of `tools` tools. */
export function benchI18n(tools: number): NonNullable<McpModuleOptions['i18n']> {
  if (!(I18N_TOOL_COUNTS as readonly number[]).includes(tools))
    throw new Error(`no bench translations for ${tools} tools (${I18N_TOOL_COUNTS.join(', ')})`);
  // tsc does not copy YAML: from dist-bench/apps/ back to the sources in bench/apps/i18n/.
  const directory = new URL(
    `../../bench/apps/i18n/${tools === 1 ? 'call' : 'list-100'}/`,
    import.meta.url,
  );
  return { defaultLocale: 'en', translations: fileURLToPath(directory) };
}

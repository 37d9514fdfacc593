import { isDeepStrictEqual } from 'node:util';
import type {
  DiscoveredExtension,
  DiscoveredExtensionMethod,
} from '../discovery/discovered-extension-method.interface.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpExtensionSettings } from '../interfaces/mcp-extension-options.interface.js';
import { conflictingExtensionSettingsMessage } from '../messages/extensions.messages.js';

/**
 * The extensions one server advertises for the app: the `extensions` option, the
 * `@McpExtension()` classes of its group, and the extension of each of its methods (with
 * `{}` unless one of those declares it). One extension declared twice with other settings
 * fails the bootstrap: the server could advertise only one of them.
 */
export function serverExtensions(
  option: Readonly<Record<string, McpExtensionSettings>> | undefined,
  classes: readonly DiscoveredExtension[],
  methods: readonly DiscoveredExtensionMethod[],
): ReadonlyMap<string, McpExtensionSettings> {
  const declared = new Map<string, { settings: McpExtensionSettings; where: string }>();
  const declarations = [
    ...Object.entries(option ?? {}).map(([id, settings]) => ({
      id,
      settings,
      where: 'the "extensions" option',
    })),
    ...classes,
  ];
  for (const { id, settings, where } of declarations) {
    const earlier = declared.get(id);
    if (earlier && !isDeepStrictEqual(earlier.settings, settings)) {
      throw new McpConfigurationError(
        conflictingExtensionSettingsMessage(id, [earlier.where, where]),
      );
    }
    declared.set(id, earlier ?? { settings, where });
  }
  const extensions = new Map([...declared].map(([id, { settings }]) => [id, settings]));
  for (const { extension } of methods) {
    if (!extensions.has(extension)) extensions.set(extension, {});
  }
  return extensions;
}

import {
  builtInExtensionMessage,
  invalidExtensionIdMessage,
  invalidExtensionSettingsMessage,
} from '../messages/extensions.messages.js';
import { BUILT_IN_EXTENSIONS, EXTENSION_ID_PATTERN } from '../mcp.constants.js';
import { isOptionsObject } from './option-checks.js';

/**
 * The problem of an extension the app declares (the `extensions` option, `@McpExtension()`,
 * `@McpMethod({ extension })`), if any: an identifier SEP-2133 does not allow, one the
 * library implements itself, or settings that are not an object.
 * @param where who declares it, for the message
 */
export function extensionProblem(
  id: unknown,
  settings: unknown,
  where: string,
): string | undefined {
  if (typeof id !== 'string' || !EXTENSION_ID_PATTERN.test(id)) {
    return invalidExtensionIdMessage(id, where);
  }
  if (Object.hasOwn(BUILT_IN_EXTENSIONS, id)) return builtInExtensionMessage(id, where);
  if (!isOptionsObject(settings)) return invalidExtensionSettingsMessage(id, where);
  return undefined;
}

/** The problems of the `extensions` option: settings by extension identifier. */
export function extensionsOptionsProblems(extensions: unknown): string[] {
  if (extensions === undefined) return [];
  if (!isOptionsObject(extensions)) {
    return [
      '"extensions" must be an object of settings by extension identifier, such as ' +
        '{ "com.example/audit": { retentionDays: 30 } }',
    ];
  }
  return Object.entries(extensions)
    .map(([id, settings]) => extensionProblem(id, settings, 'the "extensions" option'))
    .filter((problem): problem is string => problem !== undefined);
}

import { CLIENT_CAPABILITIES_META_KEY, type ProtocolEra } from '@modelcontextprotocol/server';

/**
 * The messages about extensions the app declares (SEP-2133): their identifiers and
 * settings, the JSON-RPC methods `@McpMethod()` adds, and the refusal a caller gets when it
 * did not declare the extension of a method.
 */

/** `where`: `the "extensions" option` or `@McpExtension() of AuditExtension`. */
export const invalidExtensionIdMessage = (id: unknown, where: string): string =>
  `The extension identifier ${JSON.stringify(id)} of ${where} is not valid: an extension ` +
  `is named {vendor-prefix}/{extension-name} with a reversed domain the vendor owns as the ` +
  `prefix, such as "com.example/audit" (SEP-2133).`;

export const invalidExtensionSettingsMessage = (id: string, where: string): string =>
  `The settings of the extension "${id}" (${where}) must be a plain object, {} when the ` +
  `extension defines none.`;

export const builtInExtensionMessage = (id: string, where: string): string =>
  `The extension "${id}" (${where}) is implemented by nestjs-mcp itself, which advertises ` +
  `it when the server uses it: remove it from the app's declarations.`;

/** The same extension declared twice (option, classes) with settings that differ. */
export const conflictingExtensionSettingsMessage = (id: string, where: string[]): string =>
  `The extension "${id}" is declared with different settings by ${where.join(' and ')}. ` +
  `A server advertises one set of settings per extension: declare them in one place.`;

export const invalidMethodNameMessage = (method: unknown, where: string): string =>
  `The method ${JSON.stringify(method)} of @McpMethod() on ${where} is not a JSON-RPC ` +
  `method name this library can add: give a non-empty name without spaces that does not ` +
  `start with "rpc." (reserved by JSON-RPC), such as "com.example/audit.query".`;

/** A method of MCP itself (either revision), which an extension cannot take over. */
export const specMethodMessage = (method: string, where: string): string =>
  `${where} handles "${method}", a method of MCP itself: an extension adds methods of its ` +
  `own. Give it a name of the extension's, such as "com.example/audit.query".`;

export const builtInMethodMessage = (method: string, extension: string, where: string): string =>
  `${where} handles "${method}", a method of the extension "${extension}", which ` +
  `nestjs-mcp implements itself. Give it a name of the app's extension.`;

export const methodWithoutExtensionMessage = (method: string, where: string): string =>
  `${where} handles "${method}" without an extension: a client calls an extension's ` +
  `methods only after declaring the extension. Name it with @McpMethod('${method}', ` +
  `{ extension: 'com.example/...' }) or with @McpExtension() on the class.`;

/**
 * To the caller: `what` needs an extension it did not declare (`-32021`), and where to
 * declare it on its revision.
 */
export function extensionRequiredMessage(what: string, id: string, era: ProtocolEra): string {
  const where =
    era === 'modern'
      ? `params._meta["${CLIENT_CAPABILITIES_META_KEY}"].extensions`
      : `capabilities.extensions of initialize, on a connection that keeps it (stdio or a ` +
        `2025 session)`;
  return `${what} needs the extension "${id}": declare "${id}" in ${where}.`;
}

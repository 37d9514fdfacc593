import { Server } from '@modelcontextprotocol/server';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import {
  builtInMethodMessage,
  invalidMethodNameMessage,
  specMethodMessage,
} from '../messages/extensions.messages.js';
import { BUILT_IN_EXTENSIONS } from '../mcp.constants.js';
import { extensionProblem } from '../options/extensions-options.validator.js';

/** A server that is never connected: it only answers whether a method is MCP's own. */
let probe: Server | undefined;

/**
 * Whether `method` is a request method of an MCP revision the SDK speaks (`tools/call`,
 * `tasks/get`, `server/discover`...). The SDK's own rule, asked rather than restated: its
 * two-argument `setRequestHandler()` takes spec methods only (custom ones need schemas).
 */
export function isSpecRequestMethod(method: string): boolean {
  probe ??= new Server(
    { name: 'nestjs-mcp-method-probe', version: '0.0.0' },
    { capabilities: { tools: {}, prompts: {}, resources: {}, completions: {}, logging: {} } },
  );
  try {
    probe.setRequestHandler(method as 'ping', () => ({}));
    return true;
  } catch (error) {
    if (error instanceof TypeError) return false;
    throw error;
  }
}

/** Fails bootstrap for an extension the app cannot declare (`where` declares it). */
export function assertExtension(
  id: unknown,
  settings: unknown,
  where: string,
): asserts id is string {
  const problem = extensionProblem(id, settings, where);
  if (problem !== undefined) throw new McpConfigurationError(problem);
}

/**
 * Fails bootstrap for a method an extension cannot add: not a JSON-RPC method name, one
 * of MCP's own (either revision), or one of an extension the library implements.
 */
export function assertExtensionMethod(method: unknown, where: string): asserts method is string {
  if (typeof method !== 'string' || !/^\S+$/.test(method) || method.startsWith('rpc.')) {
    throw new McpConfigurationError(invalidMethodNameMessage(method, where));
  }
  // The SDK knows its requests; notifications are MCP's by their namespace.
  if (isSpecRequestMethod(method) || method.startsWith('notifications/')) {
    throw new McpConfigurationError(specMethodMessage(method, where));
  }
  for (const [extension, methods] of Object.entries(BUILT_IN_EXTENSIONS)) {
    if (methods.includes(method)) {
      throw new McpConfigurationError(builtInMethodMessage(method, extension, where));
    }
  }
}

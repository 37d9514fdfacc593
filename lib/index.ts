// The public API of nestjs-mcp. Internals (explorer, invoker, registry) stay unexported.
export * from './decorators/index.js';
export * from './errors/index.js';
export { McpExecutionContext, type McpContextType } from './context/mcp-execution-context.js';
export * from './interfaces/index.js';
export { MCP_CONTEXT_TYPE } from './mcp.constants.js';
export { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
export { McpModule } from './mcp.module.js';
export { McpServerHost } from './servers/mcp-server.host.js';
export { McpServers } from './servers/mcp-servers.js';
export type { McpHiddenMethod } from './discovery/mcp.explorer.js';
export { McpScopesGuard } from './authorization/mcp-scopes.guard.js';
export { McpEvents } from './events/mcp-events.js';
export { MCP_TOOL_CALLED_EVENT, type McpToolCalledEvent } from './events/mcp-tool-called.event.js';
export { mcpCacheKey } from './context/mcp-cache-key.js';
export * from './content/index.js';
export { KNOWN_SCHEMA_GAPS, type KnownSchemaGap } from './schema/known-schema-gaps.js';
export * from './transports/stdio/index.js';
// The SDK's builder for multi round-trip answers (ask the user, the model or the client's
// roots), re-exported so that apps need no direct dependency on the SDK.
export { inputRequired } from '@modelcontextprotocol/server';
export type { InputResponseView, LoggingLevel } from '@modelcontextprotocol/server';

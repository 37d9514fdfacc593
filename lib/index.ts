// The public API of `nestjs-mcp`: what an app needs for `forRoot()`, the decorators and the
// call context. Each export is named here: anything not listed (explorer, invoker, registry,
// schema builder) is internal. The rest of the package has entry points of its own:
// `nestjs-mcp/stdio` (transports/stdio/index.ts), `nestjs-mcp/tasks` (tasks/index.ts, the task
// stores), `nestjs-mcp/testing`, `nestjs-mcp/plugin`, `nestjs-mcp/i18n` and `nestjs-mcp/redis`.
// test/public-api.spec.ts pins the values of this one, of stdio and of tasks;
// docs/architecture.md says why.

// The module, its options and its services
export { McpModule } from './mcp.module.js';
export { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
export type {
  LegacySessionOptions,
  McpHttpOptions,
} from './interfaces/mcp-http-options.interface.js';
export type {
  CallerScopesReader,
  McpModuleAsyncOptions,
  McpModuleOptions,
  McpOptionsFactory,
  McpRequestStateOptions,
  McpSchemaOptions,
} from './interfaces/mcp-module-options.interface.js';
export type {
  McpAuthIntrospectionOptions,
  McpAuthOptions,
} from './interfaces/mcp-auth-options.interface.js';
export type { McpTelemetryOptions } from './interfaces/mcp-telemetry-options.interface.js';
export type {
  McpDiscoveryHeader,
  McpDiscoveryIcon,
  McpDiscoveryInput,
  McpDiscoveryOptions,
  McpDiscoveryRepository,
} from './interfaces/mcp-discovery-options.interface.js';
export type { McpExplorerOptions } from './interfaces/mcp-explorer-options.interface.js';
export { McpServerHost } from './servers/mcp-server.host.js';
export { McpServers } from './servers/mcp-servers.js';
export type { McpHiddenMethod } from './discovery/mcp.explorer.js';
export { McpNaming } from './discovery/tool-name.resolver.js';
export type {
  McpNamingRoute,
  McpNamingTarget,
  McpToolNaming,
} from './interfaces/mcp-naming.interface.js';
export type { McpManifest, McpManifestTool } from './registry/manifest.resource.js';
export {
  loadMcpPluginMetadata,
  type McpPluginMetadata,
} from './discovery/plugin-metadata.loader.js';
export { McpEvents } from './events/mcp-events.js';
export { MCP_TOOL_CALLED_EVENT, type McpToolCalledEvent } from './events/mcp-tool-called.event.js';

// Decorators and their options
export { McpTool } from './decorators/mcp-tool.decorator.js';
export { McpTools, type McpToolsOptions } from './decorators/mcp-tools.decorator.js';
export type {
  McpArgumentOptions,
  McpToolConcurrency,
  McpToolDefaults,
  McpToolOptions,
  McpToolOutput,
} from './interfaces/mcp-tool-options.interface.js';
export { McpPrompt } from './decorators/mcp-prompt.decorator.js';
export type { McpPromptOptions } from './interfaces/mcp-prompt-options.interface.js';
export { McpResource } from './decorators/mcp-resource.decorator.js';
export type { McpResourceOptions } from './interfaces/mcp-resource-options.interface.js';
export { McpCompletion } from './decorators/mcp-completion.decorator.js';
export type {
  McpCompletionContext,
  McpCompletionTarget,
  McpCompletionValues,
} from './interfaces/mcp-completion.interface.js';
export { McpMethod } from './decorators/mcp-method.decorator.js';
export { McpExtension } from './decorators/mcp-extension.decorator.js';
export type {
  McpExtensionSettings,
  McpMethodOptions,
} from './interfaces/mcp-extension-options.interface.js';
export { McpAppView } from './decorators/mcp-app-view.decorator.js';
export type {
  McpAppsOptions,
  McpAppToolVisibility,
  McpAppViewDecoratorOptions,
  McpAppViewOptions,
  McpToolAppOptions,
} from './interfaces/mcp-app-options.interface.js';
export { McpContext } from './decorators/mcp-context.decorator.js';
export { McpGroup } from './decorators/mcp-group.decorator.js';
export type {
  McpGroupOptions,
  McpGroupVersion,
  McpMembershipOptions,
} from './interfaces/mcp-group-options.interface.js';
export { McpHidden } from './decorators/mcp-hidden.decorator.js';
export { McpScopes } from './decorators/mcp-scopes.decorator.js';
export type { McpScopeRequirement } from './interfaces/mcp-scope-requirement.interface.js';

// The call, as tools, guards, interceptors and filters see it
export type {
  McpCallContext,
  McpPhase,
  McpPrimitiveKind,
} from './interfaces/mcp-call-context.interface.js';
export { McpExecutionContext, type McpContextType } from './context/mcp-execution-context.js';
export { MCP_CONTEXT_TYPE } from './mcp.constants.js';
export { mcpCacheKey } from './context/mcp-cache-key.js';
export { McpScopesGuard } from './authorization/mcp-scopes.guard.js';

// Results
export {
  assistantMessage,
  audioContent,
  contentList,
  embeddedResource,
  imageContent,
  resourceLink,
  textContent,
  userMessage,
  type McpBinaryData,
  type McpContentOptions,
  type McpEmbeddedContents,
  type McpResourceLinkOptions,
} from './content/mcp-content.js';
// The SDK's builder for multi round-trip answers (ask the user, the model or the client's
// roots), re-exported so that apps need no direct dependency on the SDK.
export { inputRequired } from '@modelcontextprotocol/server';
export type {
  InputRequest,
  InputRequiredResult,
  InputResponseView,
  LoggingLevel,
} from '@modelcontextprotocol/server';
// The verified identity of an OAuth caller (`request.auth`, see docs/authorization.md).
export type { AuthInfo } from '@modelcontextprotocol/server';

// Errors
export { McpToolError } from './errors/mcp-tool.error.js';
export { InvalidArgumentsError } from './errors/invalid-arguments.error.js';
export type { ArgumentIssue } from './interfaces/argument-issue.interface.js';
export { McpConfigurationError } from './errors/mcp-configuration.error.js';
export { DtoSchemaError } from './errors/dto-schema.error.js';
// What a tool throws to end a call (or fail a task) with a JSON-RPC error.
export { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

// Schema
export type { JsonSchema } from './interfaces/json-schema.interface.js';

// Tasks (docs/tasks.md): the options and a tool's view of its task. The stores are
// `nestjs-mcp/tasks`.
export type {
  McpTasksOptions,
  McpToolTaskMode,
  McpToolTaskOptions,
} from './interfaces/mcp-task-options.interface.js';
export type { McpTaskContext } from './interfaces/mcp-call-context.interface.js';
// Several instances (docs/scale-out.md; the Redis implementation is `nestjs-mcp/redis`)
export type {
  McpChange,
  McpChangeBus,
  McpScaleOut,
  McpTaskJob,
  McpTaskQueue,
} from './interfaces/mcp-scale-out.interface.js';

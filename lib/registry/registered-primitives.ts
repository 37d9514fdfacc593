import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import type {
  McpCompletionContext,
  McpCompletionValues,
} from '../interfaces/mcp-completion.interface.js';
import type {
  ExtensionMethodInvoker,
  PromptInvoker,
  ResourceReader,
} from '../execution/json-rpc-invoker.factory.js';
import type { QueuedToolInvoker, ToolInvoker } from '../execution/tool-invoker.factory.js';
import type { ToolLimits } from '../execution/tool-limits.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { McpToolAppOptions } from '../interfaces/mcp-app-options.interface.js';
import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import type { McpToolTaskOptions } from '../interfaces/mcp-task-options.interface.js';
import type { UriTemplateMatcher } from '../utils/uri-template.matcher.js';
import type { RegisteredPrimitive } from './primitive.registry.js';

/** Completes one argument: the typed prefix in, matching values out. */
export type Completer = (
  value: string,
  context: McpCompletionContext,
) => Promise<McpCompletionValues> | McpCompletionValues;

/** What prompts and templates share: arguments that can be completed. */
interface Completable {
  /** The JSON Schema of the arguments (its `enum`s complete without a completer). */
  readonly argumentsSchema: JsonSchema;
  /** Completers given with `@McpCompletion()`, by argument name. */
  readonly completers: Map<string, Completer>;
}

export interface RegisteredTool extends RegisteredPrimitive<Tool> {
  readonly invoke: ToolInvoker;
  /** How the tool runs as an MCP task; absent: never. */
  readonly task?: McpToolTaskOptions;
  /** A task tool, checked in the request and run on a worker (`tasks.queue`). */
  readonly queued?: QueuedToolInvoker;
  /** How it takes part in MCP Apps: its view's resource is listed to whoever sees it. */
  readonly app?: McpToolAppOptions;
  /** Its time and concurrency limits on this server (its own, else the `tools` option). */
  readonly limits?: ToolLimits;
}

export interface RegisteredPrompt extends RegisteredPrimitive<Prompt>, Completable {
  readonly get: PromptInvoker;
}

export interface RegisteredResource extends RegisteredPrimitive<Resource> {
  readonly read: ResourceReader;
}

export interface RegisteredTemplate extends RegisteredPrimitive<ResourceTemplateType>, Completable {
  readonly template: UriTemplateMatcher;
  readonly read: ResourceReader;
}

/**
 * A JSON-RPC method an extension of the app adds (`@McpMethod()`). Not listed anywhere:
 * a client learns of it from the extension's specification, and calls it once it has
 * declared the extension.
 */
export interface RegisteredExtensionMethod {
  /** The JSON-RPC method name. */
  readonly key: string;
  /** The extension it belongs to, which a caller must declare. */
  readonly extension: string;
  readonly invoke: ExtensionMethodInvoker;
  /** What `@McpScopes()` requires, for the OAuth step-up challenge. */
  readonly scopes?: McpScopeRequirement;
}

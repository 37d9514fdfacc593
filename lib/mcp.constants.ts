import { EXTENSION_ID as UI_EXTENSION } from '@modelcontextprotocol/ext-apps/server';

/** Metadata key under which `@McpTool()` stores its options on a method. */
export const MCP_TOOL_METADATA = 'mcp:tool';

/** The `ExecutionContext#getType()` of every MCP call: `'mcp'`. */
export const MCP_CONTEXT_TYPE = 'mcp';

/**
 * Parameter types of the MCP param decorators, stored under Nest's `ROUTE_ARGS_METADATA`
 * so that user `createParamDecorator` decorators and per-parameter pipes work on tools.
 * The values are far from Nest's `RouteParamtypes` (0..12), which are also honoured
 * where they make sense (`@Req()`).
 */
export enum McpParamtype {
  ARGUMENTS = 100,
  CONTEXT = 101,
}

/**
 * The pattern every tool name must match (MCP 2025-11-25, SEP-986); prompt names follow it
 * too.
 */
export const PRIMITIVE_NAME_PATTERN = /^[a-zA-Z0-9_.-]{1,128}$/;

/** Where the HTTP endpoint is mounted when `http.path` is not given. */
export const DEFAULT_HTTP_PATH = 'mcp';

/** Metadata key of `@McpScopes()`. */
export const MCP_SCOPES_METADATA = 'mcp:scopes';

/** Metadata key of `@McpHidden()`: the reason a method stays off MCP. */
export const MCP_HIDDEN_METADATA = 'mcp:hidden';

/** Metadata key of the class decorator `@McpTools()`. */
export const MCP_TOOLS_METADATA = 'mcp:tools';

/** Metadata key under which `@McpPrompt()` stores its options on a method. */
export const MCP_PROMPT_METADATA = 'mcp:prompt';

/** Metadata key under which `@McpResource()` stores its options on a method. */
export const MCP_RESOURCE_METADATA = 'mcp:resource';

/** Metadata key under which `@McpCompletion()` stores its target on a method. */
export const MCP_COMPLETION_METADATA = 'mcp:completion';

/** At most this many completion values go to the client (MCP `completion/complete`). */
export const MAX_COMPLETION_VALUES = 100;

/** Metadata key under which `@McpMethod()` stores its options on a method. */
export const MCP_METHOD_METADATA = 'mcp:method';

/** Metadata key of the class decorator `@McpExtension()`: the extension and its settings. */
export const MCP_EXTENSION_METADATA = 'mcp:extension';

/**
 * An extension identifier (SEP-2133): `{vendor-prefix}/{extension-name}`, named as a
 * `_meta` key whose prefix is mandatory (2026-07-28, basic/index "`_meta`"): labels
 * separated by dots, each a letter first, a letter or digit last and letters, digits or
 * hyphens inside; a slash; a name that begins and ends with a letter or digit, with
 * hyphens, underscores and dots inside. `com.example/audit`.
 */
export const EXTENSION_ID_PATTERN =
  /^[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*\/[a-zA-Z0-9](?:[a-zA-Z0-9._-]*[a-zA-Z0-9])?$/;

/** The MCP tasks extension (ext-tasks `TASKS_EXTENSION_ID_V2`), which the library implements. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The extensions the library implements itself, with the methods they handle: an app
 * cannot declare them, nor add a method of theirs (`@McpMethod()`).
 */
export const BUILT_IN_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  [TASKS_EXTENSION]: ['tasks/get', 'tasks/update', 'tasks/cancel', 'tasks/list', 'tasks/result'],
  // MCP Apps adds no method a server answers: its `ui/*` messages go between view and host.
  [UI_EXTENSION]: [],
};

/** Metadata key under which `@McpAppView()` stores its view on a method. */
export const MCP_APP_VIEW_METADATA = 'mcp:app-view';

/** Metadata key of the class decorator `@McpGroup()`. */
export const MCP_GROUP_METADATA = 'mcp:group';

/**
 * Metadata key of the parameter layout `ExternalContextCreator` reads for an MCP method
 * (written by discovery, read by the pipeline).
 */
export const MCP_ARGS_METADATA = 'mcp:route-args';

/**
 * Name of the static method the compiler plugin `nestjs-mcp/plugin` adds to a class to
 * carry its docblocks (like `_OPENAPI_METADATA_FACTORY` of `@nestjs/swagger`'s plugin): a
 * method, so that it is read when discovery asks, and needs no import in the class's file.
 */
export const MCP_DOCBLOCK_METADATA_FACTORY = '_MCP_DOCBLOCK_METADATA';

/**
 * The injection token of a server's task store (`McpTaskStore`): the `tasks.store` option,
 * or the in-memory default. Inject it to read tasks from the app's own code.
 * @publicApi
 */
export const MCP_TASK_STORE = Symbol('MCP_TASK_STORE');

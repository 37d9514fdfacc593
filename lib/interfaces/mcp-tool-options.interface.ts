import type { Icon, ToolAnnotations } from '@modelcontextprotocol/server';
import type { Type } from '@nestjs/common';
import type { JsonSchema } from './json-schema.interface.js';
import type { McpToolAppOptions } from './mcp-app-options.interface.js';
import type { McpMembershipOptions } from './mcp-group-options.interface.js';
import type { McpToolTaskMode, McpToolTaskOptions } from './mcp-task-options.interface.js';

/**
 * What a tool returns, for its `outputSchema`: a DTO class described by the same
 * class-validator decorators as arguments (`ProductDto`), a list of them (`[ProductDto]`),
 * or a scalar (`String`, `Number`, `Boolean`, `Date`, `[String]`, ...).
 */
export type McpToolOutput = Type<unknown> | readonly [Type<unknown>];

/** How one argument is documented for the model, in addition to its DTO rules. */
export interface McpArgumentOptions {
  /** What the argument means and how to choose its value. */
  description?: string;
  /** Example values (JSON Schema `examples`). */
  examples?: unknown[];
  /** Marks the argument as deprecated (JSON Schema `deprecated: true`). */
  deprecated?: boolean;
}

/**
 * How many calls of one tool run at once on this instance (docs/tools.md, "Time and
 * concurrency limits"). A call beyond a limit waits, first come first served, while the
 * queue has room, and is refused at once with a retryable error naming the limit when it
 * has none. Counted per instance: several instances behind a balancer each allow as many.
 */
export interface McpToolConcurrency {
  /**
   * Calls of the tool running at once, all callers together.
   * @default no limit
   */
  max?: number;
  /**
   * Calls of the tool running at once for one caller (the `identity` option: the OAuth
   * subject, `req.user`, ...), so that one caller cannot take the tool's whole capacity.
   * One caller also has at most this many calls waiting.
   * @default no limit
   */
  perCaller?: number;
  /**
   * Calls that may wait for a slot beyond the limits, all callers together; `0` refuses
   * every call beyond them at once. A waiting call whose client cancels leaves the queue.
   * @default `max`, or `perCaller` when only that is set
   */
  queue?: number;
}

/**
 * Limits every tool of a server gets unless it sets its own (`McpModule.forRoot({ tools })`);
 * each tool counts its own calls (a default `concurrency: 4` is 4 per tool, not per server).
 */
export interface McpToolDefaults {
  /**
   * How long a call may run, in milliseconds (see `McpToolOptions.timeoutMs`). Tools that run
   * as MCP tasks (`@McpTool({ task })`) are bounded by their task's `ttlMs` instead, unless
   * they set a `timeoutMs` of their own.
   * @default no timeout
   */
  timeoutMs?: number;
  /**
   * How many calls of each tool run at once (see `McpToolOptions.concurrency`).
   * @default no limit
   */
  concurrency?: number | McpToolConcurrency;
}

/** Options of `@McpTool()`. Every field is optional. */
export interface McpToolOptions extends McpMembershipOptions {
  /**
   * The tool's name, unique per server and matching `^[a-zA-Z0-9_.-]{1,128}$`.
   * @default the method name in snake_case (`searchProducts` → `search_products`)
   */
  name?: string;
  /**
   * Former names the tool still answers to in `tools/call` (and `nestjs-mcp call`), while
   * clients move to `name`: never listed, each logged as deprecated the first time it is
   * called. They follow the pattern of names (`^[a-zA-Z0-9_.-]{1,128}$`, so dotted names
   * such as `'Catalog.search'` work) and must be unique per server among names and aliases.
   * @example aliases: ['Catalog.search']
   * @default none
   */
  aliases?: string[];
  /**
   * A human-readable title for clients to display.
   * @default the `summary` of `@ApiOperation()` (`@nestjs/swagger`) when present
   */
  title?: string;
  /**
   * What the tool does, written for the model that decides whether to call it.
   * @default the `description` of `@ApiOperation()` when present; without either, a
   * warning names the method at bootstrap
   */
  description?: string;
  /** Behaviour hints for clients (read-only, destructive, idempotent, open-world). */
  annotations?: ToolAnnotations;
  /** Icons for clients to display (`src` must be `https:` or `data:`). */
  icons?: Icon[];
  /** Extra metadata published with the tool in `tools/list`. */
  _meta?: Record<string, unknown>;
  /**
   * The declared result: the tool then lists an `outputSchema`, and every result is
   * checked against it before it is sent (a mismatch becomes an `isError` result and is
   * logged). 2025-era clients see a non-object result wrapped as `{ "result": ... }`, in
   * the schema and in `structuredContent` alike; 2026-07-28 clients see it as it is.
   * @example output: [ProductDto]
   * @default no `outputSchema`; results are not checked
   */
  output?: McpToolOutput;
  /**
   * Descriptions, examples and deprecation of the top-level arguments, by property name; a
   * string is a description. They take precedence over `@ApiProperty()` (`@nestjs/swagger`),
   * which is read when present. Every key must name a property of the arguments DTO.
   * @example arguments: { limit: 'How many products to return, at most 100.' }
   * @default the `@ApiProperty()` texts, if any
   */
  arguments?: Record<string, string | McpArgumentOptions>;
  /**
   * The arguments as a JSON Schema (root `type: "object"`), for arguments a DTO cannot
   * express (`if`/`then`, `anyOf` of required sets, `$anchor`). It is listed as it is and
   * every call is checked against it (Ajv, JSON Schema 2020-12 unless `$schema` says
   * otherwise); the method receives the plain arguments object. Prefer a DTO: it is
   * checked by class-validator too and gives typed, transformed arguments.
   * @default the JSON Schema of the arguments DTO
   */
  inputSchema?: JsonSchema;
  /**
   * Keeps the method off MCP, with the reason why (for the next reader, the startup log at
   * debug level, `McpServerHost#hiddenMethods()` and `nestjs-mcp list --hidden`). Useful to
   * keep the decorator and its options while a tool is withdrawn.
   */
  hidden?: string;
  /**
   * Runs the tool as an MCP task (docs/tasks.md): the client gets a task id at once, polls
   * its status, answers its questions and may cancel it, without holding a request open.
   * `'optional'` when the client asks for a task, `'required'` always.
   * @example task: { mode: 'optional', ttlMs: 600_000 }
   * @default never a task
   */
  task?: McpToolTaskMode | McpToolTaskOptions;
  /**
   * MCP Apps (docs/apps.md): the view the host renders with the tool's result, and who may
   * call the tool (`visibility: ['app']` for a tool only the view calls). Return meaningful
   * text as well: hosts without MCP Apps, and the model, read it.
   * @example app: { view: 'product-card' }
   * @default not part of an app
   */
  app?: McpToolAppOptions;
  /**
   * How long a call may run, in milliseconds, counted once it has its concurrency slot and
   * its arguments are valid (guards, interceptors and the method count). Past it, the
   * method's `ctx.signal` aborts and the caller is answered at once with an `isError` result
   * saying that the tool timed out; a task tool's task fails with that reason. `false` turns
   * off the server's default (`McpModule.forRoot({ tools: { timeoutMs } })`).
   * @example timeoutMs: 30_000
   * @default the server's `tools.timeoutMs`, else no timeout
   */
  timeoutMs?: number | false;
  /**
   * How many calls of the tool run at once on this instance; `n` is `{ max: n }`. Calls
   * beyond it wait in a bounded queue, then are refused with a retryable error naming the
   * limit. `false` turns off the server's default (`tools.concurrency`).
   * @example concurrency: { max: 4, perCaller: 1, queue: 8 }
   * @default the server's `tools.concurrency`, else no limit
   */
  concurrency?: number | McpToolConcurrency | false;
}

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
}

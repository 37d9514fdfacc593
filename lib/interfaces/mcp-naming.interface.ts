import type { Type } from '@nestjs/common';

/** The HTTP route of a controller method: its verb and its full path. */
export interface McpNamingRoute {
  /** The HTTP method in capitals: `GET`, `POST`, `PATCH`, ... (`ALL` for `@All()`). */
  readonly method: string;
  /** The controller's path and the method's, joined, without the global prefix: `catalog/:id`. */
  readonly path: string;
}

/** What a tool's default name is made from. */
export interface McpNamingTarget {
  /** The provider or controller class. */
  readonly class: Type;
  /** The method's name. */
  readonly method: string;
  /** The route, when the method is a controller route (`@Get()`, `@Patch(':id')`, ...). */
  readonly route?: McpNamingRoute;
}

/**
 * Makes the default name of a tool whose `@McpTool()` gives none (an explicit `name`
 * always wins). What it returns must match `^[a-zA-Z0-9_.-]{1,128}$`, or the bootstrap
 * fails naming the method.
 * @example naming: ({ class: type, method }) => McpNaming.normalize(`${type.name}_${method}`)
 */
export type McpToolNaming = (target: McpNamingTarget) => string;

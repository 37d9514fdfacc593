import type { Type } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { MCP_ARGS_METADATA, McpParamtype } from '../mcp.constants.js';
import {
  undecoratedRouteParameterMessage,
  unsupportedRouteParameterMessage,
  untypedRouteObjectMessage,
} from '../messages/routes.messages.js';
import { isUserClass } from '../utils/built-in-types.js';
import { DECORATOR_NAMES, declaredParameterTypes } from './method-parameters.reader.js';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  ROUTE_ARGS_METADATA,
  RouteParamtypes,
} from '../utils/nest-internals.js';

/** One `@Param()`, `@Query()` or `@Body()` parameter of a route published as a tool. */
export interface RouteArgumentSource {
  /** `RouteParamtypes.PARAM`, `QUERY` or `BODY`. */
  readonly paramtype: number;
  readonly index: number;
  /** The name of a named parameter (`@Param('id')` → `'id'`); none for a whole object. */
  readonly name?: string;
  /** Its type as `design:paramtypes` records it: a DTO class for a whole object. */
  readonly type: unknown;
  /** Its pipes, classes or instances, as the decorator received them. */
  readonly pipes: readonly unknown[];
}

interface ParamMetadataEntry {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

/** The paramtypes that make the tool's arguments. */
const SOURCE_PARAMTYPES = new Set<number>([
  RouteParamtypes.PARAM,
  RouteParamtypes.QUERY,
  RouteParamtypes.BODY,
]);

/** What else a route tool may take: the call, the request, its headers. */
const INJECTED_PARAMTYPES = new Set<number>([
  McpParamtype.CONTEXT,
  RouteParamtypes.REQUEST,
  RouteParamtypes.HEADERS,
]);

const DECORATORS: Readonly<Record<number, string>> = {
  [RouteParamtypes.PARAM]: '@Param()',
  [RouteParamtypes.QUERY]: '@Query()',
  [RouteParamtypes.BODY]: '@Body()',
};

/** `@Param()`, `@Query()` or `@Body()`: the decorator of a paramtype, for messages. */
export const decoratorOf = (paramtype: number): string => DECORATORS[paramtype] ?? '@Param()';

/** Where an argument comes from, for messages: `@Param('id')` or `UpdateProductDto.id`. */
export function sourceLabel(source: RouteArgumentSource, property: string): string {
  if (source.name !== undefined)
    return `${decoratorOf(source.paramtype).slice(0, -1)}'${property}')`;
  return `${(source.type as Function).name}.${property}`;
}

const entriesOf = (target: Type, methodName: string): Record<string, ParamMetadataEntry> =>
  Reflect.getMetadata(ROUTE_ARGS_METADATA, target, methodName) ?? {};

const paramtypeOf = (key: string): number => Number(key.split(':')[0]);

/**
 * Whether a route needs its parameters merged into one arguments object: it reads a path
 * parameter, a named query or body value, or more than one of them. A route with one
 * whole `@Body()` or `@Query()` DTO (or none) keeps the DTO as its arguments, as any tool.
 */
export function takesRouteArguments(target: Type, methodName: string): boolean {
  const sources = Object.entries(entriesOf(target, methodName)).filter(
    ([key]) => !key.includes(CUSTOM_ROUTE_ARGS_METADATA) && SOURCE_PARAMTYPES.has(paramtypeOf(key)),
  );
  return (
    sources.some(
      ([key, entry]) => paramtypeOf(key) === RouteParamtypes.PARAM || entry.data !== undefined,
    ) || sources.length > 1
  );
}

/**
 * Reads, once at bootstrap, the `@Param()`, `@Query()` and `@Body()` parameters of a route
 * published as a tool, and records the layout the MCP pipeline resolves under
 * {@link MCP_ARGS_METADATA}: the route's own parameter metadata, pipes included, so that
 * Nest's pipes run on each value as they do over HTTP.
 */
export function readRouteSources(
  target: Type,
  methodName: string,
  where: string,
): RouteArgumentSource[] {
  const types = declaredParameterTypes(target, methodName, where);
  const entries = entriesOf(target, methodName);
  const decorated = new Set<number>();
  const sources: RouteArgumentSource[] = [];
  for (const [key, entry] of Object.entries(entries)) {
    decorated.add(entry.index);
    if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) continue;
    const paramtype = paramtypeOf(key);
    if (INJECTED_PARAMTYPES.has(paramtype)) continue;
    if (!SOURCE_PARAMTYPES.has(paramtype)) {
      throw new McpConfigurationError(
        unsupportedRouteParameterMessage(
          where,
          entry.index,
          DECORATOR_NAMES[paramtype] ?? 'a parameter decorator',
        ),
      );
    }
    const type = types[entry.index];
    const name = typeof entry.data === 'string' ? entry.data : undefined;
    if (name === undefined && !isUserClass(type)) {
      const typeName = (type as { name?: string } | undefined)?.name ?? 'unknown';
      throw new McpConfigurationError(
        untypedRouteObjectMessage(where, entry.index, decoratorOf(paramtype), typeName),
      );
    }
    sources.push({ paramtype, index: entry.index, name, type, pipes: entry.pipes ?? [] });
  }
  for (const index of types.keys()) {
    if (!decorated.has(index))
      throw new McpConfigurationError(undecoratedRouteParameterMessage(where, index));
  }
  Reflect.defineMetadata(MCP_ARGS_METADATA, { ...entries }, target, methodName);
  return sources.toSorted((a, b) => a.index - b.index);
}

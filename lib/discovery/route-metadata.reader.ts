import { RequestMethod, type Type } from '@nestjs/common';
import { CONTROLLER_WATERMARK, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import type { Tool } from '@modelcontextprotocol/server';

/** The HTTP route of a controller method, as its `@Get()`/`@Patch()`... decorator states it. */
export interface RouteInfo {
  /** `'GET'`, `'PATCH'`, ...; `'ALL'` for `@All()`. */
  readonly method: string;
  /** The controller's and the method's paths joined: `'products/:id'` (no global prefix). */
  readonly path: string;
}

type ToolAnnotations = NonNullable<Tool['annotations']>;

const joinPaths = (...paths: unknown[]): string =>
  paths
    .flatMap((path) => (Array.isArray(path) ? path.slice(0, 1) : [path]))
    .filter((path): path is string => typeof path === 'string')
    .map((path) => path.replace(/^\/+|\/+$/g, ''))
    .filter((path) => path !== '')
    .join('/');

/** Whether a class is a controller (`@Controller()`), whose routes `@McpTools()` publishes. */
export const isController = (target: Function): boolean =>
  Reflect.getMetadata(CONTROLLER_WATERMARK, target) === true;

/**
 * The route of `target.methodName` when it is a controller route (Nest's `METHOD_METADATA`
 * and `PATH_METADATA` on the method), or `undefined` for any other method. A class can
 * carry routes only as a controller, so a provider's method is never one.
 */
export function readRoute(target: Type, methodName: string): RouteInfo | undefined {
  const method = (target.prototype as Record<string, unknown>)[methodName];
  if (typeof method !== 'function') return undefined;
  const requestMethod: unknown = Reflect.getMetadata(METHOD_METADATA, method);
  const methodPath: unknown = Reflect.getMetadata(PATH_METADATA, method);
  if (typeof requestMethod !== 'number' || methodPath === undefined) return undefined;
  if (Reflect.getMetadata(PATH_METADATA, target) === undefined) return undefined;
  return {
    method: RequestMethod[requestMethod] ?? String(requestMethod),
    path: joinPaths(Reflect.getMetadata(PATH_METADATA, target), methodPath),
  };
}

/** What the HTTP method of a route says of its effect, in MCP's terms (issue 14). */
const INFERRED_ANNOTATIONS: Readonly<Record<string, ToolAnnotations>> = {
  GET: { readOnlyHint: true },
  HEAD: { readOnlyHint: true },
  DELETE: { destructiveHint: true },
  PUT: { idempotentHint: true },
  POST: { readOnlyHint: false },
  PATCH: { readOnlyHint: false },
};

/**
 * The annotations of a route tool: those its HTTP method implies (GET/HEAD read only,
 * DELETE destructive, PUT idempotent, POST/PATCH not read only), under the explicit ones,
 * which win hint by hint. Other methods (`@All()`, `OPTIONS`) imply nothing.
 */
export function routeAnnotations(
  route: RouteInfo | undefined,
  explicit: ToolAnnotations | undefined,
): ToolAnnotations | undefined {
  const inferred = route && INFERRED_ANNOTATIONS[route.method];
  if (!inferred) return explicit;
  const stated = Object.entries(explicit ?? {}).filter(([, value]) => value !== undefined);
  return { ...inferred, ...Object.fromEntries(stated) };
}

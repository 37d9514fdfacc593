import type { ParamsFactory } from '@nestjs/core';
import { RouteArguments } from '../discovery/route-arguments.js';
import { McpParamtype } from '../mcp.constants.js';
import { RouteParamtypes } from '../utils/nest-internals.js';
import type { McpInvocation } from './mcp-invocation.js';

/**
 * Resolves tool method parameters from the handler arguments `[request, response, call]`.
 * Nest's `@Body()` and `@Query()` (whole object) mean the arguments too, so a controller
 * method can be a route and a tool at once; a route tool's `@Param()`, `@Query()` and
 * `@Body()` get their part of its flat arguments ({@link RouteArguments}), pipes still to run.
 */
export class McpParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, data: unknown, args: unknown[]): unknown {
    const [request, , call] = args as [Record<string, any> | undefined, unknown, McpInvocation];
    // Parameters are resolved once guards and interceptors have let the call through.
    call.methodReached();
    switch (type) {
      case McpParamtype.ARGUMENTS:
      case RouteParamtypes.BODY:
      case RouteParamtypes.QUERY:
      case RouteParamtypes.PARAM: {
        const validated = call.validatedArguments();
        // A route tool's flat arguments, split back into its params, query and body.
        return validated instanceof RouteArguments ? validated.valueOf(type, data) : validated;
      }
      case McpParamtype.CONTEXT:
        return call;
      case RouteParamtypes.REQUEST:
        return request;
      case RouteParamtypes.HEADERS:
        return typeof data === 'string' ? request?.headers?.[data.toLowerCase()] : request?.headers;
      default:
        return null;
    }
  }
}

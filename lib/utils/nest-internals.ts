/**
 * The few Nest internals this library needs, in one place. `@nestjs/*` 12 keeps them
 * under `*\/internal`, "used by sibling @nestjs packages"; the official packages
 * (graphql, microservices) rely on the same ones to run the Nest pipeline outside HTTP.
 */
export {
  CUSTOM_ROUTE_ARGS_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
  RouteParamtypes,
} from '@nestjs/common/internal';
export { ExecutionContextHost, REQUEST_CONTEXT_ID } from '@nestjs/core/internal';
export type { InstanceWrapper } from '@nestjs/core/internal';

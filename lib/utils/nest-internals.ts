/**
 * The few Nest internals this library needs, in one place. `@nestjs/*` 12 keeps them
 * under `*\/internal`, "used by sibling @nestjs packages"; the official packages
 * (graphql, microservices) rely on the same ones to run the Nest pipeline outside HTTP.
 */
export {
  CUSTOM_ROUTE_ARGS_METADATA,
  GUARDS_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
  RouteParamtypes,
} from '@nestjs/common/internal';
export { ExecutionContextHost, REQUEST_CONTEXT_ID } from '@nestjs/core/internal';
export type { InstanceWrapper } from '@nestjs/core/internal';

/**
 * An `ExternalContextCreator` that leaves the app's global exception filters out of MCP
 * calls (method and class filters still run), for apps whose global filters write HTTP
 * responses themselves. It shadows the creator's filter context, whose only override is
 * "no global filters"; everything else is Nest's own code.
 */
export function withoutGlobalFilters<T extends object>(externalContextCreator: T): T {
  const filters = (externalContextCreator as { filtersContextCreator?: object })
    .filtersContextCreator;
  if (
    !filters ||
    typeof (filters as { getGlobalMetadata?: unknown }).getGlobalMetadata !== 'function'
  ) {
    throw new Error(
      'useGlobalFilters: false is not supported by this version of @nestjs/core; ' +
        'make the global filters skip MCP calls instead (host.getType() === "mcp").',
    );
  }
  const localFiltersOnly = Object.create(filters, { getGlobalMetadata: { value: () => [] } });
  return Object.create(externalContextCreator, {
    filtersContextCreator: { value: localFiltersOnly },
  });
}

/** The exception handler Nest makes for each external context (`ExternalExceptionsHandler`). */
interface ExceptionsHandler {
  invokeCustomFilters(exception: unknown, host: unknown): unknown;
}

interface FilterContext {
  create(...args: unknown[]): ExceptionsHandler;
  getGlobalMetadata(...args: unknown[]): unknown[];
}

/**
 * An `ExternalContextCreator` for MCP calls. The app's exception filters run as Nest runs
 * them (global ones unless `globalFilters` is false, for apps whose global filters write
 * HTTP responses themselves); what none of them answers goes back to the library
 * unlogged. Nest's own fallback (`ExternalExceptionFilter`) would log each such error as
 * "[ExceptionsHandler] ..." before the library maps it to the caller's error and logs it
 * once, with the reference the caller is given (and at debug level only when the caller
 * cancelled the call). It shadows the creator's filter context; everything else is
 * Nest's own code.
 */
export function withMcpFilters<T extends object>(
  externalContextCreator: T,
  { globalFilters }: { globalFilters: boolean },
): T {
  const filters = (externalContextCreator as { filtersContextCreator?: Partial<FilterContext> })
    .filtersContextCreator;
  if (typeof filters?.create !== 'function' || typeof filters.getGlobalMetadata !== 'function') {
    throw new Error(
      'This version of @nestjs/core has no exception filter context the MCP pipeline can ' +
        'use; use @nestjs/core 12.',
    );
  }
  const context = filters as FilterContext;
  const create = function (this: FilterContext, ...args: unknown[]) {
    const handler = context.create.apply(this, args);
    return Object.create(handler, {
      next: {
        value(exception: unknown, host: unknown) {
          const answer = handler.invokeCustomFilters(exception, host);
          if (answer !== undefined) return answer;
          throw exception;
        },
      },
    }) as ExceptionsHandler;
  };
  const mcpFilters = Object.create(context, {
    create: { value: create },
    ...(!globalFilters && { getGlobalMetadata: { value: () => [] } }),
  });
  return Object.create(externalContextCreator, {
    filtersContextCreator: { value: mcpFilters },
  });
}

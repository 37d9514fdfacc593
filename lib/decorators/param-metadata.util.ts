import { ROUTE_ARGS_METADATA } from '../utils/nest-internals.js';

/**
 * Records a parameter under Nest's `ROUTE_ARGS_METADATA`, the way Nest's own `@Req()` does,
 * so that `ExternalContextCreator` resolves it and runs its pipes.
 */
export function assignParamMetadata(paramtype: number): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) return;
    const existing = Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {};
    Reflect.defineMetadata(
      ROUTE_ARGS_METADATA,
      { ...existing, [`${paramtype}:${index}`]: { index, data: undefined, pipes: [] } },
      target.constructor,
      key,
    );
  };
}

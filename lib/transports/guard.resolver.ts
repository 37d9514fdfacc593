import type { CanActivate, Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';

/**
 * A guard as `http.guards` and the stdio/CLI caller check take it: a class is the app's
 * provider when it has one, else made through DI; an instance is used as it is.
 */
export async function resolveGuard(
  moduleRef: ModuleRef,
  guard: Type<CanActivate> | CanActivate,
): Promise<CanActivate> {
  if (typeof guard !== 'function') return guard;
  try {
    return moduleRef.get(guard, { strict: false });
  } catch {
    return moduleRef.create(guard);
  }
}

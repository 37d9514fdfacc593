import type { Type } from '@nestjs/common';

/**
 * The JavaScript classes `design:type` and `design:paramtypes` record for values that are
 * not DTOs (primitives, collections, functions, dates). One list for the schema builder
 * and the parameter reader, so a `Map` or `Set` is never taken for a DTO by one and not
 * the other.
 */
export const BUILT_IN_TYPES: ReadonlySet<unknown> = new Set<unknown>([
  Object,
  Array,
  String,
  Number,
  Boolean,
  Date,
  Map,
  Set,
  Promise,
  Function,
  Symbol,
  BigInt,
]);

/** Whether a recorded type is a class of the app's own (a DTO candidate). */
export const isUserClass = (type: unknown): type is Type =>
  typeof type === 'function' && !BUILT_IN_TYPES.has(type);

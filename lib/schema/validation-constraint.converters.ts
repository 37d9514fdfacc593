import { ARRAY_CONSTRAINT_CONVERTERS } from './array-constraint.converters.js';
import type { ConstraintConverters } from './constraint-converter.interface.js';
import { NUMBER_CONSTRAINT_CONVERTERS } from './number-constraint.converters.js';
import { STRING_CONSTRAINT_CONVERTERS } from './string-constraint.converters.js';
import { VALUE_CONSTRAINT_CONVERTERS } from './value-constraint.converters.js';

/**
 * class-validator validator name (as `validatorNameOf()` reports it) → JSON Schema
 * keywords. One table, so supporting another decorator is one entry in its family.
 * `@IsDefined()` and `@ValidateNested()` are metadata types of their own, handled by the
 * schema builder, as is the `@Type(() => Date)` that `@IsDate()` needs.
 */
export const VALIDATION_CONSTRAINT_CONVERTERS: ConstraintConverters = {
  ...VALUE_CONSTRAINT_CONVERTERS,
  ...NUMBER_CONSTRAINT_CONVERTERS,
  ...STRING_CONSTRAINT_CONVERTERS,
  ...ARRAY_CONSTRAINT_CONVERTERS,
};

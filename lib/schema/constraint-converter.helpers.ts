import type { JsonSchema, JsonSchemaTypeName } from '../interfaces/json-schema.interface.js';
import type {
  ConstraintConversion,
  ValidationConstraintConverter,
} from './constraint-converter.interface.js';

/** Building blocks that several families of converters share. */

/** Rejects every value, as class-validator does for a rule no value can pass. */
export const NOTHING: JsonSchema = { not: {} };

export const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The options object a rule was given (`@IsNumber({ ... })`), or none. */
export const options = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** A rule that checks the JSON type only. */
export const typeOnly = (type: JsonSchemaTypeName): ValidationConstraintConverter['convert'] => {
  return () => ({ schema: { type } });
};

/** A rule whose schema does not depend on its arguments. */
export const fixed = (schema: JsonSchema): ValidationConstraintConverter['convert'] => {
  return () => ({ schema });
};

/** A rule with one numeric bound (`@Min(n)`, `@MaxLength(n)`), and the type it checks. */
export const bound = (keyword: string, type: JsonSchemaTypeName) => {
  return (constraints: readonly unknown[]): ConstraintConversion => {
    const value = asNumber(constraints[0]);
    return { schema: { type, ...(value !== undefined && { [keyword]: value }) } };
  };
};

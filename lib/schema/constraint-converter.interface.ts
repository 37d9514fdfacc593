import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { KnownSchemaGapId } from './known-schema-gaps.js';

/** A gap hit by one rule of one property, before the factory adds where it happened. */
export interface ConstraintGap {
  readonly gap: KnownSchemaGapId;
  readonly detail: string;
}

export interface ConstraintConversion {
  /**
   * Keywords for the value, or for each item when the rule has `each: true`. A `type` here
   * is a claim that the factory intersects with the other rules' claims, so the result
   * does not depend on decorator order.
   */
  readonly schema: JsonSchema;
  readonly gaps?: readonly ConstraintGap[];
  /**
   * Set when the rule, as written, cannot be published honestly (for example
   * `@Contains('')`); the factory refuses the DTO at bootstrap with this text.
   */
  readonly refusal?: { readonly problem: string; readonly fix: string };
}

export interface ValidationConstraintConverter {
  /** The decorator that stores this validator, as users write it; used in messages. */
  readonly decorator: string;
  readonly convert: (constraints: readonly unknown[]) => ConstraintConversion;
}

/** class-validator validator name → its converter: one family of the converter table. */
export type ConstraintConverters = Readonly<Record<string, ValidationConstraintConverter>>;

import { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import { compileJsonSchema, type JsonSchemaCheck } from '../schema/json-schema.check.js';
import type { KnownSchemaGapId } from '../schema/known-schema-gaps.js';
import { readSchemaExactness, type SchemaExactness } from '../schema/schema-exactness.reader.js';
import { isJsonTree } from './json-tree.check.js';

/** A DTO's own input schema (the default form), compiled, and what it says. */
type OwnSchema =
  | { readonly check: JsonSchemaCheck; readonly exactness: SchemaExactness }
  | { readonly failure: unknown };

/**
 * The input schema of each DTO in its default form, built and compiled on first use, with
 * whether it says all that class-validator checks (schema-exactness.reader.ts). Per
 * validator, as a DTO's metadata is complete once the app has loaded.
 */
export class DtoOwnSchemaChecks {
  private readonly schemas = new WeakMap<Function, OwnSchema>();

  /** The compiled schema of `dto`. @throws what building it threw (DtoSchemaError) */
  checkOf(dto: Function): JsonSchemaCheck {
    const own = this.schemaOf(dto);
    if ('failure' in own) throw own.failure;
    return own.check;
  }

  /**
   * Whether arguments that passed `schemaCheck` pass class-validator for sure: the DTO's
   * schema says all its rules check, the arguments are JSON without the strings where it
   * does not, and they pass that schema itself, which the caller's check (the listed form,
   * which may let null through, or none for a slice of a route's arguments) may not be.
   */
  vouchFor(dto: Function, plain: object, schemaCheck: JsonSchemaCheck): boolean {
    const own = this.schemaOf(dto);
    if ('failure' in own || !own.exactness.exact) return false;
    if (!isJsonTree(plain, own.exactness.inexactStrings)) return false;
    return own.check === schemaCheck || own.check(plain).length === 0;
  }

  private schemaOf(dto: Function): OwnSchema {
    let own = this.schemas.get(dto);
    if (own) return own;
    try {
      const reported = new Set<KnownSchemaGapId>();
      const factory = new DtoSchemaFactory({ onGap: ({ gap }) => reported.add(gap) });
      const check = compileJsonSchema(factory.createInputSchema(dto), 'the arguments');
      own = { check, exactness: readSchemaExactness(dto, reported) };
    } catch (failure) {
      own = { failure };
    }
    this.schemas.set(dto, own);
    return own;
  }
}

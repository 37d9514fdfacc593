import { ValidationTypes } from 'class-validator';
import {
  declaredType,
  getDtoProperties,
  reshapesPlainValues,
  resolveNestedTarget,
  validatorNameOf,
  type ValidationMetadata,
} from './dto-metadata.reader.js';
import { readInitializerDefaults } from './initializer-defaults.reader.js';
import { KNOWN_SCHEMA_GAPS, type KnownSchemaGapId } from './known-schema-gaps.js';

/*
 * The one place that decides which DTOs the arguments validator checks with their JSON
 * Schema alone, skipping class-validator on a valid call (docs/performance.md). It may
 * when every value the DTO's own schema accepts is one class-validator accepts too, after
 * class-transformer built the instance: then running class-validator on it can only say
 * yes. A refused call still goes through class-validator, for its messages.
 */

/** What the schema of a DTO says of class-validator's verdict. */
export type SchemaExactness =
  | {
      readonly exact: true;
      /**
       * Strings on which the schema may accept what class-validator refuses, so that
       * arguments holding one must meet class-validator; `undefined` when there are none.
       */
      readonly inexactStrings: RegExp | undefined;
    }
  | { readonly exact: false; readonly reason: string };

/**
 * Gaps where the schema may be looser than class-validator only for strings that a pattern
 * spots: the schema stays exact for all other arguments.
 */
const STRING_BOUND_GAPS: Partial<Record<KnownSchemaGapId, RegExp>> = {
  // validator.js does not count U+FE0E and U+FE0F; without them both count code points.
  'length-presentation-selectors': /[\uFE0E\uFE0F]/,
};

/** Gaps inherent to a validator (not reported per property): met by using it. */
const INHERENT_GAPS = KNOWN_SCHEMA_GAPS.filter((gap) => !gap.notice);

/** The metadata types the schema builder turns into keywords (docs/schema.md). */
const CONVERTED_TYPES = new Set<string>([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.WHITELIST,
]);

const inexact = (reason: string): SchemaExactness => ({ exact: false, reason });

/** A reason the schema of one rule may accept what class-validator refuses, if any. */
function ruleProblem(metadata: ValidationMetadata): string | undefined {
  const name = validatorNameOf(metadata) ?? metadata.type;
  if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
    return metadata.name === 'isOptional' ? undefined : `${name} makes rules conditional`;
  }
  if (!CONVERTED_TYPES.has(metadata.type)) return `${name} is not in the schema`;
  if (metadata.groups?.length) return `${name} belongs to validation groups`;
  if (metadata.always !== undefined) return `${name} has the always option`;
  if (metadata.validateIf) return `${name} has a validateIf option`;
  return undefined;
}

/**
 * Whether the input schema of `dto` says all that class-validator checks. Not when the
 * DTO, or one `@ValidateNested()` leads to:
 *
 * - hits a gap of KNOWN_SCHEMA_GAPS where the schema is looser (`looser` or `both`), unless
 *   the gap is bound to strings a pattern spots (`inexactStrings`); `stricter` gaps are
 *   fine, as the schema then refuses more than class-validator would;
 * - has a rule the schema builder does not convert, groups, `always` or `validateIf`;
 * - has `@Transform()`, `@Expose()`, `@Exclude()`, a `@Type()` to anything but a nested
 *   DTO (`@Type(() => Number)`, `Date`), or a `@Type()` discriminator, as class-transformer
 *   then changes what class-validator sees;
 * - has an initializer that is not one fixed JSON value, which the schema never checked.
 *
 * @param reported The gaps the schema factory reported (`onGap`) while it built the
 * DTO's input schema: the gaps that depend on how a rule is written.
 */
export function readSchemaExactness(
  dto: Function,
  reported: Iterable<KnownSchemaGapId>,
): SchemaExactness {
  const met = new Set(reported);
  const visited = new Set<Function>();
  const pending = [dto];
  while (pending.length > 0) {
    const current = pending.pop() as Function;
    if (visited.has(current)) continue;
    visited.add(current);
    const properties = getDtoProperties(current);
    if (
      reshapesPlainValues(
        current,
        properties.map(({ name }) => name),
      )
    ) {
      return inexact(`class-transformer reshapes the values of ${current.name}`);
    }
    const defaults = readInitializerDefaults(current, properties);
    for (const [name, initial] of defaults) {
      if (initial.json === undefined)
        return inexact(`${current.name}.${name} has no fixed default`);
    }
    for (const { name, metadatas } of properties) {
      for (const metadata of metadatas) {
        const problem = ruleProblem(metadata);
        if (problem) return inexact(`${current.name}.${name}: ${problem}`);
        const validator = validatorNameOf(metadata) ?? metadata.type;
        for (const gap of INHERENT_GAPS)
          if ((gap.validators as readonly string[]).includes(validator)) met.add(gap.id);
      }
      const nested = metadatas.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION);
      if (nested.length === 0) {
        if (declaredType(current, name)) return inexact(`${current.name}.${name} has @Type()`);
        continue;
      }
      const target = resolveNestedTarget(
        current,
        name,
        nested.some((m) => m.each),
      );
      if (!target.type) return inexact(`${current.name}.${name} has a @Type() discriminator`);
      pending.push(target.type);
    }
  }
  const patterns: RegExp[] = [];
  for (const id of met) {
    const gap = KNOWN_SCHEMA_GAPS.find((entry) => entry.id === id);
    if (!gap || gap.schema === 'stricter') continue;
    const bound = STRING_BOUND_GAPS[id];
    if (!bound) return inexact(`the schema is looser than class-validator (${id})`);
    patterns.push(bound);
  }
  const inexactStrings =
    patterns.length > 0 ? new RegExp(patterns.map((p) => p.source).join('|'), 'u') : undefined;
  return { exact: true, inexactStrings };
}

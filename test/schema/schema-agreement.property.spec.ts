import 'reflect-metadata';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate } from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DtoArgumentsValidator } from '../../lib/validation/dto-arguments.validator.js';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';
import { compileJsonSchema, type JsonSchemaCheck } from '../../lib/schema/json-schema.check.js';
import { KNOWN_SCHEMA_GAPS, type KnownSchemaGapId } from '../../lib/schema/known-schema-gaps.js';
import { VALIDATION_CONSTRAINT_CONVERTERS } from '../../lib/schema/validation-constraint.converters.js';
import { ABSENT, CATALOGUE, type CatalogueEntry } from './agreement.catalogue.js';

/*
 * The agreement test (issue 3): for every DTO shape of the catalogue, thousands of
 * generated values go through three judges:
 *
 * - the schema a client is shown, compiled by an independent Ajv 2020-12 (strict mode,
 *   ajv-formats), as a client would;
 * - the server: DtoArgumentsValidator with the tool's compiled schema, the exact
 *   call-time path of a tool call;
 * - class-validator with class-transformer on their own, as behind a ValidationPipe.
 *
 * The server must never accept what either of the others rejects. Where the schema
 * accepts and the server rejects (a rule enforced at call time only), or class-validator
 * accepts and the server rejects (class-validator looser than the DTO says), the value
 * must fall in a zone of a gap the entry names, and that gap must be listed in
 * KNOWN_SCHEMA_GAPS in the right direction. Every gap an entry names must be met at least
 * once, so a gap that closes fails here too.
 *
 * The catalogue runs with `nullableOptionals: true`, the form in which `@IsOptional()` means
 * what it means to class-validator (null passes). The entries whose default form differs
 * (optional properties listed without null) run again in that form, where the one more
 * disagreement allowed is a null that class-validator lets through and the server refuses.
 */

// Thousands of values per row; AGREEMENT_RUNS raises it for a deeper local run.
const RUNS = Number(process.env.AGREEMENT_RUNS ?? 2000);

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
addFormats.default(ajv);
const factory = new DtoSchemaFactory();
const server = new DtoArgumentsValidator();
const VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
};

/** Over the wire: what JSON can carry of the generated value. */
const argumentsOf = (value: unknown): Record<string, unknown> =>
  value === ABSENT ? {} : JSON.parse(JSON.stringify({ value }));

async function classValidatorAccepts(dto: Function, args: object): Promise<boolean> {
  try {
    const instance = plainToInstance(dto as new () => object, structuredClone(args));
    return (await validate(instance, VALIDATOR_OPTIONS)).length === 0;
  } catch {
    return false; // a validator that throws rejects the call too
  }
}

async function serverAccepts(dto: Function, args: object, check: JsonSchemaCheck) {
  try {
    return (await server.validate(dto as new () => object, args, check)).ok;
  } catch {
    return false;
  }
}

const gapEntry = (id: KnownSchemaGapId) => KNOWN_SCHEMA_GAPS.find((gap) => gap.id === id);

/** The disagreement of the default form: a null sent for an optional property. */
const OPTIONAL_NULL = 'optional-null';
type Met = KnownSchemaGapId | typeof OPTIONAL_NULL;

type Form = 'nullable' | 'default';
const schemaOf = (entry: CatalogueEntry, form: Form) =>
  factory.createInputSchema(entry.dto, { nullableOptionals: form === 'nullable' });

const hasNull = (value: unknown): boolean =>
  value === null ||
  (typeof value === 'object' && Object.values(value as object).some((item) => hasNull(item)));

interface Tally {
  accepted: number;
  rejected: number;
  met: Set<Met>;
}

function judge(entry: CatalogueEntry, form: Form = 'nullable') {
  const schema = schemaOf(entry, form);
  const client: ValidateFunction = ajv.compile(schema);
  const check = compileJsonSchema(schema, 'the arguments');
  const tally: Tally = { accepted: 0, rejected: 0, met: new Set() };
  const gaps = Object.entries(entry.gaps ?? {}) as Array<
    [KnownSchemaGapId, (v: unknown) => boolean]
  >;

  const explains = (
    value: unknown,
    directions: ReadonlyArray<'looser' | 'stricter'>,
  ): Met | undefined =>
    gaps.find(([id, zone]) => {
      const direction = gapEntry(id)?.schema;
      const fits = direction === 'both' || directions.includes(direction as 'looser');
      return fits && zone(value);
    })?.[0] ??
    (form === 'default' && directions.includes('stricter') && hasNull(value)
      ? OPTIONAL_NULL
      : undefined);

  const property = fc.asyncProperty(entry.values, async (value) => {
    const args = argumentsOf(value);
    const verdicts = {
      schema: client(args),
      server: await serverAccepts(entry.dto, args, check),
      classValidator: await classValidatorAccepts(entry.dto, args),
    };
    tally[verdicts.server ? 'accepted' : 'rejected'] += 1;
    const context = `${JSON.stringify(args)} → ${JSON.stringify(verdicts)}`;
    if (verdicts.server) {
      expect(verdicts.schema && verdicts.classValidator, context).toBe(true);
      return;
    }
    if (verdicts.schema) {
      const gap = explains(value, ['looser']);
      expect(gap, `the schema accepts what the server rejects: ${context}`).toBeDefined();
      tally.met.add(gap!);
    }
    if (verdicts.classValidator) {
      const gap = explains(value, ['stricter']);
      expect(gap, `class-validator accepts what the server rejects: ${context}`).toBeDefined();
      tally.met.add(gap!);
    }
  });
  return { property, tally, gaps };
}

describe('agreement of the schema, the server and class-validator (property-based)', () => {
  it.each(CATALOGUE.map((entry) => [entry.name, entry] as const))(
    '%s',
    async (_name, entry) => {
      const { property, tally, gaps } = judge(entry);
      await fc.assert(property, { numRuns: RUNS });
      // Both sides of the rules were explored, not only one.
      expect(tally.accepted, 'values accepted').toBeGreaterThan(RUNS / 50);
      if (entry.acceptsAll) expect(tally.rejected, 'values rejected').toBe(0);
      else expect(tally.rejected, 'values rejected').toBeGreaterThan(RUNS / 50);
      // Each gap the entry names is real: met at least once.
      expect([...tally.met].toSorted()).toEqual(gaps.map(([id]) => id).toSorted());
    },
    60_000,
  );

  const differing = CATALOGUE.filter(
    (entry) =>
      JSON.stringify(schemaOf(entry, 'nullable')) !== JSON.stringify(schemaOf(entry, 'default')),
  );

  it('has entries whose default form lists no null', () => {
    expect(differing.map((entry) => entry.name)).toEqual([
      'Recursive DTO',
      'IsOptional',
      'IsOptional on a nested DTO',
      'Property initializer (default)',
    ]);
  });

  it.each(differing.map((entry) => [entry.name, entry] as const))(
    '%s, in the default form',
    async (_name, entry) => {
      const { property, tally, gaps } = judge(entry, 'default');
      await fc.assert(property, { numRuns: RUNS });
      expect(tally.accepted, 'values accepted').toBeGreaterThan(RUNS / 50);
      expect(tally.rejected, 'values rejected').toBeGreaterThan(RUNS / 50);
      expect([...tally.met].toSorted()).toEqual(
        [...gaps.map(([id]) => id), OPTIONAL_NULL].toSorted(),
      );
    },
    60_000,
  );

  it('covers every decorator the converter table maps', () => {
    const storage = getMetadataStorage();
    const covered = new Set(
      CATALOGUE.flatMap((entry) =>
        storage
          .getTargetValidationMetadatas(entry.dto, '', true, false)
          .map((m) => storage.getTargetValidatorConstraints(m.constraintCls)[0]?.name ?? m.type),
      ),
    );
    const missing = Object.keys(VALIDATION_CONSTRAINT_CONVERTERS).filter((n) => !covered.has(n));
    expect(missing).toEqual([]);
    for (const type of ['isDefined', 'nestedValidation', 'conditionalValidation']) {
      expect(covered).toContain(type);
    }
  });

  it('names only gaps that KNOWN_SCHEMA_GAPS lists', () => {
    const named = CATALOGUE.flatMap((entry) => Object.keys(entry.gaps ?? {}));
    for (const id of named) expect(gapEntry(id as KnownSchemaGapId), id).toBeDefined();
  });
});

import 'reflect-metadata';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';
import { compileJsonSchema, type JsonSchemaCheck } from '../../lib/schema/json-schema.check.js';
import { issueDetailsOf } from '../../lib/validation/argument-issue.details.js';
import {
  DtoArgumentsValidator,
  type ArgumentsValidation,
} from '../../lib/validation/dto-arguments.validator.js';
import { DtoOwnSchemaChecks } from '../../lib/validation/dto-own-schema.checks.js';
import { ABSENT, CATALOGUE } from '../schema/agreement.catalogue.js';
import { AGREEMENT_ROWS, ContactDto, product, ProductDto } from '../schema/agreement.rows.js';

/*
 * Issue 28: where a DTO's schema says it all, a valid call skips class-validator. Every
 * row of the agreement table and values generated for every entry of the agreement
 * catalogue go through the validator as it runs (`fast`) and through one that always runs
 * class-validator (`reference`, the validator before issue 28): both must accept with
 * equal instances, or refuse with the same issues, field by field and in order, with the
 * same details for translated messages. Each runs with every check a caller passes: the
 * listed schema in both forms, none (the DTO's own), and none at all (a route's slices).
 */

/** Counts the calls on which class-validator was skipped. */
class CountingChecks extends DtoOwnSchemaChecks {
  readonly vouched = new Map<Function, number>();

  override vouchFor(dto: Function, plain: object, schemaCheck: JsonSchemaCheck): boolean {
    const vouched = super.vouchFor(dto, plain, schemaCheck);
    if (vouched) this.vouched.set(dto, (this.vouched.get(dto) ?? 0) + 1);
    return vouched;
  }
}

class ClassValidatorAlways extends DtoOwnSchemaChecks {
  override vouchFor(): boolean {
    return false;
  }
}

const counting = new CountingChecks();
const fast = new DtoArgumentsValidator(counting);
const reference = new DtoArgumentsValidator(new ClassValidatorAlways());

type CheckForm = 'nullable' | 'default' | 'own' | 'already checked';
const FORMS: readonly CheckForm[] = ['nullable', 'default', 'own', 'already checked'];
const ALREADY_CHECKED: JsonSchemaCheck = () => [];
const factory = new DtoSchemaFactory();
const listedChecks = new Map<string, JsonSchemaCheck>();

function checkOf(dto: Function, form: CheckForm): JsonSchemaCheck | undefined {
  if (form === 'own') return undefined;
  if (form === 'already checked') return ALREADY_CHECKED;
  const key = `${form}\u0000${dto.name}`;
  let check = listedChecks.get(key);
  if (!check) {
    const schema = factory.createInputSchema(dto, { nullableOptionals: form === 'nullable' });
    check = compileJsonSchema(schema, 'the arguments');
    listedChecks.set(key, check);
  }
  return check;
}

/** What a caller gets: the instance with its class, or each issue with its details. */
function outcome(result: ArgumentsValidation<object>) {
  if (result.ok) return { ok: true, value: result.value, type: result.value.constructor };
  return {
    ok: false,
    issues: result.issues.map((issue) => ({ issue, details: issueDetailsOf(issue) })),
  };
}

async function outcomesOf(dto: Function, args: unknown, form: CheckForm) {
  const run = async (validator: DtoArgumentsValidator) => {
    // Each gets its own copy, as each call parses its own arguments.
    const copy = args === undefined ? undefined : structuredClone(args);
    const check = checkOf(dto, form);
    try {
      return outcome(await validator.validate(dto as new () => object, copy, check));
    } catch (error) {
      // class-transformer throws on some values (a null in an array of discriminated DTOs).
      return { threw: String(error) };
    }
  };
  return { fast: await run(fast), reference: await run(reference) };
}

const vouchedFor = (dto: Function) => counting.vouched.get(dto) ?? 0;

// Hundreds of values per entry; AGREEMENT_RUNS raises it for a deeper local run.
const RUNS = Number(process.env.AGREEMENT_RUNS ?? 300);

describe('validation that skips class-validator where the schema says it all', () => {
  describe.each(FORMS)('with the %s check', (form) => {
    it.each(Object.entries(AGREEMENT_ROWS))('%s', async (_label, { dto, args }) => {
      const { fast: got, reference: expected } = await outcomesOf(dto, args, form);
      expect(got).toStrictEqual(expected);
    });
  });

  it.each(CATALOGUE.map((entry) => [entry.name, entry] as const))(
    'agrees with class-validator on generated values: %s',
    async (_name, entry) => {
      const property = fc.asyncProperty(entry.values, fc.constantFrom(...FORMS), async (v, f) => {
        const args = v === ABSENT ? {} : JSON.parse(JSON.stringify({ value: v }));
        const { fast: got, reference: expected } = await outcomesOf(entry.dto, args, f);
        expect(got, JSON.stringify(args)).toStrictEqual(expected);
      });
      await fc.assert(property, { numRuns: RUNS });
    },
    60_000,
  );

  it('skipped class-validator for valid calls of DTOs whose schema says it all', async () => {
    const before = vouchedFor(ProductDto);
    const result = await fast.validate(ProductDto, { ...product }, checkOf(ProductDto, 'default'));
    expect(result).toMatchObject({ ok: true, value: { ...product } });
    expect(vouchedFor(ProductDto)).toBe(before + 1);
  });

  it('skipped it for the catalogue entries whose schema says it all, and for no other', () => {
    const kept = CATALOGUE.filter((entry) => vouchedFor(entry.dto) === 0).map((e) => e.name);
    expect(kept).toEqual([
      'IsNumber({ maxDecimalPlaces })',
      'IsDate with @Type(() => Date)',
      'IsDateString({ strict: true })',
      'IsDivisibleBy',
      'Matches with flags',
      'IsAlpha (a case-insensitive locale)',
      'IsEmail',
      'IsUrl',
      'IsUrl({ require_protocol: true })',
      'ArrayUnique',
      'Discriminated @Type() subtypes',
      'ValidateIf',
      'Custom validator',
      '@Type(() => Number) conversion',
    ]);
    expect(vouchedFor(ContactDto), 'ContactDto (@IsEmail(), @IsUrl())').toBe(0);
  });

  it('runs class-validator for a length given a presentation selector', async () => {
    const before = vouchedFor(ProductDto);
    const name = `${'x'.repeat(19)}\u2764\uFE0F`;
    const result = await fast.validate(ProductDto, { ...product, name });
    expect(result.ok).toBe(false);
    expect(vouchedFor(ProductDto)).toBe(before);
  });

  it('runs class-validator for arguments that are not JSON', async () => {
    const before = vouchedFor(ProductDto);
    const args = { ...product, tags: ['a', undefined] };
    expect(outcome(await fast.validate(ProductDto, args))).toStrictEqual(
      outcome(await reference.validate(ProductDto, structuredClone(args))),
    );
    expect(vouchedFor(ProductDto)).toBe(before);
  });
});

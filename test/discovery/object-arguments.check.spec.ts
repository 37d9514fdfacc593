import { IsInt, IsString, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { objectArgumentsCheck } from '../../lib/discovery/object-arguments.check.js';
import type { JsonSchema } from '../../lib/interfaces/json-schema.interface.js';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';
import { DtoArgumentsValidator } from '../../lib/validation/dto-arguments.validator.js';

class RecentParams {
  @IsString()
  actor!: string;

  @IsInt()
  @Min(1)
  limit!: number;
}

const validator = new DtoArgumentsValidator();
const schemaOf = (dto?: Function) => new DtoSchemaFactory().createInputSchema(dto);

describe('objectArgumentsCheck', () => {
  describe('with a DTO', () => {
    const check = objectArgumentsCheck(validator, RecentParams, schemaOf(RecentParams), {
      plain: false,
    });

    it('gives the method an instance of the DTO with the values as they came', async () => {
      const accepted = await check({ actor: 'ada', limit: 5 });
      expect(accepted.ok).toBe(true);
      expect(accepted.ok && accepted.value).toBeInstanceOf(RecentParams);
      expect(accepted.ok && accepted.value).toEqual(
        Object.assign(new RecentParams(), { actor: 'ada', limit: 5 }),
      );
    });

    it('does not turn strings into numbers: JSON values arrive typed', async () => {
      const refused = await check({ actor: 'ada', limit: '5' });
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.issues.map((issue) => issue.path)).toContain('/limit');
    });

    it("refuses values the DTO's rules reject, and properties it does not declare", async () => {
      const refused = await check({ actor: 'ada', limit: 0, extra: true });
      expect(refused.ok).toBe(false);
      const paths = !refused.ok ? refused.issues.map((issue) => issue.path) : [];
      expect(paths).toEqual(expect.arrayContaining(['/limit', '/extra']));
    });

    it('checks the schema it was given, not only the DTO', async () => {
      const schema = schemaOf(RecentParams) as JsonSchema & {
        properties: Record<string, object>;
      };
      const stricter = {
        ...schema,
        properties: { ...schema.properties, actor: { type: 'string', maxLength: 3 } },
      } as JsonSchema;
      const strict = objectArgumentsCheck(validator, RecentParams, stricter, { plain: false });
      expect((await strict({ actor: 'ada', limit: 1 })).ok).toBe(true);
      const refused = await strict({ actor: 'grace', limit: 1 });
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.issues[0]?.path).toBe('/actor');
    });
  });

  describe('without a DTO, for a method that takes a plain object', () => {
    it('gives the method the object as it came when the schema allows it', async () => {
      const check = objectArgumentsCheck(validator, undefined, { type: 'object' }, { plain: true });
      const params = { anything: ['goes'], nested: { a: 1 } };
      const accepted = await check(params);
      expect(accepted).toEqual({ ok: true, value: params });
      expect(accepted.ok && accepted.value).toBe(params);
    });

    it('refuses what the schema refuses', async () => {
      const schema = {
        type: 'object',
        properties: { limit: { type: 'integer' } },
        required: ['limit'],
      } as JsonSchema;
      const check = objectArgumentsCheck(validator, undefined, schema, { plain: true });
      expect((await check({ limit: 3 })).ok).toBe(true);
      const missing = await check({});
      expect(missing.ok).toBe(false);
      const wrongType = await check({ limit: 'three' });
      expect(wrongType.ok).toBe(false);
      expect(!wrongType.ok && wrongType.issues[0]?.path).toBe('/limit');
    });
  });

  describe('without a DTO, for a method that takes nothing', () => {
    it('accepts no arguments, and gives the method none', async () => {
      const check = objectArgumentsCheck(validator, undefined, schemaOf(), { plain: false });
      expect(await check({})).toEqual({ ok: true, value: undefined });
    });

    it('refuses every argument, naming the subject it was given', async () => {
      const check = objectArgumentsCheck(validator, undefined, schemaOf(), {
        plain: false,
        subject: 'this method',
      });
      const refused = await check({ limit: 3 });
      expect(refused).toEqual({
        ok: false,
        issues: [
          {
            path: '/limit',
            constraint: 'whitelistValidation',
            message: 'property "limit" is not allowed; this method takes no arguments',
          },
        ],
      });
    });

    it('speaks of a tool when no subject is given', async () => {
      const check = objectArgumentsCheck(validator, undefined, schemaOf(), { plain: false });
      const refused = await check({ limit: 3 });
      expect(!refused.ok && refused.issues[0]?.message).toBe(
        'property "limit" is not allowed; this tool takes no arguments',
      );
    });
  });

  it('builds without compiling the schema: a schema Ajv cannot compile fails on the first call', async () => {
    const broken = {
      type: 'object',
      properties: { limit: { type: 'integr' } },
    } as unknown as JsonSchema;
    const check = objectArgumentsCheck(validator, undefined, broken, { plain: true });
    await expect(check({ limit: 1 })).rejects.toThrow(/integr/);
  });
});

import { IsInt, IsString } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { stringArgumentsCheck } from '../../lib/discovery/string-arguments.check.js';
import { DtoSchemaFactory } from '../../lib/schema/dto-schema.factory.js';
import { DtoArgumentsValidator } from '../../lib/validation/dto-arguments.validator.js';

class PageParams {
  @IsString()
  category!: string;

  @IsInt()
  page!: number;
}

const validator = new DtoArgumentsValidator();
const schemaOf = (dto?: Function) => new DtoSchemaFactory().createInputSchema(dto);

describe('stringArgumentsCheck', () => {
  it('turns the strings of the wire into the types of the DTO, then validates them', async () => {
    const check = stringArgumentsCheck(validator, PageParams, schemaOf(PageParams), false);
    const accepted = await check({ category: 'lamps', page: '2' });
    expect(accepted.ok).toBe(true);
    expect(accepted.ok && accepted.value).toEqual(
      Object.assign(new PageParams(), { category: 'lamps', page: 2 }),
    );
    const refused = await check({ category: 'lamps', page: 'two' });
    expect(refused.ok).toBe(false);
  });

  it('gives a plain object parameter the values as they came', async () => {
    const check = stringArgumentsCheck(validator, undefined, schemaOf(), true);
    expect(await check({ page: 'two' })).toEqual({ ok: true, value: { page: 'two' } });
  });

  it('accepts no values for a method that takes none', async () => {
    const check = stringArgumentsCheck(validator, undefined, schemaOf(), false);
    expect((await check({})).ok).toBe(true);
    expect((await check({ page: '2' })).ok).toBe(false);
  });
});

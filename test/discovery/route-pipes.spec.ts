import {
  DefaultValuePipe,
  ParseArrayPipe,
  ParseEnumPipe,
  ParseIntPipe,
  ParseUUIDPipe,
  type PipeTransform,
} from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { readPipeSchema } from '../../lib/schema/pipe-schema.reader.js';

class TrimPipe implements PipeTransform {
  transform(value: unknown) {
    return typeof value === 'string' ? value.trim() : value;
  }
}

describe('route tools: what the pipes of a parameter say', () => {
  it('knows nothing without a built-in pipe, and then requires the value', () => {
    expect(readPipeSchema([])).toEqual({ optional: false });
    expect(readPipeSchema([TrimPipe, new TrimPipe()])).toEqual({ optional: false });
  });

  it('takes the type from the first pipe that decides one', () => {
    expect(readPipeSchema([TrimPipe, ParseIntPipe, ParseUUIDPipe])).toEqual({
      schema: { type: 'integer' },
      optional: false,
    });
  });

  it('makes a value optional when the first pipe to meet a missing one lets it through', () => {
    expect(readPipeSchema([new DefaultValuePipe(10), ParseIntPipe])).toEqual({
      schema: { type: 'integer' },
      default: { value: 10 },
      optional: true,
    });
    expect(readPipeSchema([new ParseIntPipe({ optional: true })])).toMatchObject({
      optional: true,
    });
    // ParseIntPipe refuses a missing value before DefaultValuePipe could replace it.
    expect(readPipeSchema([ParseIntPipe, new DefaultValuePipe(10)])).toEqual({
      schema: { type: 'integer' },
      optional: false,
    });
    // An optional pipe hands the missing value on to one that refuses it.
    expect(
      readPipeSchema([new ParseIntPipe({ optional: true }), new ParseArrayPipe()]),
    ).toMatchObject({ optional: false });
  });

  it('reads the enum of a ParseEnumPipe without the reverse mapping of numeric members', () => {
    enum Mixed {
      Low = 1,
      High = 'high',
    }
    expect(readPipeSchema([new ParseEnumPipe(Mixed)]).schema).toEqual({ enum: [1, 'high'] });
  });

  it('leaves the items of an array open when ParseArrayPipe names no class', () => {
    expect(readPipeSchema([ParseArrayPipe]).schema).toEqual({ type: 'array' });
    expect(readPipeSchema([new ParseArrayPipe({ items: Boolean })]).schema).toEqual({
      type: 'array',
      items: { type: 'boolean' },
    });
  });
});

import type { Type } from '@nestjs/common';
import type { DtoArgumentsValidator } from '../validation/dto-arguments.validator.js';
import { compileJsonSchema } from '../schema/json-schema.check.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import { coerceStringValues } from '../validation/string-values.coercer.js';
import type { ArgumentsCheck } from './discovered-method.interface.js';

/**
 * The check of prompt arguments and URI template variables: strings on the wire, turned
 * into the types the DTO declares, then validated like tool arguments (JSON Schema, then
 * class-validator). Without a DTO, a method that takes a plain object gets the values as
 * they came, and one that takes nothing accepts none.
 */
export function stringArgumentsCheck(
  validator: DtoArgumentsValidator,
  dto: Type | undefined,
  schema: JsonSchema,
  plain: boolean,
): ArgumentsCheck {
  if (plain) return async (args) => ({ ok: true, value: { ...args } });
  if (!dto) return async (args) => validator.validateNoArguments(args);
  const schemaCheck = compileJsonSchema(schema, 'the arguments');
  return (args) => validator.validate(dto, coerceStringValues(schema, args), schemaCheck);
}

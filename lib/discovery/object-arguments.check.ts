import type { Type } from '@nestjs/common';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import { compileJsonSchema } from '../schema/json-schema.check.js';
import type { DtoArgumentsValidator } from '../validation/dto-arguments.validator.js';
import type { ArgumentsCheck } from './discovered-method.interface.js';

/**
 * The check of arguments that arrive as JSON values (a tool's `arguments`, an extension
 * method's `params`): the JSON Schema, then the DTO's class-validator rules. Without a DTO,
 * a method that takes a plain object gets it checked by `schema` alone, and one that takes
 * nothing accepts none.
 * @param subject what takes no arguments, in the message refusing some (`this tool`)
 */
export function objectArgumentsCheck(
  validator: DtoArgumentsValidator,
  dto: Type | undefined,
  schema: JsonSchema,
  { plain, subject }: { readonly plain: boolean; readonly subject?: string },
): ArgumentsCheck {
  // Built here, compiled on the first call (compileJsonSchema), then reused.
  const schemaCheck = compileJsonSchema(schema, 'the arguments');
  if (dto) return (args) => validator.validate(dto, args, schemaCheck);
  if (plain) return async (args) => validator.validatePlain(args, schemaCheck);
  return async (args) => validator.validateNoArguments(args, subject);
}

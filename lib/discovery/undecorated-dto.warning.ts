import type { Logger, Type } from '@nestjs/common';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import { type McpEntryLabel, undecoratedDtoMessage } from '../messages/parameters.messages.js';

/**
 * Warns at bootstrap when the arguments DTO of a tool, prompt or resource has no
 * class-validator metadata at all, so the schema built from it has no properties: every
 * call that passes an argument is refused ("property ... is not allowed; allowed
 * properties: (none)"), which nobody would guess from the class.
 *
 * A warning, not an error. Such a class has a defined meaning: the validator treats it as
 * "no arguments" (`DtoArgumentsValidator#validate` checks only unknown keys for a class
 * without rules), exactly like a method without an arguments parameter. And an empty DTO
 * can be on purpose: a service method shared with a REST controller keeps the signature
 * the controller needs. At run time an undecorated property leaves no trace, so the two
 * cases look the same; the app keeps booting, and the log says what to add.
 */
export function warnOfUndecoratedDto(
  logger: Logger,
  dto: Type | undefined,
  schema: JsonSchema,
  entry: McpEntryLabel,
): void {
  if (dto && Object.keys(schema.properties ?? {}).length === 0) {
    logger.warn(undecoratedDtoMessage(dto.name, entry));
  }
}

import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type {
  McpArgumentOptions,
  McpToolOutput,
} from '../interfaces/mcp-tool-options.interface.js';
import {
  invalidOutputOptionMessage,
  undecoratedOutputMessage,
} from '../messages/schema.messages.js';
import { BUILT_IN_TYPES } from '../utils/built-in-types.js';
import { getDtoProperties } from './dto-metadata.reader.js';
import { DtoSchemaBuilder, type SchemaGapNotice } from './dto-schema.builder.js';

export type { SchemaGapNotice } from './dto-schema.builder.js';

/** Outputs that are not DTOs: what `JSON.stringify` makes of them. */
const SCALAR_OUTPUTS = new Map<Function, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [Date, { type: 'string', format: 'date-time' }],
]);

export interface DtoSchemaFactoryOptions {
  /**
   * Called for each rule that the schema enforces differently from class-validator, so
   * the caller can warn at bootstrap. Call-time validation is unaffected.
   * @default ignore
   */
  onGap?: (notice: SchemaGapNotice) => void;
}

export interface InputSchemaOptions {
  /**
   * Descriptions, examples and deprecation of the top-level properties (the `arguments`
   * option of `@McpTool()`); they override `@ApiProperty()` field by field.
   */
  arguments?: Readonly<Record<string, string | McpArgumentOptions>>;
  /**
   * Lists `@IsOptional()` properties as nullable (`"type": ["string", "null"]`), as
   * class-validator lets null through them; otherwise they are listed with their own type
   * only, and a check against the schema refuses null (`schema.nullableOptionals` of
   * `McpModule.forRoot()`).
   * @default false
   */
  nullableOptionals?: boolean;
}

/**
 * Builds JSON Schemas (2020-12) from the class-validator and class-transformer metadata
 * of DTOs, read at runtime, so `PartialType()`-style classes and inherited rules count:
 * the arguments of a tool, and its declared output. The server checks every call against
 * both this schema and class-validator; where they cannot say the same, the difference is
 * listed in `KNOWN_SCHEMA_GAPS`.
 *
 * It holds no cache: the caller builds each schema once, at bootstrap.
 */
export class DtoSchemaFactory {
  constructor(private readonly options: DtoSchemaFactoryOptions = {}) {}

  /**
   * Self-contained JSON Schema 2020-12 for a tool's arguments DTO: an object, nested DTOs
   * in `$defs`, property initializers as `default`, `@ApiProperty()` texts as annotations.
   * @throws DtoSchemaError when a rule cannot be published honestly (the message says why)
   */
  createInputSchema(dto: Function | undefined, options: InputSchemaOptions = {}): JsonSchema {
    if (!dto) return { type: 'object', additionalProperties: false };
    return new DtoSchemaBuilder('input', {
      onGap: this.options.onGap,
      nullableOptionals: options.nullableOptionals ?? false,
    }).input(dto, options.arguments ?? {});
  }

  /**
   * The `outputSchema` of a declared output, at its natural root: an object for a DTO, an
   * array for `[Dto]`, a scalar for `String`/`Number`/`Boolean`/`Date`. The SDK wraps a
   * non-object root for 2025-era clients. `@Exclude()`d properties are left out, as
   * `instanceToPlain()` leaves them out of the result.
   */
  createOutputSchema(output: McpToolOutput): JsonSchema {
    const list = Array.isArray(output);
    const type = (list ? output[0] : output) as Function | undefined;
    if (typeof type !== 'function' || (list && output.length !== 1)) {
      throw new McpConfigurationError(invalidOutputOptionMessage());
    }
    const scalar = SCALAR_OUTPUTS.get(type);
    if (scalar) return list ? { type: 'array', items: { ...scalar } } : { ...scalar };
    if (BUILT_IN_TYPES.has(type) || getDtoProperties(type).length === 0) {
      throw new McpConfigurationError(undecoratedOutputMessage(type.name));
    }
    // A result is written by the app's own code, not by a model reading the schema: null
    // is how a service returns an optional value, and `@IsOptional()` lets it through.
    return new DtoSchemaBuilder('output', {
      onGap: this.options.onGap,
      nullableOptionals: true,
    }).output(type, list);
  }
}

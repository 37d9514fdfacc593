import type { McpArgumentOptions } from '../interfaces/mcp-tool-options.interface.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import { readPropertyDocblock } from './property-docblock.reader.js';

/**
 * `DECORATORS.API_MODEL_PROPERTIES` of `@nestjs/swagger`: where `@ApiProperty()` stores its
 * options, per property on the prototype. Read through reflect-metadata so that
 * `@nestjs/swagger` stays an optional peer that is never imported.
 */
const SWAGGER_API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** The parts of `@ApiProperty()` options that document a property for a model. */
interface ApiPropertyMetadata {
  description?: unknown;
  example?: unknown;
  examples?: unknown;
  deprecated?: unknown;
}

/** Annotation keywords of one property: text and examples for the model, never rules. */
export type PropertyAnnotations = Pick<JsonSchema, 'description' | 'examples' | 'deprecated'>;

const reflect = Reflect as unknown as {
  getMetadata?: (key: string, target: object, property: string) => unknown;
};

// `examples` is an array in OpenAPI 3.1 and JSON Schema; swagger also takes a map of named
// examples ({ summary, value }), whose values are what a model should see.
function examplesOf(metadata: ApiPropertyMetadata): unknown[] | undefined {
  if (Array.isArray(metadata.examples)) return metadata.examples;
  if (metadata.examples !== null && typeof metadata.examples === 'object') {
    return Object.values(metadata.examples).map((example: unknown) =>
      example !== null && typeof example === 'object' && 'value' in example
        ? (example as { value: unknown }).value
        : example,
    );
  }
  return metadata.example === undefined ? undefined : [metadata.example];
}

/**
 * What `@ApiProperty()` says about `dto[property]` for a model, if swagger is in use; its
 * description falls back to the property's docblock when `nestjs-mcp/plugin` recorded one.
 */
export function readApiPropertyAnnotations(dto: Function, property: string): PropertyAnnotations {
  const prototype = dto.prototype as object | undefined;
  const metadata = prototype
    ? (reflect.getMetadata?.(SWAGGER_API_MODEL_PROPERTIES, prototype, property) as
        ApiPropertyMetadata | undefined)
    : undefined;
  const description =
    typeof metadata?.description === 'string'
      ? metadata.description
      : readPropertyDocblock(dto, property);
  const examples = metadata && examplesOf(metadata);
  return {
    ...(description !== undefined && { description }),
    ...(examples && { examples }),
    ...(metadata?.deprecated === true && { deprecated: true }),
  };
}

/** The `arguments` entry of `@McpTool()` for one property, as annotation keywords. */
export function argumentAnnotations(
  option: string | McpArgumentOptions | undefined,
): PropertyAnnotations {
  if (option === undefined) return {};
  if (typeof option === 'string') return { description: option };
  return {
    ...(option.description !== undefined && { description: option.description }),
    ...(option.examples !== undefined && { examples: option.examples }),
    ...(option.deprecated !== undefined && { deprecated: option.deprecated }),
  };
}

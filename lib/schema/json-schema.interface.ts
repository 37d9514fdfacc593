/** The primitive type names of JSON Schema 2020-12 (`integer` is a `number` with no fraction). */
export type JsonSchemaTypeName =
  'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/**
 * A JSON Schema 2020-12 document or subschema. The keywords this library emits are typed;
 * the index signature keeps room for annotations added later (descriptions, examples,
 * localized titles) without widening every caller to `Record<string, unknown>`.
 */
export interface JsonSchema {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: JsonSchemaTypeName | JsonSchemaTypeName[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  allOf?: JsonSchema[];
  description?: string;
  [keyword: string]: unknown;
}

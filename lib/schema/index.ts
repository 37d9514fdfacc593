export { DtoSchemaFactory } from './dto-schema.factory.js';
export type {
  DtoSchemaFactoryOptions,
  InputSchemaOptions,
  SchemaGapNotice,
} from './dto-schema.factory.js';
export { compileJsonSchema, renderValues } from './json-schema.check.js';
export type { JsonSchemaCheck, SchemaIssue } from './json-schema.check.js';
export type { JsonSchema, JsonSchemaTypeName } from './json-schema.interface.js';
export {
  KNOWN_SCHEMA_GAPS,
  VALIDATION_CONSTRAINT_CONVERTERS,
} from './validation-constraint.converters.js';
export type {
  ConstraintConversion,
  ConstraintGap,
  KnownSchemaGap,
  KnownSchemaGapId,
  ValidationConstraintConverter,
} from './validation-constraint.converters.js';

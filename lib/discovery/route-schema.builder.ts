import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { McpArgumentOptions } from '../interfaces/mcp-tool-options.interface.js';
import {
  conflictingRouteDefsMessage,
  duplicateRouteArgumentMessage,
  unknownRouteArgumentOptionMessage,
} from '../messages/routes.messages.js';
import type { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import { readPipeSchema } from '../schema/pipe-schema.reader.js';
import { isUserClass } from '../utils/built-in-types.js';
import { RouteParamtypes } from '../utils/nest-internals.js';
import { sameJson } from '../utils/value-checks.util.js';
import { withinMethod } from './within-method.util.js';
import { sourceLabel, type RouteArgumentSource } from './route-parameters.reader.js';
import { ownValue, setOwn } from '../utils/own-property.util.js';

/** The merged schema of a route tool, and which source gives each argument. */
export interface RouteSchema {
  readonly schema: JsonSchema;
  /** The properties each whole-object source (`@Body() dto`) owns, in the flat arguments. */
  readonly properties: ReadonlyMap<RouteArgumentSource, readonly string[]>;
}

/** The schema of a value by its recorded type, when no pipe decides it. */
const DESIGN_TYPES = new Map<unknown, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [Date, { type: 'string', format: 'date-time' }],
  [Array, { type: 'array' }],
]);

interface BuildOptions {
  readonly arguments?: Readonly<Record<string, string | McpArgumentOptions>>;
  readonly nullableOptionals?: boolean;
  /** The `@param` docblock of the parameter at an index (`nestjs-mcp/plugin`), if any. */
  readonly parameterDescription?: (index: number) => string | undefined;
}

/**
 * Builds the one flat input schema of a route tool from its `@Param()`, `@Query()` and
 * `@Body()` parameters: each named parameter is a property (typed by its pipes, else by its
 * TypeScript type), each whole-object DTO gives its properties. A path parameter is always
 * required (the URL cannot leave it out); any other named value unless its pipes let a
 * missing value through. A name given twice fails, naming both places.
 */
export class RouteSchemaBuilder {
  private readonly properties: Record<string, JsonSchema> = {};
  private readonly required: string[] = [];
  private readonly defs: Record<string, JsonSchema> = {};
  private readonly owners = new Map<string, string>();
  private readonly owned = new Map<RouteArgumentSource, string[]>();

  constructor(
    private readonly schemaFactory: DtoSchemaFactory,
    private readonly where: string,
    private readonly options: BuildOptions = {},
  ) {}

  build(sources: readonly RouteArgumentSource[]): RouteSchema {
    for (const source of sources) {
      if (source.name === undefined) this.addWholeObject(source);
      else this.addNamed(source, source.name);
    }
    this.applyArgumentOptions();
    const schema: JsonSchema = {
      type: 'object',
      properties: this.properties,
      ...(this.required.length > 0 && { required: this.required }),
      additionalProperties: false,
      ...(Object.keys(this.defs).length > 0 && { $defs: this.defs }),
    };
    return { schema, properties: this.owned };
  }

  private addNamed(source: RouteArgumentSource, name: string): void {
    const pipes = readPipeSchema(source.pipes);
    let schema: JsonSchema;
    if (pipes.schema) {
      schema = { ...pipes.schema };
      if (pipes.itemsClass) schema.items = this.dtoObject(pipes.itemsClass);
    } else if (isUserClass(source.type)) {
      schema = this.dtoObject(source.type);
    } else {
      const byType = DESIGN_TYPES.get(source.type);
      // A path parameter is a string; anything else untyped may be any JSON value.
      schema = {
        ...(byType ?? (source.paramtype === RouteParamtypes.PARAM ? { type: 'string' } : {})),
      };
    }
    // The docblock is the last fallback: the "arguments" option, applied later, wins over it.
    const described = this.options.parameterDescription?.(source.index);
    if (described !== undefined && schema.description === undefined) schema.description = described;
    const required = source.paramtype === RouteParamtypes.PARAM || !pipes.optional;
    if (pipes.default && !required) schema.default = pipes.default.value;
    this.addProperty(name, sourceLabel(source, name), schema, required);
  }

  private addWholeObject(source: RouteArgumentSource): void {
    const dto = source.type as Function;
    const { $defs, properties = {}, required = [] } = this.dtoSchema(dto);
    this.mergeDefs($defs);
    const names = Object.keys(properties);
    for (const name of names) {
      // A path parameter is always in the URL, whatever the DTO says.
      const isRequired = source.paramtype === RouteParamtypes.PARAM || required.includes(name);
      this.addProperty(name, sourceLabel(source, name), properties[name]!, isRequired);
    }
    this.owned.set(source, names);
  }

  /** A DTO as an inline object schema, its nested classes moved to the root's `$defs`. */
  private dtoObject(dto: Function): JsonSchema {
    const { $defs, ...object } = this.dtoSchema(dto);
    this.mergeDefs($defs);
    return object;
  }

  private dtoSchema(dto: Function): JsonSchema {
    return withinMethod(this.where, () =>
      this.schemaFactory.createInputSchema(dto, {
        nullableOptionals: this.options.nullableOptionals ?? false,
      }),
    );
  }

  private mergeDefs(defs: Record<string, JsonSchema> | undefined): void {
    for (const [key, def] of Object.entries(defs ?? {})) {
      const known = ownValue(this.defs, key);
      if (known !== undefined && !sameJson(known, def))
        throw new McpConfigurationError(conflictingRouteDefsMessage(this.where, key));
      setOwn(this.defs, key, def);
    }
  }

  private addProperty(name: string, label: string, schema: JsonSchema, required: boolean): void {
    const first = this.owners.get(name);
    if (first !== undefined) {
      throw new McpConfigurationError(
        duplicateRouteArgumentMessage(this.where, name, first, label),
      );
    }
    this.owners.set(name, label);
    // Parameter names come from the app's code: `__proto__` stays a property.
    setOwn(this.properties, name, schema);
    if (required) this.required.push(name);
  }

  /** The `arguments` option of `@McpTool()`: texts for the merged properties, by name. */
  private applyArgumentOptions(): void {
    for (const [name, option] of Object.entries(this.options.arguments ?? {})) {
      // `toString` names no argument, whatever every object inherits.
      const property = ownValue(this.properties, name);
      if (!property) {
        throw new McpConfigurationError(
          unknownRouteArgumentOptionMessage(this.where, name, Object.keys(this.properties)),
        );
      }
      const { description, examples, deprecated } =
        typeof option === 'string' ? { description: option } : (option as McpArgumentOptions);
      if (description !== undefined) property.description = description;
      if (examples !== undefined) property.examples = examples;
      if (deprecated !== undefined) property.deprecated = deprecated;
    }
  }
}

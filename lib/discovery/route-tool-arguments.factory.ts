import type { Tool } from '@modelcontextprotocol/server';
import type { Type } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { routeInputSchemaMessage } from '../messages/routes.messages.js';
import type { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import { sameJson } from '../utils/value-checks.util.js';
import type { DtoArgumentsValidator } from '../validation/dto-arguments.validator.js';
import type { ArgumentsCheck } from './discovered-method.interface.js';
import type { DiscoveredTool } from './discovered-tool.interface.js';
import { readParameterDescription } from './docblock-metadata.reader.js';
import { routeArgumentsCheck } from './route-arguments.check.js';
import { readRoute } from './route-metadata.reader.js';
import { readRouteSources, takesRouteArguments } from './route-parameters.reader.js';
import { RouteSchemaBuilder } from './route-schema.builder.js';

/** The arguments of a route tool: its merged schema and the check that splits them back. */
export interface RouteToolArguments {
  readonly inputSchema: JsonSchema;
  readonly checkArguments: ArgumentsCheck;
  /** The tool with `schema.nullableOptionals` (see `DiscoveredTool#withNullableOptionals`). */
  nullableVariant(definition: Tool): NonNullable<DiscoveredTool['withNullableOptionals']>;
}

/**
 * The arguments of a controller route published as a tool, when the route reads path
 * parameters, named query or body values, or several of them: one flat object whose
 * schema merges theirs. `undefined` for a route with one whole `@Body()`/`@Query()` DTO
 * (or none), which is a tool like any other.
 *
 * A call is checked twice, on purpose: first by this library (the merged JSON Schema, then
 * class-validator on each DTO), so that the model gets every problem at once with a JSON
 * Pointer it can fix, and so that what is listed is what is enforced; then by the route's
 * own pipes (`ParseIntPipe`, `ParseUUIDPipe` with a version, a custom pipe), which run on
 * each value as over HTTP so that the method receives exactly the values it would there.
 */
export function createRouteToolArguments(
  schemaFactory: DtoSchemaFactory,
  validator: DtoArgumentsValidator,
  target: Type,
  methodName: string,
  where: string,
  options: McpToolOptions,
): RouteToolArguments | undefined {
  // A provider's method is no route: its @Param() means nothing, as the layout reader says.
  if (!readRoute(target, methodName) || !takesRouteArguments(target, methodName)) return undefined;
  if (options.inputSchema) throw new McpConfigurationError(routeInputSchemaMessage(where));
  const sources = readRouteSources(target, methodName, where);
  const build = (nullableOptionals: boolean) =>
    new RouteSchemaBuilder(schemaFactory, where, {
      arguments: options.arguments,
      nullableOptionals,
      parameterDescription: (index) => readParameterDescription(target, methodName, index),
    }).build(sources);
  const { schema, properties } = build(false);
  return {
    inputSchema: schema,
    checkArguments: routeArgumentsCheck(validator, sources, properties, schema),
    nullableVariant: (definition) => {
      let built = false;
      let variant: ReturnType<NonNullable<DiscoveredTool['withNullableOptionals']>>;
      return () => {
        if (built) return variant;
        const nullable = build(true);
        built = true;
        // Without an @IsOptional() property both forms are one, and so is the check.
        variant = sameJson(nullable.schema, schema)
          ? undefined
          : {
              definition: { ...definition, inputSchema: nullable.schema as Tool['inputSchema'] },
              checkArguments: routeArgumentsCheck(
                validator,
                sources,
                nullable.properties,
                nullable.schema,
              ),
            };
        return variant;
      };
    },
  };
}

import type { Tool } from '@modelcontextprotocol/server';
import type { Logger, Type } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { DtoArgumentsValidator } from '../validation/dto-arguments.validator.js';
import { ToolOutputValidator } from '../validation/tool-output.validator.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { PRIMITIVE_NAME_PATTERN } from '../mcp.constants.js';
import {
  argumentsOptionWithoutDtoMessage,
  inputSchemaWithDtoMessage,
  missingDescriptionMessage,
} from '../messages/discovery.messages.js';
import { invalidToolNameMessage } from '../messages/names.messages.js';
import { inputSchemaNotAnObjectMessage } from '../messages/schema.messages.js';
import type { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';
import { sameJson } from '../utils/value-checks.util.js';
import { withoutUndefined } from '../utils/without-undefined.util.js';
import type { DiscoveredTool } from './discovered-tool.interface.js';
import { readMethodDescription } from './docblock-metadata.reader.js';
import type { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { recordParameterLayout } from './method-parameters.reader.js';
import { objectArgumentsCheck } from './object-arguments.check.js';
import { readRoute, routeAnnotations } from './route-metadata.reader.js';
import {
  createRouteToolArguments,
  type RouteToolArguments,
} from './route-tool-arguments.factory.js';
import { checkedAliases, defaultToolName, namingTargetOf } from './tool-name.resolver.js';
import { checkedTaskOption } from './tool-task.option.js';
import { checkedToolLimits } from './tool-limits.option.js';
import { checkedToolApp } from './app-view.discovery.js';
import { warnOfUndecoratedDto } from './undecorated-dto.warning.js';
import { withinMethod } from './within-method.util.js';

/** Builds what `tools/list` publishes for a `@McpTool()` method, and its arguments check. */
export class ToolDefinitionFactory {
  constructor(
    private readonly schemaFactory: DtoSchemaFactory,
    private readonly validator: DtoArgumentsValidator,
    private readonly metadataAccessor: McpMetadataAccessor,
    private readonly logger: Logger,
  ) {}

  create(
    wrapper: InstanceWrapper,
    target: Type,
    methodName: string,
    options: McpToolOptions,
  ): DiscoveredTool {
    const where = `${target.name}.${methodName}`;
    const name = options.name ?? defaultToolName(methodName);
    if (!PRIMITIVE_NAME_PATTERN.test(name))
      throw new McpConfigurationError(invalidToolNameMessage(name, where));
    const { route, dto } = this.argumentsOf(target, methodName, where, options);
    const { title, description } = this.describe(target, methodName, options, name, where);
    assertArgumentOptionsFit(where, options, dto, route);
    const { output } = options;
    const task = checkedTaskOption(options.task, where);
    const app = options.app === undefined ? undefined : checkedToolApp(options.app, where);
    const limits = checkedToolLimits(options, where);
    const inputSchema = this.inputSchemaOf(where, options, route, dto);
    warnOfUndecoratedDto(this.logger, dto, inputSchema, { kind: 'tool', name, where });
    const outputSchema =
      output && withinMethod(where, () => this.schemaFactory.createOutputSchema(output));
    const definition: Tool = withoutUndefined({
      name,
      title,
      description,
      inputSchema: inputSchema as Tool['inputSchema'],
      // Listed at its natural root; the SDK wraps a non-object root for 2025-era clients.
      outputSchema: outputSchema as Tool['outputSchema'] | undefined,
      annotations: routeAnnotations(readRoute(target, methodName), options.annotations),
      icons: options.icons,
      _meta: options._meta,
    });
    return {
      definition,
      where,
      aliases: checkedAliases(options.aliases, name, where),
      ...(task && { task }),
      ...(app && { app }),
      ...(limits && { limits }),
      // A default name: each server's `naming` option may give another (McpServerHost).
      ...(options.name === undefined && { naming: namingTargetOf(target, methodName) }),
      wrapper,
      methodName,
      checkArguments:
        route?.checkArguments ??
        objectArgumentsCheck(this.validator, dto, inputSchema, {
          plain: options.inputSchema !== undefined,
        }),
      ...(outputSchema && { outputValidator: new ToolOutputValidator(name, where, outputSchema) }),
      ...(route && { withNullableOptionals: route.nullableVariant(definition) }),
      ...(dto && {
        withNullableOptionals: this.nullableVariant(where, dto, options, definition, inputSchema),
      }),
    };
  }

  /**
   * Where the tool's arguments come from: a route's merged parameters, or else the one
   * arguments DTO of the method (`dto` is `undefined` for a tool that takes none).
   */
  private argumentsOf(
    target: Type,
    methodName: string,
    where: string,
    options: McpToolOptions,
  ): { route: RouteToolArguments | undefined; dto: Type | undefined } {
    // A route reading @Param(), named or several @Query()/@Body(): one merged arguments object.
    const route = createRouteToolArguments(
      this.schemaFactory,
      this.validator,
      target,
      methodName,
      where,
      options,
    );
    const { dto } = route
      ? { dto: undefined }
      : recordParameterLayout(target, methodName, where, {
          plainArguments: options.inputSchema !== undefined,
        });
    return { route, dto };
  }

  /** The title and description: the options', else @ApiOperation()'s, else the doc comment's. */
  private describe(
    target: Type,
    methodName: string,
    options: McpToolOptions,
    name: string,
    where: string,
  ): { title: string | undefined; description: string | undefined } {
    const apiOperation = this.metadataAccessor.getApiOperation(target.prototype[methodName]);
    const title = options.title ?? apiOperation?.summary;
    const description =
      options.description ?? apiOperation?.description ?? readMethodDescription(target, methodName);
    if (!description) this.logger.warn(missingDescriptionMessage(name, where));
    return { title, description };
  }

  /** The schema the tool lists for its arguments, whose root MCP requires to be an object. */
  private inputSchemaOf(
    where: string,
    options: McpToolOptions,
    route: RouteToolArguments | undefined,
    dto: Type | undefined,
  ): JsonSchema {
    const inputSchema =
      options.inputSchema ??
      route?.inputSchema ??
      withinMethod(where, () =>
        this.schemaFactory.createInputSchema(dto, { arguments: options.arguments }),
      );
    if (inputSchema.type !== 'object') {
      throw new McpConfigurationError(inputSchemaNotAnObjectMessage(where));
    }
    return inputSchema;
  }

  /**
   * The tool as a server with `schema.nullableOptionals` lists and checks it. The scan is
   * shared by every server, so this is built when the first such server binds the tool,
   * once; a server with the default never builds it.
   */
  private nullableVariant(
    where: string,
    dto: Type,
    options: McpToolOptions,
    definition: Tool,
    inputSchema: JsonSchema,
  ): NonNullable<DiscoveredTool['withNullableOptionals']> {
    let built = false;
    let variant: ReturnType<NonNullable<DiscoveredTool['withNullableOptionals']>>;
    return () => {
      if (built) return variant;
      const schema = withinMethod(where, () =>
        this.schemaFactory.createInputSchema(dto, {
          arguments: options.arguments,
          nullableOptionals: true,
        }),
      );
      built = true;
      // Without an @IsOptional() property both forms are one, and so is the check.
      variant = sameJson(schema, inputSchema)
        ? undefined
        : {
            definition: { ...definition, inputSchema: schema as Tool['inputSchema'] },
            checkArguments: objectArgumentsCheck(this.validator, dto, schema, { plain: false }),
          };
      return variant;
    };
  }
}

/**
 * Refuses option pairs that contradict the method: "arguments" describes properties of a DTO
 * the method must take, and "inputSchema" replaces a DTO it must not take.
 */
function assertArgumentOptionsFit(
  where: string,
  options: McpToolOptions,
  dto: Type | undefined,
  route: RouteToolArguments | undefined,
): void {
  if (options.arguments && !dto && !route) {
    throw new McpConfigurationError(argumentsOptionWithoutDtoMessage(where));
  }
  if (options.inputSchema && dto) {
    throw new McpConfigurationError(inputSchemaWithDtoMessage(where));
  }
}

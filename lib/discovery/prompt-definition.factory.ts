import type { Prompt, PromptArgument } from '@modelcontextprotocol/server';
import type { Logger, Type } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { DtoArgumentsValidator } from '../validation/dto-arguments.validator.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import { PRIMITIVE_NAME_PATTERN } from '../mcp.constants.js';
import { invalidPromptNameMessage } from '../messages/names.messages.js';
import { untypedPromptArgumentsMessage } from '../messages/parameters.messages.js';
import type { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';
import { toSnakeCase } from '../utils/to-snake-case.util.js';
import { withoutUndefined } from '../utils/without-undefined.util.js';
import type { DiscoveredPrompt } from './discovered-prompt.interface.js';
import { readMethodDescription } from './docblock-metadata.reader.js';
import { stringArgumentsCheck } from './string-arguments.check.js';
import { recordParameterLayout } from './method-parameters.reader.js';
import { warnOfUndecoratedDto } from './undecorated-dto.warning.js';
import { withinMethod } from './within-method.util.js';

/** Builds what `prompts/list` publishes for a `@McpPrompt()` method, and its arguments check. */
export class PromptDefinitionFactory {
  constructor(
    private readonly schemaFactory: DtoSchemaFactory,
    private readonly validator: DtoArgumentsValidator,
    private readonly logger: Logger,
  ) {}

  create(
    wrapper: InstanceWrapper,
    target: Type,
    methodName: string,
    options: McpPromptOptions,
  ): DiscoveredPrompt {
    const where = `${target.name}.${methodName}`;
    const name = options.name ?? toSnakeCase(methodName);
    if (!PRIMITIVE_NAME_PATTERN.test(name)) {
      throw new McpConfigurationError(invalidPromptNameMessage(name, where));
    }
    const { dto, plain = false } = recordParameterLayout(target, methodName, where, {
      plainArguments: true,
    });
    const schema = withinMethod(where, () =>
      this.schemaFactory.createInputSchema(dto, { arguments: options.arguments }),
    );
    // A plain object is accepted as it comes (as for resources), but nothing can be listed.
    if (plain) this.logger.warn(untypedPromptArgumentsMessage(name, where));
    warnOfUndecoratedDto(this.logger, dto, schema, { kind: 'prompt', name, where });
    const required = new Set(schema.required ?? []);
    const promptArguments: PromptArgument[] = Object.entries(schema.properties ?? {}).map(
      ([argument, property]) => ({
        name: argument,
        ...(property.description && { description: property.description }),
        required: required.has(argument),
      }),
    );
    const definition: Prompt = withoutUndefined({
      name,
      title: options.title,
      description: options.description ?? readMethodDescription(target, methodName),
      arguments: promptArguments.length > 0 ? promptArguments : undefined,
      icons: options.icons,
      _meta: options._meta,
    });
    return {
      definition,
      where,
      wrapper,
      methodName,
      argumentsSchema: schema,
      checkArguments: stringArgumentsCheck(this.validator, dto, schema, plain),
    };
  }
}

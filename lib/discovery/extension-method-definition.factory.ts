import type { Type } from '@nestjs/common';
import type { McpExtensionMetadata } from '../decorators/mcp-extension.decorator.js';
import type { McpMethodMetadata } from '../decorators/mcp-method.decorator.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import { methodWithoutExtensionMessage } from '../messages/extensions.messages.js';
import type { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';
import type { DtoArgumentsValidator } from '../validation/dto-arguments.validator.js';
import type { DiscoveredExtensionMethod } from './discovered-extension-method.interface.js';
import { assertExtension, assertExtensionMethod } from './extension-method.check.js';
import { recordParameterLayout } from './method-parameters.reader.js';
import { objectArgumentsCheck } from './object-arguments.check.js';
import { withinMethod } from './within-method.util.js';

/**
 * Builds what a server needs to handle an `@McpMethod()`: the JSON-RPC method, its
 * extension (the method's option, else the class's `@McpExtension()`), and the check of
 * its `params` (a DTO parameter, a plain object taken as it comes, or none).
 */
export class ExtensionMethodDefinitionFactory {
  constructor(
    private readonly schemaFactory: DtoSchemaFactory,
    private readonly validator: DtoArgumentsValidator,
  ) {}

  create(
    wrapper: InstanceWrapper,
    target: Type,
    methodName: string,
    options: McpMethodMetadata,
    classExtension: McpExtensionMetadata | undefined,
  ): DiscoveredExtensionMethod {
    const where = `${target.name}.${methodName}`;
    const { method } = options;
    assertExtensionMethod(method, where);
    const extension = options.extension ?? classExtension?.id;
    if (extension === undefined) {
      throw new McpConfigurationError(methodWithoutExtensionMessage(method, where));
    }
    assertExtension(extension, {}, `@McpMethod() of ${where}`);
    const { dto, plain = false } = recordParameterLayout(target, methodName, where, {
      plainArguments: true,
    });
    // A plain object parameter takes any params, as they come.
    const paramsSchema: JsonSchema = plain
      ? { type: 'object' }
      : withinMethod(where, () => this.schemaFactory.createInputSchema(dto));
    return {
      method,
      extension,
      where,
      wrapper,
      methodName,
      paramsSchema,
      checkArguments: objectArgumentsCheck(this.validator, dto, paramsSchema, {
        plain,
        subject: 'this method',
      }),
    };
  }
}

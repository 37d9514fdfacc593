import { UriTemplate } from '@modelcontextprotocol/server';
import { UriTemplateMatcher } from '../utils/uri-template.matcher.js';
import type { Logger, Type } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { DtoArgumentsValidator } from '../validation/dto-arguments.validator.js';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import {
  invalidUriTemplateMessage,
  missingResourceSchemeMessage,
  unknownTemplateVariablesMessage,
} from '../messages/discovery.messages.js';
import type { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';
import { toSnakeCase } from '../utils/to-snake-case.util.js';
import { withoutUndefined } from '../utils/without-undefined.util.js';
import type { ArgumentsCheck } from './discovered-method.interface.js';
import type { DiscoveredResource } from './discovered-resource.interface.js';
import { readMethodDescription } from './docblock-metadata.reader.js';
import { stringArgumentsCheck } from './string-arguments.check.js';
import { recordParameterLayout } from './method-parameters.reader.js';
import { warnOfUndecoratedDto } from './undecorated-dto.warning.js';
import { withinMethod } from './within-method.util.js';

/** Builds what `resources/list` or `resources/templates/list` publishes for a method. */
export class ResourceDefinitionFactory {
  constructor(
    private readonly schemaFactory: DtoSchemaFactory,
    private readonly validator: DtoArgumentsValidator,
    private readonly logger: Logger,
  ) {}

  create(
    wrapper: InstanceWrapper,
    target: Type,
    methodName: string,
    options: McpResourceOptions,
  ): DiscoveredResource {
    const where = `${target.name}.${methodName}`;
    if (typeof options.uri !== 'string' || !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(options.uri)) {
      throw new McpConfigurationError(missingResourceSchemeMessage(where));
    }
    const { dto, plain = false } = recordParameterLayout(target, methodName, where, {
      plainArguments: true,
    });
    const schema = withinMethod(where, () => this.schemaFactory.createInputSchema(dto));
    warnOfUndecoratedDto(this.logger, dto, schema, { kind: 'resource', name: options.uri, where });
    const checkArguments =
      dto || plain ? stringArgumentsCheck(this.validator, dto, schema, plain) : anyVariables;
    const common = withoutUndefined({
      name: options.name ?? toSnakeCase(methodName),
      title: options.title,
      description: options.description ?? readMethodDescription(target, methodName),
      mimeType: options.mimeType,
      annotations: options.annotations,
      icons: options.icons,
      _meta: options._meta,
    });
    const method = { where, wrapper, methodName, checkArguments, argumentsSchema: schema };
    if (!UriTemplate.isTemplate(options.uri)) {
      return {
        kind: 'static',
        ...method,
        definition: {
          uri: options.uri,
          ...common,
          ...withoutUndefined({ size: options.size }),
        },
      };
    }
    const template = withinMethod(where, () => parseTemplate(options.uri));
    const declared = Object.keys(schema.properties ?? {});
    const missing = declared.filter((name) => !template.variableNames.includes(name));
    if (dto && missing.length > 0) {
      throw new McpConfigurationError(
        unknownTemplateVariablesMessage(
          where,
          dto.name,
          missing,
          options.uri,
          template.variableNames,
        ),
      );
    }
    return {
      kind: 'template',
      ...method,
      template,
      definition: { uriTemplate: options.uri, ...common },
    };
  }
}

function parseTemplate(uri: string): UriTemplateMatcher {
  try {
    return new UriTemplateMatcher(uri);
  } catch (error) {
    throw new McpConfigurationError(invalidUriTemplateMessage(uri, (error as Error).message));
  }
}

/**
 * The check of a template whose method takes no parameter: its variables come from the URI
 * the client read, not from its choice, so the method serves them all (a prompt that takes
 * none refuses arguments).
 */
const anyVariables: ArgumentsCheck = async () => ({ ok: true, value: undefined });

import type { Tool } from '@modelcontextprotocol/server';
import { Injectable, Logger, type Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { TOOL_NAME_PATTERN } from '../mcp.constants.js';
import {
  duplicateToolNameMessage,
  invalidToolNameMessage,
  missingDescriptionMessage,
} from '../mcp.messages.js';
import { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';
import { toSnakeCase } from '../utils/to-snake-case.util.js';
import type { DiscoveredTool } from './discovered-tool.interface.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { readToolParameters } from './tool-parameters.reader.js';

/**
 * Finds every `@McpTool()` method of the app's providers and controllers, once, at
 * bootstrap, and fails fast on names the spec forbids or that collide.
 */
@Injectable()
export class McpExplorer {
  private readonly logger = new Logger('McpModule');
  // Rules a schema cannot state are still enforced at call time; the log says which.
  private readonly schemaFactory = new DtoSchemaFactory({
    onGap: ({ dtoName, propertyName, detail }) =>
      this.logger.debug(`${dtoName}.${propertyName}: ${detail}`),
  });

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly metadataScanner: MetadataScanner,
    private readonly metadataAccessor: McpMetadataAccessor,
  ) {}

  exploreTools(): DiscoveredTool[] {
    const wrappers = [...this.discovery.getControllers(), ...this.discovery.getProviders()];
    const tools = wrappers.flatMap((wrapper) => this.toolsOf(wrapper));
    this.assertUniqueNames(tools);
    return tools;
  }

  private toolsOf(wrapper: InstanceWrapper): DiscoveredTool[] {
    const instance = wrapper.instance as object | undefined;
    if (wrapper.isAlias || !instance || typeof instance !== 'object') return [];
    const prototype = Object.getPrototypeOf(instance) as object | null;
    if (!prototype) return [];
    const target = instance.constructor as Type;
    return this.metadataScanner.getAllMethodNames(prototype).flatMap((methodName) => {
      const options = this.metadataAccessor.getToolOptions(
        (prototype as Record<string, Function>)[methodName],
      );
      return options ? [this.createTool(wrapper, target, methodName, options)] : [];
    });
  }

  private createTool(
    wrapper: InstanceWrapper,
    target: Type,
    methodName: string,
    options: McpToolOptions,
  ): DiscoveredTool {
    const where = `${target.name}.${methodName}`;
    const name = options.name ?? toSnakeCase(methodName);
    if (!TOOL_NAME_PATTERN.test(name))
      throw new McpConfigurationError(invalidToolNameMessage(name, where));
    const { dto } = readToolParameters(target, methodName, where);
    const apiOperation = this.metadataAccessor.getApiOperation(target.prototype[methodName]);
    const title = options.title ?? apiOperation?.summary;
    const description = options.description ?? apiOperation?.description;
    if (!description) this.logger.warn(missingDescriptionMessage(name, where));
    const definition: Tool = {
      name,
      ...(title && { title }),
      ...(description && { description }),
      inputSchema: this.schemaFactory.createInputSchema(dto) as Tool['inputSchema'],
      ...(options.annotations && { annotations: options.annotations }),
      ...(options.icons && { icons: options.icons }),
      ...(options._meta && { _meta: options._meta }),
    };
    return { definition, where, wrapper, methodName, dto };
  }

  private assertUniqueNames(tools: DiscoveredTool[]): void {
    const byName = new Map<string, string[]>();
    for (const tool of tools)
      byName.set(tool.definition.name, [...(byName.get(tool.definition.name) ?? []), tool.where]);
    for (const [name, where] of byName) {
      if (where.length > 1) throw new McpConfigurationError(duplicateToolNameMessage(name, where));
    }
  }
}

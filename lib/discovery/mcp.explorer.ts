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
import { ToolOutputValidator } from '../execution/tool-output.validator.js';
import { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import { compileJsonSchema } from '../schema/json-schema.check.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';
import { toSnakeCase } from '../utils/to-snake-case.util.js';
import type { DiscoveredTool } from './discovered-tool.interface.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { readToolParameters } from './tool-parameters.reader.js';

/** A method kept off MCP on purpose, with the reason given. */
export interface HiddenTool {
  readonly where: string;
  readonly reason: string;
}

export interface ExploredTools {
  readonly tools: DiscoveredTool[];
  readonly hidden: HiddenTool[];
}

/** Lifecycle hooks are public methods but never tools. */
const LIFECYCLE_HOOKS = new Set([
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'beforeApplicationShutdown',
  'onApplicationShutdown',
]);

const isPublicMethodName = (name: string) => !name.startsWith('_') && !LIFECYCLE_HOOKS.has(name);

function requireReason(reason: unknown, where: string): string {
  if (typeof reason === 'string' && reason.trim() !== '') return reason;
  throw new McpConfigurationError(
    `${where} is hidden from MCP without a reason. Say why, for the next reader: ` +
      `@McpHidden('Charges the card; only checkout may call it.').`,
  );
}

/**
 * Finds every `@McpTool()` method (and every public method of an `@McpTools()` class) of the app's providers and controllers, once, at
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

  explore(): ExploredTools {
    const wrappers = [...this.discovery.getControllers(), ...this.discovery.getProviders()];
    const explored: ExploredTools = { tools: [], hidden: [] };
    for (const wrapper of wrappers) this.exploreWrapper(wrapper, explored);
    this.assertUniqueNames(explored.tools);
    for (const { where, reason } of explored.hidden) {
      this.logger.debug(`Not published as a tool: ${where} (${reason})`);
    }
    return explored;
  }

  private exploreWrapper(wrapper: InstanceWrapper, explored: ExploredTools): void {
    const instance = wrapper.instance as object | undefined;
    if (wrapper.isAlias || !instance || typeof instance !== 'object') return;
    const prototype = Object.getPrototypeOf(instance) as Record<string, Function> | null;
    if (!prototype) return;
    const target = instance.constructor as Type;
    const classOptions = this.metadataAccessor.getClassToolsOptions(target);
    for (const methodName of this.metadataScanner.getAllMethodNames(prototype)) {
      const method = prototype[methodName];
      const methodOptions = this.metadataAccessor.getToolOptions(method);
      const published = methodOptions ?? (classOptions && isPublicMethodName(methodName));
      if (!published) continue;
      const where = `${target.name}.${methodName}`;
      const hidden = this.metadataAccessor.getHiddenReason(method) ?? methodOptions?.hidden;
      if (hidden !== undefined) {
        explored.hidden.push({ where, reason: requireReason(hidden, where) });
        continue;
      }
      const options = { ...classOptions, ...methodOptions };
      if (classOptions?.annotations && methodOptions?.annotations) {
        options.annotations = { ...classOptions.annotations, ...methodOptions.annotations };
      }
      explored.tools.push(this.createTool(wrapper, target, methodName, options));
    }
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
    if (options.arguments && !dto) {
      throw new McpConfigurationError(
        `${where} has the "arguments" option of @McpTool() but takes no arguments DTO.`,
      );
    }
    const { output } = options;
    const inputSchema = this.inWhere(where, () =>
      this.schemaFactory.createInputSchema(dto, { arguments: options.arguments }),
    );
    const outputSchema =
      output && this.inWhere(where, () => this.schemaFactory.createOutputSchema(output));
    const definition: Tool = {
      name,
      ...(title && { title }),
      ...(description && { description }),
      inputSchema: inputSchema as Tool['inputSchema'],
      // Listed at its natural root; the SDK wraps a non-object root for 2025-era clients.
      ...(outputSchema && { outputSchema: outputSchema as Tool['outputSchema'] }),
      ...(options.annotations && { annotations: options.annotations }),
      ...(options.icons && { icons: options.icons }),
      ...(options._meta && { _meta: options._meta }),
    };
    return {
      definition,
      where,
      wrapper,
      methodName,
      dto,
      // Built here, compiled on the tool's first call (compileJsonSchema), then reused.
      ...(dto && { argumentsCheck: compileJsonSchema(inputSchema, 'the arguments') }),
      ...(outputSchema && { outputValidator: new ToolOutputValidator(name, where, outputSchema) }),
    };
  }

  /** Schema mistakes found at bootstrap name the tool they belong to. */
  private inWhere<T>(where: string, build: () => T): T {
    try {
      return build();
    } catch (error) {
      if (error instanceof McpConfigurationError) {
        throw new McpConfigurationError(`${where}: ${error.message}`);
      }
      throw error;
    }
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

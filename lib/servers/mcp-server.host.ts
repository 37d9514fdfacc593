import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import type { McpHiddenMethod } from '../discovery/mcp.explorer.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { ProtocolRuntime } from '../protocol/protocol.runtime.js';
import { CatalogAssembler } from '../registry/catalog.assembler.js';

/**
 * One MCP server of the app: its options, what it publishes (tools, prompts, resources),
 * and the run-time API to change that. What the server publishes is assembled in
 * `onModuleInit`, when every provider exists and before the app listens. Inject it to see
 * or change what the server publishes; with several servers in one app, inject
 * `McpServers` and pick one with `get(name)`.
 * @publicApi
 */
@Injectable()
export class McpServerHost {
  constructor(
    /** The server's options, checked where they are provided (before anything injects them). */
    @Inject(MCP_MODULE_OPTIONS) readonly options: McpModuleOptions,
    private readonly assembler: CatalogAssembler,
    private readonly runtime: ProtocolRuntime,
  ) {}

  /** Every published tool, as `tools/list` shows it to a caller whom no guard rejects. */
  tools(): Tool[] {
    return this.catalog.tools.definitions();
  }

  /** Every published prompt, as `prompts/list` shows it to a caller whom no guard rejects. */
  prompts(): Prompt[] {
    return this.catalog.prompts.definitions();
  }

  /** Every published resource with a fixed URI. */
  resources(): Resource[] {
    return this.catalog.resources.definitions();
  }

  /** Every published resource template. */
  resourceTemplates(): ResourceTemplateType[] {
    return this.catalog.templates.definitions();
  }

  /**
   * Methods kept off MCP with `@McpHidden()` or `{ hidden }` (tools, prompts and
   * resources alike), with the reasons.
   */
  hiddenMethods(): readonly McpHiddenMethod[] {
    return this.assembler.hidden;
  }

  /**
   * Publishes a method of a provider as a tool at run time, exactly as `@McpTool()` would
   * (its DTO, guards, interceptors, pipes and filters apply), and tells connected clients
   * that the list changed.
   * @example host.addTool(this.reports, 'quarterlyReport', { description: 'Q3 figures' });
   */
  addTool(provider: object, methodName: string, options: McpToolOptions = {}): void {
    this.catalog.tools.add(this.assembler.tool(provider, methodName, options));
  }

  /** Withdraws a tool (decorated or added); `false` when there was none by that name. */
  removeTool(name: string): boolean {
    return this.catalog.tools.remove(name);
  }

  /** Publishes a method as a prompt at run time, as `@McpPrompt()` would. */
  addPrompt(provider: object, methodName: string, options: McpPromptOptions = {}): void {
    this.catalog.prompts.add(this.assembler.prompt(provider, methodName, options));
  }

  /** Withdraws a prompt; `false` when there was none by that name. */
  removePrompt(name: string): boolean {
    return this.catalog.prompts.remove(name);
  }

  /** Publishes a method as a resource or template at run time, as `@McpResource()` would. */
  addResource(provider: object, methodName: string, options: McpResourceOptions): void {
    const entry = this.assembler.resource(provider, methodName, options);
    if ('template' in entry) this.catalog.templates.add(entry);
    else this.catalog.resources.add(entry);
  }

  /** Withdraws a resource by its URI, or a template by its URI template. */
  removeResource(uriOrTemplate: string): boolean {
    return (
      this.catalog.resources.remove(uriOrTemplate) || this.catalog.templates.remove(uriOrTemplate)
    );
  }

  /**
   * Tells clients that subscribed to a resource that its contents changed
   * (`notifications/resources/updated`, on 2025 sessions, stdio connections and 2026-07-28
   * listen streams), on every instance with `scaleOut`.
   */
  resourceUpdated(uri: string): void {
    this.runtime.resourceUpdated(uri);
  }

  private get catalog() {
    return this.assembler.catalog;
  }
}

import { Injectable } from '@nestjs/common';
import { ContextIdFactory, ModuleRef } from '@nestjs/core';
import type { DiscoveredCompleter } from '../discovery/discovered-completer.interface.js';
import type { DiscoveredExtensionMethod } from '../discovery/discovered-extension-method.interface.js';
import type { DiscoveredMethod } from '../discovery/discovered-method.interface.js';
import type { DiscoveredPrompt } from '../discovery/discovered-prompt.interface.js';
import type { DiscoveredResource } from '../discovery/discovered-resource.interface.js';
import type { DiscoveredTool } from '../discovery/discovered-tool.interface.js';
import { JsonRpcInvokerFactory } from '../execution/json-rpc-invoker.factory.js';
import { ToolInvokerFactory } from '../execution/tool-invoker.factory.js';
import { VisibilityFactory } from '../execution/visibility.factory.js';
import type { McpSchemaOptions } from '../interfaces/mcp-module-options.interface.js';
import type { RegisteredPrimitive } from './primitive.registry.js';
import { scopeRequirementOf } from './scope-requirement.reader.js';
import type {
  Completer,
  RegisteredExtensionMethod,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
} from './registered-primitives.js';

/**
 * Turns what discovery found (or what the app adds at run time) into what a server
 * publishes: the definition, the visibility check from its guards, and its invoker bound
 * to the Nest pipeline. Decorated and runtime entries go through this one place.
 */
@Injectable()
export class PrimitiveBinder {
  constructor(
    private readonly tools: ToolInvokerFactory,
    private readonly primitives: JsonRpcInvokerFactory,
    private readonly visibility: VisibilityFactory,
    private readonly moduleRef: ModuleRef,
  ) {}

  /**
   * A `@McpCompletion()` method as a completer. It is called directly, not through the
   * pipeline: completion is refused earlier to callers whose guards hide its target.
   */
  completer({ wrapper, methodName }: DiscoveredCompleter): Completer {
    const call = (instance: object, ...args: Parameters<Completer>) =>
      (instance as Record<string, Completer>)[methodName](...args);
    if (wrapper.isDependencyTreeStatic()) {
      return (value, context) => call(wrapper.instance as object, value, context);
    }
    return async (value, context) => {
      const instance = await this.moduleRef.resolve(wrapper.token, ContextIdFactory.create(), {
        strict: false,
      });
      return call(instance as object, value, context);
    };
  }

  /**
   * @param schema The options of the server that publishes the tool: the scan is shared,
   * the form of the argument schema (and so of its check) is each server's own.
   * @param queued Whether the server runs its tasks on a queue (`tasks.queue`): a task tool
   * is then also split into its check in the request and its run on a worker.
   */
  tool(tool: DiscoveredTool, schema: McpSchemaOptions = {}, queued = false): RegisteredTool {
    const variant = schema.nullableOptionals ? tool.withNullableOptionals?.() : undefined;
    const bound = variant ? { ...tool, ...variant } : tool;
    const { limits } = this.tools.limitsOf(bound);
    return {
      ...this.published(bound, bound.definition.name),
      ...(tool.aliases && { aliases: tool.aliases }),
      ...(tool.task && { task: tool.task }),
      ...(tool.app && { app: tool.app }),
      ...(limits && { limits }),
      ...(tool.task && queued && { queued: this.tools.createQueued(bound) }),
      invoke: this.tools.create(bound),
    };
  }

  prompt(prompt: DiscoveredPrompt): RegisteredPrompt {
    return {
      ...this.published(prompt, prompt.definition.name),
      get: this.primitives.createPrompt(prompt),
      argumentsSchema: prompt.argumentsSchema,
      completers: new Map(),
    };
  }

  resource(resource: DiscoveredResource): RegisteredResource | RegisteredTemplate {
    if (resource.kind === 'static') {
      return {
        ...this.published(resource, resource.definition.uri),
        read: this.primitives.createResource(resource),
      };
    }
    return {
      ...this.published(resource, resource.definition.uriTemplate),
      read: this.primitives.createResource(resource),
      template: resource.template,
      argumentsSchema: resource.argumentsSchema,
      completers: new Map(),
    };
  }

  /** An `@McpMethod()`, bound to the pipeline; it is never listed, so has no visibility. */
  method(method: DiscoveredExtensionMethod): RegisteredExtensionMethod {
    const scopes = scopeRequirementOf(method);
    return {
      key: method.method,
      extension: method.extension,
      invoke: this.primitives.createMethod(method),
      ...(scopes && { scopes }),
    };
  }

  /** What every published entry has: its key, its definition, who may see it, its scopes. */
  private published<Definition>(
    method: DiscoveredMethod & { readonly definition: Definition },
    key: string,
  ): RegisteredPrimitive<Definition> {
    const scopes = scopeRequirementOf(method);
    return {
      key,
      definition: method.definition,
      isVisible: this.visibility.create(method),
      ...(scopes && { scopes }),
    };
  }
}

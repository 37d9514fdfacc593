import { Injectable } from '@nestjs/common';
import { ContextIdFactory, ModuleRef } from '@nestjs/core';
import type { DiscoveredCompleter } from '../discovery/discovered-completer.interface.js';
import type { DiscoveredPrompt } from '../discovery/discovered-prompt.interface.js';
import type { DiscoveredResource } from '../discovery/discovered-resource.interface.js';
import type { DiscoveredTool } from '../discovery/discovered-tool.interface.js';
import { PrimitiveInvokerFactory } from '../execution/primitive-invoker.factory.js';
import { ToolInvokerFactory } from '../execution/tool-invoker.factory.js';
import { VisibilityFactory } from '../execution/visibility.factory.js';
import type {
  Completer,
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
    private readonly primitives: PrimitiveInvokerFactory,
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

  tool(tool: DiscoveredTool): RegisteredTool {
    return {
      key: tool.definition.name,
      definition: tool.definition,
      isVisible: this.visibility.create(tool),
      invoke: this.tools.create(tool),
    };
  }

  prompt(prompt: DiscoveredPrompt): RegisteredPrompt {
    return {
      key: prompt.definition.name,
      definition: prompt.definition,
      isVisible: this.visibility.create(prompt),
      get: this.primitives.createPrompt(prompt),
      argumentsSchema: prompt.argumentsSchema,
      completers: new Map(),
    };
  }

  resource(resource: DiscoveredResource): RegisteredResource | RegisteredTemplate {
    const common = {
      isVisible: this.visibility.create(resource),
      read: this.primitives.createResource(resource),
    };
    if (resource.kind === 'static') {
      return { key: resource.definition.uri, definition: resource.definition, ...common };
    }
    return {
      key: resource.definition.uriTemplate,
      definition: resource.definition,
      template: resource.template,
      argumentsSchema: resource.argumentsSchema,
      completers: new Map(),
      ...common,
    };
  }
}

import { Injectable, Logger, type Type } from '@nestjs/common';
import {
  ApplicationConfig,
  DiscoveryModule,
  DiscoveryService,
  MetadataScanner,
  ModuleRef,
} from '@nestjs/core';
import type { McpExtensionMetadata } from '../decorators/mcp-extension.decorator.js';
import type { McpGroupMetadata } from '../decorators/mcp-group.decorator.js';
import type { McpToolsOptions } from '../decorators/mcp-tools.decorator.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { DtoArgumentsValidator } from '../validation/dto-arguments.validator.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { McpResourceOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import {
  hiddenWithoutReasonMessage,
  noSuchMethodMessage,
  severalDecoratorsMessage,
} from '../messages/discovery.messages.js';
import { duplicateNameMessage, duplicateToolNameMessage } from '../messages/names.messages.js';
import { DtoSchemaFactory } from '../schema/dto-schema.factory.js';
import type { InstanceWrapper } from '../utils/nest-internals.js';
import type { DiscoveredCompleter } from './discovered-completer.interface.js';
import type {
  DiscoveredExtension,
  DiscoveredExtensionMethod,
} from './discovered-extension-method.interface.js';
import type { DiscoveredPrompt } from './discovered-prompt.interface.js';
import type { DiscoveredResource } from './discovered-resource.interface.js';
import type { DiscoveredTool } from './discovered-tool.interface.js';
import { discoverAppView, type DiscoveredAppView } from './app-view.discovery.js';
import { assertExtension } from './extension-method.check.js';
import { ExtensionMethodDefinitionFactory } from './extension-method-definition.factory.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { resolveMembership, type ServerMembership } from './server-membership.js';
import { isController, readRoute } from './route-metadata.reader.js';
import { PromptDefinitionFactory } from './prompt-definition.factory.js';
import { ResourceDefinitionFactory } from './resource-definition.factory.js';
import { ToolDefinitionFactory } from './tool-definition.factory.js';

/** A method kept off MCP on purpose, with the reason given. */
export interface McpHiddenMethod {
  readonly where: string;
  readonly reason: string;
}

/** A hidden method, with the servers it would be published on. */
export interface ExploredHiddenMethod extends McpHiddenMethod {
  readonly membership: ServerMembership;
}

/**
 * Everything the app's providers and controllers publish, on every server, found once at
 * bootstrap; each server keeps the entries of its group (`isPublishedOn`).
 */
export interface ExploredPrimitives {
  readonly tools: DiscoveredTool[];
  readonly prompts: DiscoveredPrompt[];
  readonly resources: DiscoveredResource[];
  readonly completers: DiscoveredCompleter[];
  /** `@McpMethod()`: the JSON-RPC methods the app's extensions add. */
  readonly methods: DiscoveredExtensionMethod[];
  /** `@McpExtension()`: the extensions the app's classes declare. */
  readonly extensions: DiscoveredExtension[];
  /** `@McpAppView()`: views whose HTML a method makes (MCP Apps). */
  readonly views: DiscoveredAppView[];
  readonly hidden: ExploredHiddenMethod[];
  /** The app's own classes that were scanned, by name, for a server that publishes nothing. */
  readonly scanned: ScannedClasses;
}

/** The class names of the app's providers and controllers (Nest's and this library's left out). */
export interface ScannedClasses {
  readonly providers: string[];
  readonly controllers: string[];
}

/**
 * Modules whose providers are Nest's or this library's, not the app's: left out of
 * {@link ScannedClasses}. By name, as discovery cannot import the library's module classes
 * (they import it); a miss only changes a count in a warning.
 */
const FRAMEWORK_MODULE_NAMES = new Set([
  'InternalCoreModule',
  DiscoveryModule.name,
  'McpModule',
  'McpCoreModule',
  'McpDiscoveryModule',
]);

/** Whether a wrapper is one of the app's own providers or controllers. */
function isAppClass(wrapper: InstanceWrapper): boolean {
  const module = wrapper.host?.metatype;
  if (!module || FRAMEWORK_MODULE_NAMES.has(module.name)) return false;
  // Every module also holds its own class, a ModuleRef and an ApplicationConfig.
  if (wrapper.metatype === module) return false;
  return !(wrapper.instance instanceof ModuleRef || wrapper.instance instanceof ApplicationConfig);
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
  throw new McpConfigurationError(hiddenWithoutReasonMessage(where));
}

/**
 * Finds every `@McpTool()`, `@McpPrompt()`, `@McpResource()` and `@McpCompletion()` method
 * (and every public method of an `@McpTools()` class) of the app's providers and
 * controllers, once per app, at bootstrap, and fails fast on names the spec forbids. One
 * instance serves every `McpModule` registration (it lives in the global `McpCoreModule`),
 * so that several servers share one scan: each server filters it by group and checks its
 * own names for collisions ({@link assertUnique}).
 */
@Injectable()
export class McpExplorer {
  private readonly logger = new Logger(McpExplorer.name);
  private readonly tools: ToolDefinitionFactory;
  private readonly prompts: PromptDefinitionFactory;
  private readonly resources: ResourceDefinitionFactory;
  private readonly methods: ExtensionMethodDefinitionFactory;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly metadataScanner: MetadataScanner,
    private readonly metadataAccessor: McpMetadataAccessor,
  ) {
    // Rules a schema cannot state are still enforced at call time; the log says which.
    const schemaFactory = new DtoSchemaFactory({
      onGap: ({ dtoName, propertyName, detail }) =>
        this.logger.debug(`${dtoName}.${propertyName}: ${detail}`),
    });
    const validator = new DtoArgumentsValidator();
    this.tools = new ToolDefinitionFactory(schemaFactory, validator, metadataAccessor, this.logger);
    this.prompts = new PromptDefinitionFactory(schemaFactory, validator, this.logger);
    this.resources = new ResourceDefinitionFactory(schemaFactory, validator, this.logger);
    this.methods = new ExtensionMethodDefinitionFactory(schemaFactory, validator);
  }

  private explored?: ExploredPrimitives;

  /** The app's entries, scanned on the first call (every provider exists by then). */
  explore(): ExploredPrimitives {
    this.explored ??= this.scan();
    return this.explored;
  }

  private scan(): ExploredPrimitives {
    const controllers = this.discovery.getControllers();
    const providers = this.discovery.getProviders();
    const explored: ExploredPrimitives = {
      tools: [],
      prompts: [],
      resources: [],
      completers: [],
      methods: [],
      extensions: [],
      views: [],
      hidden: [],
      scanned: { providers: appClassNames(providers), controllers: appClassNames(controllers) },
    };
    for (const wrapper of [...controllers, ...providers]) this.exploreWrapper(wrapper, explored);
    for (const { where, reason } of explored.hidden) {
      this.logger.debug(`Not published on MCP: ${where} (${reason})`);
    }
    return explored;
  }

  /**
   * Describes one method of a provider added at run time, as bootstrap would have: the
   * provider's own wrapper when it is one of the app's (its module's enhancers, its scope).
   */
  describe<Kind extends 'tool' | 'prompt' | 'resource'>(
    kind: Kind,
    provider: object,
    methodName: string,
    options: Kind extends 'resource' ? McpResourceOptions : McpToolOptions & McpPromptOptions,
  ): { tool: DiscoveredTool; prompt: DiscoveredPrompt; resource: DiscoveredResource }[Kind] {
    const target = provider.constructor as Type;
    if (typeof (provider as Record<string, unknown>)[methodName] !== 'function') {
      throw new McpConfigurationError(noSuchMethodMessage(target.name, methodName));
    }
    const wrapper = this.wrapperOf(provider);
    const factories = {
      tool: () => this.tools.create(wrapper, target, methodName, options as McpToolOptions),
      prompt: () => this.prompts.create(wrapper, target, methodName, options as McpPromptOptions),
      resource: () =>
        this.resources.create(wrapper, target, methodName, options as McpResourceOptions),
    };
    return factories[kind]() as never;
  }

  private wrapperOf(provider: object): InstanceWrapper {
    const known = [...this.discovery.getProviders(), ...this.discovery.getControllers()].find(
      (wrapper) => wrapper.instance === provider,
    );
    if (known) return known;
    // An object the app made itself: global enhancers only, and one instance.
    return {
      instance: provider,
      token: provider.constructor,
      id: undefined,
      isDependencyTreeStatic: () => true,
    } as unknown as InstanceWrapper;
  }

  private exploreWrapper(wrapper: InstanceWrapper, explored: ExploredPrimitives): void {
    const instance = wrapper.instance as object | undefined;
    if (wrapper.isAlias || !instance || typeof instance !== 'object') return;
    const prototype = Object.getPrototypeOf(instance) as Record<string, Function> | null;
    if (!prototype) return;
    const target = instance.constructor as Type;
    const scanned: ScannedClass = {
      wrapper,
      target,
      classOptions: this.metadataAccessor.getClassToolsOptions(target),
      classGroup: this.metadataAccessor.getClassGroup(target),
      classExtension: this.metadataAccessor.getClassExtension(target),
      controller: isController(target),
    };
    if (scanned.classExtension) explored.extensions.push(declaredExtension(scanned));
    for (const methodName of this.metadataScanner.getAllMethodNames(prototype)) {
      this.exploreMethod(scanned, methodName, prototype[methodName], explored);
    }
  }

  /** Adds what one method publishes, or that it is hidden, to `explored`. */
  private exploreMethod(
    { wrapper, target, classOptions, classGroup, classExtension, controller }: ScannedClass,
    methodName: string,
    method: Function,
    explored: ExploredPrimitives,
  ): void {
    const where = `${target.name}.${methodName}`;
    const decorations = this.decorationsOf(method, where);
    const { toolOptions, promptOptions, resourceOptions, completion, methodOptions, appView } =
      decorations;
    // On a controller, `@McpTools()` publishes its routes; its other methods are helpers.
    const asTool =
      toolOptions ??
      (!decorations.decorated &&
      classOptions &&
      isPublicMethodName(methodName) &&
      (!controller || readRoute(target, methodName))
        ? {}
        : undefined);
    const hidden =
      this.metadataAccessor.getHiddenReason(method) ??
      toolOptions?.hidden ??
      promptOptions?.hidden ??
      resourceOptions?.hidden;
    const published =
      asTool ?? promptOptions ?? resourceOptions ?? methodOptions ?? (appView && {});
    const membership = published && resolveMembership(classGroup, published, where);
    if (hidden !== undefined && membership) {
      explored.hidden.push({ where, reason: requireReason(hidden, where), membership });
      return;
    }
    if (asTool) {
      const options = mergeToolOptions(classOptions, asTool);
      const tool = this.tools.create(wrapper, target, methodName, options);
      explored.tools.push({ ...tool, membership });
    } else if (promptOptions) {
      const prompt = this.prompts.create(wrapper, target, methodName, promptOptions);
      explored.prompts.push({ ...prompt, membership });
    } else if (resourceOptions) {
      const resource = this.resources.create(wrapper, target, methodName, resourceOptions);
      explored.resources.push({ ...resource, membership });
    } else if (methodOptions) {
      const created = this.methods.create(
        wrapper,
        target,
        methodName,
        methodOptions,
        classExtension,
      );
      explored.methods.push({ ...created, membership });
    } else if (appView) {
      const view = discoverAppView(this.resources, wrapper, target, methodName, appView);
      explored.views.push({ ...view, membership });
    } else if (completion) {
      explored.completers.push({ target: completion, where, wrapper, methodName });
    }
  }

  /** The method's own MCP decorators, of which it may have one at most. */
  private decorationsOf(method: Function, where: string) {
    const accessor = this.metadataAccessor;
    const decorations = {
      toolOptions: accessor.getToolOptions(method),
      promptOptions: accessor.getPromptOptions(method),
      resourceOptions: accessor.getResourceOptions(method),
      completion: accessor.getCompletionTarget(method),
      methodOptions: accessor.getMethodOptions(method),
      appView: accessor.getAppView(method),
    };
    const count = Object.values(decorations).filter(Boolean).length;
    if (count > 1) throw new McpConfigurationError(severalDecoratorsMessage(where));
    return { ...decorations, decorated: count > 0 };
  }
}

/** What the class of a scanned instance says for every method of it. */
interface ScannedClass {
  readonly wrapper: InstanceWrapper;
  readonly target: Type;
  /** `@McpTools()`: its public methods (a controller's routes) are tools. */
  readonly classOptions: McpToolsOptions | undefined;
  readonly classGroup: McpGroupMetadata | undefined;
  /** `@McpExtension()`: the extension its `@McpMethod()` methods belong to. */
  readonly classExtension: McpExtensionMetadata | undefined;
  readonly controller: boolean;
}

/** The extension a class declares, advertised on the servers of its `@McpGroup()`. */
function declaredExtension({ target, classGroup, classExtension }: ScannedClass) {
  const where = `@McpExtension() of ${target.name}`;
  const { id, settings } = classExtension!;
  assertExtension(id, settings, where);
  return { id, settings, where, membership: resolveMembership(classGroup, undefined, target.name) };
}

/** The class of a provider's instance; a `useValue` object is named by its token. */
function classNameOf(wrapper: InstanceWrapper): string {
  const className = (wrapper.instance as object).constructor.name;
  return className === 'Object' ? String(wrapper.name) : className;
}

/** The names of the app's classes among the wrappers the scan looks at, each once. */
function appClassNames(wrappers: readonly InstanceWrapper[]): string[] {
  const scanned = wrappers.filter(
    (wrapper) =>
      !wrapper.isAlias &&
      typeof wrapper.instance === 'object' &&
      wrapper.instance !== null &&
      isAppClass(wrapper),
  );
  return [...new Set(scanned.map(classNameOf))];
}

/** Class-level `@McpTools()` options under the method's own (annotations merged). */
function mergeToolOptions(
  classOptions: McpToolOptions | undefined,
  methodOptions: McpToolOptions,
): McpToolOptions {
  const options = { ...classOptions, ...methodOptions };
  if (classOptions?.annotations && methodOptions.annotations) {
    options.annotations = { ...classOptions.annotations, ...methodOptions.annotations };
  }
  return options;
}

/** Fails bootstrap when two entries of one server share a name (or a URI). */
export function assertUnique<T extends { where: string }>(
  what: string,
  entries: readonly T[],
  keyOf: (entry: T) => string,
): void {
  const byKey = new Map<string, string[]>();
  for (const entry of entries) {
    const key = keyOf(entry);
    byKey.set(key, [...(byKey.get(key) ?? []), entry.where]);
  }
  for (const [key, where] of byKey) {
    if (where.length <= 1) continue;
    throw new McpConfigurationError(
      what === 'tool name'
        ? duplicateToolNameMessage(key, where)
        : duplicateNameMessage(what, key, where),
    );
  }
}

import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import type { DiscoveredCompleter } from '../discovery/discovered-completer.interface.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpCompletionTarget } from '../interfaces/mcp-completion.interface.js';
import type { McpExtensionSettings } from '../interfaces/mcp-extension-options.interface.js';
import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import {
  unknownCompletionArgumentMessage,
  unpublishedCompletionTargetMessage,
} from '../messages/catalog.messages.js';
import { PrimitiveRegistry } from './primitive.registry.js';
import type {
  Completer,
  RegisteredExtensionMethod,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
} from './registered-primitives.js';

/**
 * The longest URI a catalog looks up when the `maxUriLength` option is not given: longer
 * than the resource URIs apps publish (paths, ids, a query), far shorter than the 1,000,000
 * characters the SDK accepts, so a request cannot ask for unbounded work.
 */
export const DEFAULT_MAX_URI_LENGTH = 4096;

/** The lists of a catalog a change is about (templates are listed with resources). */
export type CatalogList = 'tools' | 'prompts' | 'resources';

/** What `@McpScopes()` requires of the entry a request names, and the entry for messages. */
export interface NamedScopeRequirement {
  readonly requirement: McpScopeRequirement;
  /** `tool 'name'`, `prompt 'name'`, `resource <uri>` or `method 'name'`. */
  readonly what: string;
}

/**
 * Everything one server publishes: its tools, prompts, resources and resource templates,
 * and the extensions it declares with the methods they add. Listeners hear of each change
 * of a list, once per change.
 */
export class McpCatalog {
  readonly tools: PrimitiveRegistry<Tool, RegisteredTool>;
  readonly prompts: PrimitiveRegistry<Prompt, RegisteredPrompt>;
  readonly resources: PrimitiveRegistry<Resource, RegisteredResource>;
  readonly templates: PrimitiveRegistry<ResourceTemplateType, RegisteredTemplate>;
  /** The JSON-RPC methods of the app's extensions (`@McpMethod()`), by method name. */
  readonly methods: ReadonlyMap<string, RegisteredExtensionMethod>;
  /** The extensions the app declares on this server, with their settings (SEP-2133). */
  readonly extensions: ReadonlyMap<string, McpExtensionSettings>;
  /** The longest URI `findResource` looks up (the `maxUriLength` option). */
  readonly maxUriLength: number;

  constructor(
    entries: {
      tools: RegisteredTool[];
      prompts: RegisteredPrompt[];
      resources: RegisteredResource[];
      templates: RegisteredTemplate[];
      methods?: RegisteredExtensionMethod[];
      extensions?: ReadonlyMap<string, McpExtensionSettings>;
    },
    limits: { readonly maxUriLength?: number } = {},
  ) {
    this.maxUriLength = limits.maxUriLength ?? DEFAULT_MAX_URI_LENGTH;
    this.tools = new PrimitiveRegistry(entries.tools);
    this.prompts = new PrimitiveRegistry(entries.prompts);
    this.resources = new PrimitiveRegistry(entries.resources);
    this.templates = new PrimitiveRegistry(entries.templates);
    this.methods = new Map((entries.methods ?? []).map((method) => [method.key, method]));
    this.extensions = entries.extensions ?? new Map();
  }

  /** Tells `listener` which list changed, after each change; returns the unsubscribe. */
  onChange(listener: (list: CatalogList) => void): () => void {
    const stops = [
      this.tools.onChange(() => listener('tools')),
      this.prompts.onChange(() => listener('prompts')),
      this.resources.onChange(() => listener('resources')),
      this.templates.onChange(() => listener('resources')),
    ];
    return () => stops.forEach((stop) => stop());
  }

  /** The prompt or template a completer completes, if this server publishes it. */
  completable(target: McpCompletionTarget): RegisteredPrompt | RegisteredTemplate | undefined {
    return 'prompt' in target
      ? this.prompts.get(target.prompt)
      : this.templates.get(target.resource);
  }

  /**
   * Makes `completer` the completer of its target's argument.
   * @throws McpConfigurationError naming what exists when the target or argument does not
   */
  attachCompleter({ target, where }: DiscoveredCompleter, completer: Completer): void {
    const entry = this.completable(target);
    if (!entry) {
      const known = ('prompt' in target ? this.prompts : this.templates)
        .entries()
        .map((published) => published.key);
      throw new McpConfigurationError(unpublishedCompletionTargetMessage(where, target, known));
    }
    const argumentNames = new Set([
      ...Object.keys(entry.argumentsSchema.properties ?? {}),
      ...('template' in entry ? entry.template.variableNames : []),
    ]);
    if (!argumentNames.has(target.argument)) {
      throw new McpConfigurationError(
        unknownCompletionArgumentMessage(where, target, [...argumentNames]),
      );
    }
    entry.completers.set(target.argument, completer);
  }

  /**
   * The resource a URI names: a static one, else the first template that matches. A URI
   * longer than `maxUriLength` names none, and no template is tried against it (each match
   * takes time linear in the URI's length, times the number of templates).
   */
  findResource(
    uri: string,
  ):
    | { resource: RegisteredResource | RegisteredTemplate; variables: Record<string, unknown> }
    | undefined {
    if (uri.length > this.maxUriLength) return undefined;
    const resource = this.resources.get(uri);
    if (resource) return { resource, variables: {} };
    for (const template of this.templates.entries()) {
      const variables = template.template.match(uri);
      if (variables) return { resource: template, variables };
    }
    return undefined;
  }

  /**
   * What `@McpScopes()` requires of the entry a request names (`tools/call`, `prompts/get`,
   * `resources/read`), for the OAuth step-up challenge; an alias needs what its tool needs.
   */
  scopeRequirementOf(request: {
    method: string;
    params?: Record<string, unknown>;
  }): NamedScopeRequirement | undefined {
    const { method, params } = request;
    const name = params?.name;
    const uri = params?.uri;
    let requirement: McpScopeRequirement | undefined;
    let what: string;
    if (method === 'tools/call' && typeof name === 'string') {
      requirement = this.tools.get(name)?.scopes;
      what = `tool '${name}'`;
    } else if (method === 'prompts/get' && typeof name === 'string') {
      requirement = this.prompts.get(name)?.scopes;
      what = `prompt '${name}'`;
    } else if (method === 'resources/read' && typeof uri === 'string') {
      requirement = this.findResource(uri)?.resource.scopes;
      what = `resource ${uri}`;
    } else {
      requirement = this.methods.get(method)?.scopes;
      what = `method '${method}'`;
    }
    return requirement && { requirement, what };
  }

  /** Every scope `@McpScopes()` names in this catalog, sorted. */
  namedScopes(): string[] {
    const scopes = new Set<string>();
    const entries = [this.tools, this.prompts, this.resources, this.templates].flatMap(
      (registry): readonly { readonly scopes?: McpScopeRequirement }[] => registry.entries(),
    );
    for (const { scopes: requirement } of [...entries, ...this.methods.values()]) {
      if (!requirement) continue;
      for (const scope of 'any' in requirement ? requirement.any : requirement.all) {
        scopes.add(scope);
      }
    }
    return [...scopes].toSorted();
  }
}

import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import type { DiscoveredCompleter } from '../discovery/discovered-completer.interface.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpCompletionTarget } from '../interfaces/mcp-completion.interface.js';
import type { McpNotifier } from './mcp-notifier.js';
import { PrimitiveRegistry } from './primitive.registry.js';
import { viaToolAlias } from './tool-alias.invoker.js';
import type {
  Completer,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
} from './registered-primitives.js';

/**
 * Everything one server publishes: its tools, prompts, resources and resource templates.
 * A change to a list is published on the notifier, once per change.
 */
export class McpCatalog {
  readonly tools: PrimitiveRegistry<Tool, RegisteredTool>;
  readonly prompts: PrimitiveRegistry<Prompt, RegisteredPrompt>;
  readonly resources: PrimitiveRegistry<Resource, RegisteredResource>;
  readonly templates: PrimitiveRegistry<ResourceTemplateType, RegisteredTemplate>;

  constructor(
    entries: {
      tools: RegisteredTool[];
      prompts: RegisteredPrompt[];
      resources: RegisteredResource[];
      templates: RegisteredTemplate[];
    },
    notifier: McpNotifier,
  ) {
    this.tools = new PrimitiveRegistry(entries.tools, viaToolAlias(new Logger('McpModule')));
    this.prompts = new PrimitiveRegistry(entries.prompts);
    this.resources = new PrimitiveRegistry(entries.resources);
    this.templates = new PrimitiveRegistry(entries.templates);
    this.tools.onChange(() => notifier.publish({ kind: 'tools' }));
    this.prompts.onChange(() => notifier.publish({ kind: 'prompts' }));
    this.resources.onChange(() => notifier.publish({ kind: 'resources' }));
    this.templates.onChange(() => notifier.publish({ kind: 'resources' }));
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
    const named =
      'prompt' in target ? `prompt "${target.prompt}"` : `resource template "${target.resource}"`;
    if (!entry) {
      const known = ('prompt' in target ? this.prompts : this.templates)
        .entries()
        .map((published) => published.key);
      throw new McpConfigurationError(
        `${where} completes the ${named}, which this server does not publish ` +
          `(it publishes: ${known.join(', ') || 'none'}).`,
      );
    }
    const argumentNames = new Set([
      ...Object.keys(entry.argumentsSchema.properties ?? {}),
      ...('template' in entry ? entry.template.variableNames : []),
    ]);
    if (!argumentNames.has(target.argument)) {
      throw new McpConfigurationError(
        `${where} completes "${target.argument}" of the ${named}, which has no such argument ` +
          `(its arguments: ${[...argumentNames].join(', ') || 'none'}).`,
      );
    }
    entry.completers.set(target.argument, completer);
  }

  /** The resource a URI names: a static one, else the first template that matches. */
  findResource(
    uri: string,
  ):
    | { resource: RegisteredResource | RegisteredTemplate; variables: Record<string, unknown> }
    | undefined {
    const resource = this.resources.get(uri);
    if (resource) return { resource, variables: {} };
    for (const template of this.templates.entries()) {
      const variables = template.template.match(uri);
      if (variables) return { resource: template, variables };
    }
    return undefined;
  }
}

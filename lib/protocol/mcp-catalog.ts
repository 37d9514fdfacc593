import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import type { McpNotifier } from './mcp-notifier.js';
import { PrimitiveRegistry } from './primitive.registry.js';
import type {
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
    this.tools = new PrimitiveRegistry(entries.tools);
    this.prompts = new PrimitiveRegistry(entries.prompts);
    this.resources = new PrimitiveRegistry(entries.resources);
    this.templates = new PrimitiveRegistry(entries.templates);
    this.tools.onChange(() => notifier.publish({ kind: 'tools' }));
    this.prompts.onChange(() => notifier.publish({ kind: 'prompts' }));
    this.resources.onChange(() => notifier.publish({ kind: 'resources' }));
    this.templates.onChange(() => notifier.publish({ kind: 'resources' }));
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

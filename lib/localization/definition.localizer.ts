import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import type { TranslationChain } from './translation.chain.js';

/**
 * A definition in one locale, as list answers carry it, made once per definition and
 * locale (the lists of the registry are then lookups, see `DefinitionView`).
 */
export interface DefinitionView<Definition> {
  readonly locale: string;
  localize(definition: Definition): Definition;
}

type Localize<D> = (definition: D, chain: TranslationChain, locale: string) => D;

/** Title and description of a name, by the chain; the code's, and for a title the name, after. */
function texts(
  chain: TranslationChain,
  locale: string,
  name: string,
  code: { title?: string | undefined; description?: string | undefined },
) {
  const description = chain.field(locale, name, 'description') ?? code.description;
  return {
    title: chain.field(locale, name, 'title') ?? code.title ?? name,
    ...(description !== undefined && { description }),
  };
}

export const localizeTool: Localize<Tool> = (tool, chain, locale) => {
  const localized: Tool = { ...tool, ...texts(chain, locale, tool.name, tool) };
  if (tool.annotations?.title !== undefined) {
    localized.annotations = { ...tool.annotations, title: localized.title };
  }
  const properties = tool.inputSchema.properties as
    Record<string, Record<string, unknown>> | undefined;
  if (!properties) return localized;
  let translated: Record<string, Record<string, unknown>> | undefined;
  for (const [argument, schema] of Object.entries(properties)) {
    const description = chain.argument(locale, tool.name, argument);
    if (description === undefined || typeof schema !== 'object' || schema === null) continue;
    translated ??= { ...properties };
    translated[argument] = { ...schema, description };
  }
  // An input schema without translated arguments stays the same object.
  if (translated) {
    localized.inputSchema = {
      ...tool.inputSchema,
      properties: translated as Tool['inputSchema']['properties'],
    };
  }
  return localized;
};

export const localizePrompt: Localize<Prompt> = (prompt, chain, locale) => {
  const localized: Prompt = { ...prompt, ...texts(chain, locale, prompt.name, prompt) };
  if (prompt.arguments) {
    localized.arguments = prompt.arguments.map((argument) => {
      const description = chain.argument(locale, prompt.name, argument.name);
      return description === undefined ? argument : { ...argument, description };
    });
  }
  return localized;
};

export const localizeResource: Localize<Resource> = (resource, chain, locale) => ({
  ...resource,
  ...texts(chain, locale, resource.uri, {
    title: resource.title ?? resource.name,
    description: resource.description,
  }),
});

export const localizeTemplate: Localize<ResourceTemplateType> = (template, chain, locale) => ({
  ...template,
  ...texts(chain, locale, template.uriTemplate, {
    title: template.title ?? template.name,
    description: template.description,
  }),
});

/**
 * The view of one kind of definition in one locale. Each definition is localized on first
 * use and kept while the definition lives (a tool removed at run time takes its
 * translations with it; one added gets them on its first list).
 */
export function definitionView<D extends object>(
  localize: Localize<D>,
  chain: TranslationChain,
  locale: string,
): DefinitionView<D> {
  const made = new WeakMap<D, D>();
  return {
    locale,
    localize(definition) {
      let localized = made.get(definition);
      if (!localized) {
        localized = localize(definition, chain, locale);
        made.set(definition, localized);
      }
      return localized;
    },
  };
}

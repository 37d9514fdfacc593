import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import type { McpTranslationTree } from '../interfaces/mcp-translation-source.interface.js';
import { nearestName } from '../options/nearest-name.js';

/** What a key of a translation file may name: a published entry and its arguments. */
export interface PublishedEntry {
  readonly kind: 'tool' | 'prompt' | 'resource' | 'resource template';
  /** The argument names (tools, prompts); `undefined` for what takes none. */
  readonly arguments?: readonly string[];
}

/** Published names → what they are. */
export type PublishedEntries = ReadonlyMap<string, PublishedEntry>;

/** The names and argument names the definitions publish. */
export function publishedEntries(definitions: {
  readonly tools: readonly Tool[];
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
  readonly templates: readonly ResourceTemplateType[];
}): Map<string, PublishedEntry> {
  const entries = new Map<string, PublishedEntry>();
  for (const tool of definitions.tools) {
    const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties;
    entries.set(tool.name, { kind: 'tool', arguments: Object.keys(properties ?? {}) });
  }
  for (const prompt of definitions.prompts) {
    const args = (prompt.arguments ?? []).map((argument) => argument.name);
    const known = entries.get(prompt.name)?.arguments ?? [];
    entries.set(prompt.name, { kind: 'prompt', arguments: [...new Set([...known, ...args])] });
  }
  for (const resource of definitions.resources) entries.set(resource.uri, { kind: 'resource' });
  for (const template of definitions.templates) {
    entries.set(template.uriTemplate, { kind: 'resource template' });
  }
  return entries;
}

const ENTRY_FIELDS = ['title', 'description', 'arguments'];
const SERVER_FIELDS = ['instructions'];
const ARGUMENT_FIELDS = ['description'];

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const didYouMean = (name: string, candidates: readonly string[]) => {
  const nearest = nearestName(name, candidates);
  return nearest === undefined ? '' : ` Did you mean "${nearest}"?`;
};

const listed = (names: readonly string[]) => (names.length > 0 ? names.join(', ') : 'none');

/** A problem of one key, and the path of that key for its line. */
export interface TranslationProblem {
  readonly path: readonly string[];
  readonly message: string;
}

/**
 * The problems of one translation tree: a key that names nothing published (`known`
 * tells a name published elsewhere in the app, which a base file may translate), an
 * unknown field, an argument the entry does not have, a text that is not a string.
 */
export function translationTreeProblems(
  tree: McpTranslationTree,
  published: PublishedEntries,
  known: (name: string) => boolean = () => false,
): TranslationProblem[] {
  const problems: TranslationProblem[] = [];
  const names = [...published.keys()];
  for (const [key, value] of Object.entries(tree)) {
    if (key === '_server') {
      problems.push(...fieldProblems([key], value, SERVER_FIELDS, 'the server'));
    } else if (key === '_messages') {
      problems.push(...messageProblems(value));
    } else {
      const entry = published.get(key);
      if (entry) problems.push(...entryProblems(key, value, entry));
      else if (!known(key)) {
        problems.push({
          path: [key],
          message:
            `"${key}" names no tool, prompt, resource or resource template this server publishes.` +
            `${didYouMean(key, names)} Keys are published names (tools/list shows them), ` +
            `_server or _messages.`,
        });
      }
    }
  }
  return problems;
}

function fieldProblems(
  path: string[],
  value: unknown,
  fields: readonly string[],
  what: string,
): TranslationProblem[] {
  if (value === null || value === undefined) return [];
  if (!isMapping(value)) {
    return [{ path, message: `the texts of ${what} must be a mapping of ${fields.join(', ')}.` }];
  }
  return Object.entries(value).flatMap(([field, text]): TranslationProblem[] => {
    if (!fields.includes(field)) {
      return [
        {
          path: [...path, field],
          message:
            `${what} has no field "${field}".${didYouMean(field, fields)} ` +
            `Translatable fields here: ${fields.join(', ')}.`,
        },
      ];
    }
    if (field === 'arguments' || text === null || typeof text === 'string') return [];
    return [{ path: [...path, field], message: `the ${field} of ${what} must be a string.` }];
  });
}

function entryProblems(key: string, value: unknown, entry: PublishedEntry): TranslationProblem[] {
  const fields = entry.arguments === undefined ? ['title', 'description'] : ENTRY_FIELDS;
  const what = `the ${entry.kind} "${key}"`;
  const problems = fieldProblems([key], value, fields, what);
  const args = isMapping(value) ? value.arguments : undefined;
  if (args === undefined || args === null || entry.arguments === undefined) return problems;
  if (!isMapping(args)) {
    problems.push({
      path: [key, 'arguments'],
      message: `the arguments of ${what} must be a mapping of argument names to { description }.`,
    });
    return problems;
  }
  for (const [name, texts] of Object.entries(args)) {
    if (!entry.arguments.includes(name)) {
      problems.push({
        path: [key, 'arguments', name],
        message:
          `${what} has no argument "${name}".${didYouMean(name, entry.arguments)} ` +
          `Its arguments: ${listed(entry.arguments)}.`,
      });
    } else {
      problems.push(
        ...fieldProblems(
          [key, 'arguments', name],
          texts,
          ARGUMENT_FIELDS,
          `the argument "${name}"`,
        ),
      );
    }
  }
  return problems;
}

function messageProblems(value: unknown): TranslationProblem[] {
  if (value === null || value === undefined) return [];
  if (!isMapping(value)) {
    return [
      {
        path: ['_messages'],
        message:
          '_messages must be a mapping of message ids or class-validator constraints ' +
          '(isInt, min, ...) to texts.',
      },
    ];
  }
  return Object.entries(value).flatMap(([id, text]) =>
    typeof text === 'string' || text === null
      ? []
      : [{ path: ['_messages', id], message: `the message "${id}" must be a string.` }],
  );
}

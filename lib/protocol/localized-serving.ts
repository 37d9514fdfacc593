import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import type { RequestScope, TransportCaller } from '../execution/mcp-call.js';
import type { McpPrimitiveKind } from '../interfaces/mcp-call-context.interface.js';
import type { LocaleEdition, McpLocalization } from '../localization/mcp-localization.js';
import type { LocalizedTexts } from '../localization/localized-texts.js';
import type { DefinitionView } from '../localization/definition.localizer.js';
import type { CatalogMcpServer } from './catalog-mcp.server.js';

type ServerArgs = ConstructorParameters<typeof CatalogMcpServer>;

/** The lists of an edition, by the name of their registry in the catalog. */
export type EditionList = 'tools' | 'prompts' | 'resources' | 'templates';

/** The kind of entry each list holds, for the guards' listing context. */
export const KIND_OF: Readonly<Record<EditionList, McpPrimitiveKind>> = {
  tools: 'tool',
  prompts: 'prompt',
  resources: 'resource',
  templates: 'resource',
};

/** The view of one list in one locale, for `PrimitiveRegistry.page`. */
export const viewIn = <D>(edition: LocaleEdition, list: EditionList) =>
  edition[list] as unknown as DefinitionView<D>;

/**
 * The arguments of the SDK server per offered locale: the same but for the instructions
 * (`_server.instructions`, else the `instructions` option), which `initialize` and
 * `server/discover` answer with. Made once, at bootstrap.
 */
export function localizedServerArgs(
  args: ServerArgs,
  localization: McpLocalization,
): ReadonlyMap<string, ServerArgs> {
  const [info, options, inputSchemaOf] = args;
  return new Map(
    localization.locales.map((locale): [string, ServerArgs] => {
      const { instructions } = localization.edition(locale);
      const { instructions: _code, ...rest } = options ?? {};
      return [locale, [info, { ...rest, ...(instructions && { instructions }) }, inputSchemaOf]];
    }),
  );
}

const acceptLanguageOf = (request: unknown): string | string[] | undefined => {
  const headers = (request as { headers?: Record<string, unknown> } | undefined)?.headers;
  const value = headers?.['accept-language'];
  return typeof value === 'string' || Array.isArray(value)
    ? (value as string[] | string)
    : undefined;
};

/**
 * The locale of a transport: what it settled on (HTTP negotiates once per request, stdio
 * and the CLI take an option or the environment), else the request's own resolvers or
 * `Accept-Language` (an in-process caller given as headers).
 */
export function editionOf(
  localization: McpLocalization,
  transport: TransportCaller,
): LocaleEdition {
  const locale =
    transport.locale !== undefined
      ? localization.pick(transport.locale)
      : localization.localeOfRequest(transport.request, acceptLanguageOf(transport.request));
  return localization.edition(locale);
}

/** What a request scope carries of its locale. */
export const localeScope = (
  edition: LocaleEdition,
): { readonly locale: string; readonly texts: LocalizedTexts } => ({
  locale: edition.locale,
  texts: edition.texts,
});

/** A `prompts/get` result with the prompt's description in the caller's language, unless it has one. */
export function withPromptDescription(
  result: GetPromptResult,
  prompt: Prompt,
  localization: McpLocalization,
  scope: RequestScope,
): GetPromptResult {
  if (result.description !== undefined) return result;
  const { description } = localization.edition(scope.locale).prompts.localize(prompt);
  return description === undefined ? result : { ...result, description };
}

/**
 * The messages about what one server publishes once the scan is done: a server that
 * publishes nothing, the URI of its manifest, completers whose target it lacks, and resource
 * templates whose URIs can be read more than one way.
 */

import type { McpCompletionTarget } from '../interfaces/mcp-completion.interface.js';
import { bulletList } from './bullet-list.js';

/** What a server that publishes nothing was given to work with. */
export interface EmptyServerReport {
  readonly server: string;
  /** `describeScope()` of the server. */
  readonly scope: string;
  /** The class names of the app's providers and controllers that were scanned. */
  readonly providers: readonly string[];
  readonly controllers: readonly string[];
  /** Entries the app publishes on other servers, by membership: `2 in group "catalog"`. */
  readonly elsewhere: readonly string[];
  /** Entries of this server kept off MCP with `@McpHidden()` or `{ hidden }`. */
  readonly hidden: number;
}

const MAX_LISTED_NAMES = 10;

const countedNames = (noun: string, names: readonly string[]): string => {
  const counted = `${names.length} ${noun}${names.length === 1 ? '' : 's'}`;
  if (names.length === 0) return counted;
  const listed = names.slice(0, MAX_LISTED_NAMES).join(', ');
  const more = names.length - MAX_LISTED_NAMES;
  return `${counted} (${listed}${more > 0 ? `, and ${more} more` : ''})`;
};

export const emptyServerMessage = (report: EmptyServerReport): string => {
  const causes = [
    `the class is not in the "providers" (or "controllers") of a module the app imports`,
    `its methods lack @McpTool(), @McpPrompt() or @McpResource() (or the class lacks @McpTools())`,
    report.elsewhere.length > 0
      ? `the entries belong to other servers: ${report.elsewhere.join('; ')} (@McpGroup() on ` +
        `the class, group/version on the method; a server's own comes from ` +
        `McpModule.forRoot({ group, groupVersion }))`
      : undefined,
    report.hidden > 0
      ? `${report.hidden} of its methods ${report.hidden === 1 ? 'is' : 'are'} hidden ` +
        `(@McpHidden() or { hidden })`
      : undefined,
  ].filter((cause) => cause !== undefined);
  return (
    `MCP server "${report.server}" publishes nothing: it serves ${report.scope}, and the scan ` +
    `found none. Scanned ${countedNames('provider', report.providers)} and ` +
    `${countedNames('controller', report.controllers)} of the app's modules. Likely causes:\n` +
    `${bulletList(causes)}\n` +
    `If this server's entries are added at run time (McpServerHost#addTool()), ignore this.`
  );
};

export const manifestUriTakenMessage = (server: string, uri: string): string =>
  `The manifest of the MCP server "${server}" would be published at ${uri}, which a ` +
  `resource of the app already uses. Give the manifest another URI with ` +
  `manifest: 'mcp://${server}/system/manifest', or move the resource.`;

const completionTargetLabel = (target: McpCompletionTarget): string =>
  'prompt' in target ? `prompt "${target.prompt}"` : `resource template "${target.resource}"`;

/** A completer whose prompt or template the server does not publish (`known`: what it does). */
export const unpublishedCompletionTargetMessage = (
  where: string,
  target: McpCompletionTarget,
  known: readonly string[],
): string =>
  `${where} completes the ${completionTargetLabel(target)}, which this server does not publish ` +
  `(it publishes: ${known.join(', ') || 'none'}).`;

/** A completer of an argument its prompt or template does not have. */
export const unknownCompletionArgumentMessage = (
  where: string,
  target: McpCompletionTarget,
  argumentNames: readonly string[],
): string =>
  `${where} completes "${target.argument}" of the ${completionTargetLabel(target)}, which has ` +
  `no such argument (its arguments: ${argumentNames.join(', ') || 'none'}).`;

/**
 * A resource template with expressions a URI cannot tell apart (`{name}.{ext}`), logged once
 * at bootstrap. `separated` is the template with a `/` between them, when that fixes it.
 */
export const ambiguousTemplateMessage = (
  resource: { readonly name: string; readonly where: string; readonly uriTemplate: string },
  ambiguities: ReadonlyArray<{
    readonly first: string;
    readonly second: string;
    readonly separator: string;
  }>,
  separated: string | undefined,
): string => {
  const pairs = ambiguities.map(({ first, second, separator }) =>
    separator === ''
      ? `${first} and ${second} follow each other with nothing between them`
      : `${first} and ${second} are separated only by "${separator}", which can be part of ` +
        `a value of each`,
  );
  const fix = separated
    ? `Separate them with a character no value can contain, such as "/": ${separated}`
    : `Separate them with a character no value can contain, such as "/", and make the ` +
      `expressions around it simple ones ({name}, not {+name}): only those values cannot contain "/"`;
  return (
    `The resource template ${resource.uriTemplate} of the resource "${resource.name}" ` +
    `(${resource.where}) is ambiguous: ${pairs.join('; ')}. A URI can then be read more than ` +
    `one way; resources/read gives the first expression the longest value the URI allows ` +
    `(as the MCP SDK does), which may not be the values the client expanded. ${fix}.`
  );
};

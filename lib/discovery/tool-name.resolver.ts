import type { Type } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpNamingTarget, McpToolNaming } from '../interfaces/mcp-naming.interface.js';
import { PRIMITIVE_NAME_PATTERN } from '../mcp.constants.js';
import {
  aliasesNotAnArrayMessage,
  invalidAliasMessage,
  invalidNamingResultMessage,
  namingFailedMessage,
  repeatedAliasMessage,
} from '../messages/names.messages.js';
import { toSnakeCase } from '../utils/to-snake-case.util.js';
import { ToolOutputValidator } from '../validation/tool-output.validator.js';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { DiscoveredTool } from './discovered-tool.interface.js';
import { readRoute } from './route-metadata.reader.js';

/**
 * A name every MCP client and model provider accepts (lower-case ASCII letters, digits and
 * `_`; some hosts refuse `.` or `-` in tool names): every run of characters other than ASCII
 * letters and digits becomes one `_`, the result is lower-cased and loses `_` at its edges
 * (`'Catalog.search'` → `catalog_search`, `' Get  Product! '` → `get_product`). Case
 * boundaries are not word boundaries here (`searchProducts` → `searchproducts`).
 */
function normalize(text: string): string {
  return text
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .toLowerCase()
    .replace(/^_+|_+$/g, '');
}

/** Class-name endings that say what a class is, not what its tools do. */
const ROLE_SUFFIX = /(?:Controller|Service|Provider|Resolver|Tools|Handler)$/;

/**
 * The built-in `naming` functions (the `naming` option of `McpModule`), and the normaliser
 * to write one's own with. Both split camelCase words first (`getHTTPStatus` →
 * `get_http_status`), then normalise as {@link McpNaming.normalize} does.
 * @publicApi
 */
export const McpNaming = {
  /**
   * The method's name as a portable snake_case name: `searchProducts` → `search_products`,
   * `$findAll` → `find_all`. It is today's default with the normalisation added.
   */
  snakeCase: (({ method }) => normalize(toSnakeCase(method))) as McpToolNaming,
  /**
   * The class (without a `Controller`, `Service`, `Provider`, `Resolver`, `Tools` or
   * `Handler` ending) and the method: `CatalogController.findOne` → `catalog_find_one`. For
   * apps whose classes have methods of the same name.
   */
  qualified: (({ class: type, method }) =>
    normalize(
      `${toSnakeCase(type.name.replace(ROLE_SUFFIX, '') || type.name)}_${toSnakeCase(method)}`,
    )) as McpToolNaming,
  /**
   * Any text as a portable name (lower-case letters, digits and `_`): runs of other
   * characters than ASCII letters and digits become one `_`, lower case, no `_` at the edges.
   * It does not split camelCase (`'Catalog.searchAll'` → `catalog_searchall`).
   */
  normalize,
} as const;

/** What the `naming` option is given for a method. */
export function namingTargetOf(type: Type, method: string): McpNamingTarget {
  const route = readRoute(type, method);
  return { class: type, method, ...(route && { route }) };
}

/** The default name of a tool when no `naming` option is set: the method in snake_case. */
export const defaultToolName = (method: string): string => toSnakeCase(method);

/**
 * The name the `naming` option gives a tool.
 * @throws McpConfigurationError naming the method when the function throws or returns
 * something that is not a tool name
 */
export function namedBy(naming: McpToolNaming, target: McpNamingTarget): string {
  const where = `${target.class.name}.${target.method}`;
  let name: unknown;
  try {
    name = naming(target);
  } catch (error) {
    throw new McpConfigurationError(namingFailedMessage(where, (error as Error).message));
  }
  if (typeof name !== 'string' || !PRIMITIVE_NAME_PATTERN.test(name)) {
    throw new McpConfigurationError(invalidNamingResultMessage(name, where));
  }
  return name;
}

/**
 * The `aliases` of `@McpTool()`, checked: former names follow the pattern of names (it
 * allows dots, so `'Catalog.search'` works), and a tool lists each once and not its own name.
 */
export function checkedAliases(
  aliases: unknown,
  name: string,
  where: string,
): readonly string[] | undefined {
  if (aliases === undefined) return undefined;
  if (!Array.isArray(aliases)) {
    throw new McpConfigurationError(aliasesNotAnArrayMessage(where, aliases));
  }
  for (const [index, alias] of aliases.entries()) {
    if (typeof alias !== 'string' || !PRIMITIVE_NAME_PATTERN.test(alias)) {
      throw new McpConfigurationError(invalidAliasMessage(alias, where));
    }
    if (alias === name || aliases.indexOf(alias) !== index) {
      throw new McpConfigurationError(repeatedAliasMessage(alias, where, alias === name));
    }
  }
  return aliases.length === 0 ? undefined : (aliases as string[]);
}

/**
 * The tool under the name a server's `naming` option gives it (the scan is shared by every
 * server; the name is each server's own). A tool with an explicit name is kept as it is.
 */
export function namedTool(tool: DiscoveredTool, naming: McpToolNaming | undefined): DiscoveredTool {
  if (!naming || !tool.naming) return tool;
  const name = namedBy(naming, tool.naming);
  if (name === tool.definition.name) return tool;
  const { outputSchema } = tool.definition;
  const variant = tool.withNullableOptionals;
  return {
    ...tool,
    definition: { ...tool.definition, name },
    aliases: tool.aliases && checkedAliases(tool.aliases, name, tool.where),
    ...(tool.outputValidator && {
      outputValidator: new ToolOutputValidator(name, tool.where, outputSchema as JsonSchema),
    }),
    ...(variant && {
      withNullableOptionals: () => {
        const nullable = variant();
        return nullable && { ...nullable, definition: { ...nullable.definition, name } };
      },
    }),
  };
}

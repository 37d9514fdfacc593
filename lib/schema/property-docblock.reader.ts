import { MCP_DOCBLOCK_METADATA_FACTORY } from '../mcp.constants.js';

/** One `@param` tag of a method, with the position of the parameter it names. */
export interface ParameterDocblockMetadata {
  readonly name: string;
  readonly index: number;
  readonly description: string;
}

/** The docblock of one method, as the compiler plugin records it. */
export interface MethodDocblockMetadata {
  /** The text of the comment before its tags: summary and description. */
  readonly description?: string;
  readonly params?: readonly ParameterDocblockMetadata[];
}

/**
 * What the static `_MCP_DOCBLOCK_METADATA()` that `nestjs-mcp/plugin` adds to a class
 * returns: the docblocks of the class's own members (inherited ones are on the base class).
 */
export interface DocblockMetadata {
  readonly methods?: Readonly<Record<string, MethodDocblockMetadata>>;
  /** The docblock text of each decorated property, by property name. */
  readonly properties?: Readonly<Record<string, string>>;
}

// Only what was found is kept: `loadMcpPluginMetadata()` may attach the static later.
const cache = new WeakMap<Function, DocblockMetadata>();

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The docblocks the plugin recorded on this very class (not its bases), or `undefined` when
 * the class was compiled without the plugin. A same-named static that is not the plugin's
 * (it throws, or returns something else) counts as none.
 */
export function ownDocblockMetadata(target: Function): DocblockMetadata | undefined {
  const cached = cache.get(target);
  if (cached || !Object.hasOwn(target, MCP_DOCBLOCK_METADATA_FACTORY)) return cached;
  const factory = (target as unknown as Record<string, unknown>)[MCP_DOCBLOCK_METADATA_FACTORY];
  let value: unknown;
  try {
    value = typeof factory === 'function' ? factory.call(target) : undefined;
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  cache.set(target, value as DocblockMetadata);
  return value as DocblockMetadata;
}

/** The class and its bases, nearest first: a member's docblock is where it is declared. */
export function* classLineage(target: Function): Generator<Function> {
  for (
    let current: unknown = target;
    typeof current === 'function' && current !== Function.prototype;
  ) {
    yield current;
    current = Object.getPrototypeOf(current);
  }
}

/**
 * The docblock of `dto[property]` that the plugin recorded, from the nearest class of the
 * lineage that documents it; `undefined` without the plugin.
 */
export function readPropertyDocblock(dto: Function, property: string): string | undefined {
  for (const type of classLineage(dto)) {
    const properties = ownDocblockMetadata(type)?.properties;
    if (!isRecord(properties) || !Object.hasOwn(properties, property)) continue;
    const text = properties[property];
    if (typeof text === 'string' && text !== '') return text;
  }
  return undefined;
}

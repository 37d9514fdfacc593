import {
  classLineage,
  ownDocblockMetadata,
  type MethodDocblockMetadata,
} from '../schema/property-docblock.reader.js';

/*
 * The docblocks of MCP methods that `nestjs-mcp/plugin` recorded at build time. They are
 * the last fallback of a description: an explicit option, then `@ApiOperation()`, then
 * these. A class compiled without the plugin has none, and nothing changes.
 */

/** What the docblock of one method says, as discovery uses it. */
export interface MethodDocblock {
  /** The comment before its tags (summary and description), if it has text. */
  readonly description?: string;
  /** The text of the `@param` tag of each parameter, by position (`undefined`: none). */
  readonly parameters: ReadonlyArray<string | undefined>;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

function normalise(metadata: MethodDocblockMetadata): MethodDocblock {
  const parameters: Array<string | undefined> = [];
  for (const param of Array.isArray(metadata.params) ? metadata.params : []) {
    if (Number.isInteger(param?.index) && param.index >= 0 && isText(param.description)) {
      parameters[param.index] = param.description;
    }
  }
  return {
    ...(isText(metadata.description) && { description: metadata.description }),
    parameters: Array.from(parameters),
  };
}

/**
 * The docblock of `target.prototype[methodName]`, from the nearest class of the lineage
 * that recorded one (an override without a comment keeps its base's); `undefined` when the
 * classes were compiled without the plugin.
 */
export function readMethodDocblock(
  target: Function,
  methodName: string,
): MethodDocblock | undefined {
  for (const type of classLineage(target)) {
    const methods = ownDocblockMetadata(type)?.methods;
    if (typeof methods !== 'object' || methods === null || !Object.hasOwn(methods, methodName)) {
      continue;
    }
    const metadata = methods[methodName];
    if (typeof metadata === 'object' && metadata !== null) return normalise(metadata);
  }
  return undefined;
}

/** The docblock description of a method, if the plugin recorded one. */
export function readMethodDescription(target: Function, methodName: string): string | undefined {
  return readMethodDocblock(target, methodName)?.description;
}

/**
 * The text of the `@param` tag of the parameter at `index` of a method (a route parameter,
 * a named `@Query()` or `@Body()` field), if the plugin recorded one.
 */
export function readParameterDescription(
  target: Function,
  methodName: string,
  index: number,
): string | undefined {
  return readMethodDocblock(target, methodName)?.parameters[index];
}

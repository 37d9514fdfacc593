import type ts from 'typescript';
import { before, type McpPluginOptions } from './docblock.transformer.js';

/*
 * The `nestjs-mcp/plugin` entry point: a TypeScript compiler plugin that records docblocks
 * as descriptions. Its exports follow the protocols of the tools that load it: `before` (and
 * `ReadonlyVisitor` for SWC) for the Nest CLI, `name`, `version` and `factory` for ts-jest's
 * `astTransformers`, `vitePlugin()` for vitest.
 */

export { before, type McpPluginOptions } from './docblock.transformer.js';
export { ReadonlyVisitor, type McpReadonlyVisitorOptions } from './readonly.visitor.js';
export { vitePlugin, type McpDocblocksVitePlugin } from './vite.plugin.js';

/** The transformer's name, for ts-jest (which keys its cache on `name` and `version`). */
export const name = 'nestjs-mcp-docblocks';

/** Bumped when the emitted code changes, so that ts-jest recompiles. */
export const version = 1;

/** ts-jest's `astTransformers` protocol: `{ before: [{ path: 'nestjs-mcp/plugin' }] }`. */
export function factory(
  tsCompiler?: { program?: ts.Program },
  options?: McpPluginOptions,
): ts.TransformerFactory<ts.SourceFile> {
  return before(options, tsCompiler?.program);
}

/** The form `@nestjs/swagger/plugin` also exports: `(program, options) => before(options)`. */
export default (
  program?: ts.Program,
  options?: McpPluginOptions,
): ts.TransformerFactory<ts.SourceFile> => before(options, program);

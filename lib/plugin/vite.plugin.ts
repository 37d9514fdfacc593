import ts from 'typescript';
import { MCP_DOCBLOCK_METADATA_FACTORY } from '../mcp.constants.js';
import { collectClassDocblocks, importedNames } from './class-docblocks.collector.js';

/** The part of a Vite plugin this one is (Vite is not a dependency of nestjs-mcp). */
export interface McpDocblocksVitePlugin {
  readonly name: string;
  readonly enforce: 'pre';
  transform(code: string, id: string): { code: string; map: null } | undefined;
}

const TYPESCRIPT_FILE = /\.[mc]?tsx?$/;

/**
 * For vitest (and Vite builds), whose compiler (oxc, esbuild) runs no TypeScript
 * transformer: adds the same static as `before()` to each class of a TypeScript module
 * before Vite compiles it. The static is written into the closing line of its class, so that
 * every other line stays where it was (stack traces keep their line numbers).
 *
 * ```ts
 * // vitest.config.ts
 * import { vitePlugin as mcpDocblocks } from 'nestjs-mcp/plugin';
 * export default defineConfig({ plugins: [mcpDocblocks()] });
 * ```
 */
export function vitePlugin(): McpDocblocksVitePlugin {
  return {
    name: 'nestjs-mcp-docblocks',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (
        !TYPESCRIPT_FILE.test(file) ||
        file.endsWith('.d.ts') ||
        /[\\/]node_modules[\\/]/.test(file)
      ) {
        return undefined;
      }
      // Most modules have no class with a docblock to record: skip them without parsing.
      if (!code.includes('/**') || !code.includes('class ')) return undefined;
      const sourceFile = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
      const aliases = importedNames(sourceFile);
      const insertions: Array<[position: number, text: string]> = [];
      const visit = (node: ts.Node): void => {
        if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
          const metadata = collectClassDocblocks(node, sourceFile, aliases);
          if (metadata) {
            insertions.push([
              node.end - 1,
              ` static ${MCP_DOCBLOCK_METADATA_FACTORY}() { return ${JSON.stringify(metadata)}; } `,
            ]);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(sourceFile);
      if (insertions.length === 0) return undefined;
      let transformed = code;
      for (const [position, text] of insertions.toSorted(([a], [b]) => b - a)) {
        transformed = transformed.slice(0, position) + text + transformed.slice(position);
      }
      return { code: transformed, map: null };
    },
  };
}

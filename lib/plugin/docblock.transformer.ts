import ts from 'typescript';
import { collectClassDocblocks, importedNames } from './class-docblocks.collector.js';
import { withMetadataFactory } from './docblock-metadata.emitter.js';

/**
 * Options of `nestjs-mcp/plugin` (`compilerOptions.plugins[].options` of nest-cli.json): it
 * has none yet and ignores what it is given (the Nest CLI passes an object to every plugin).
 */
export type McpPluginOptions = Readonly<Record<string, unknown>>;

/** Adds the docblock static to each class of a file that has docblocks to record. */
export function transformSourceFile(
  sourceFile: ts.SourceFile,
  context: ts.TransformationContext,
): ts.SourceFile {
  if (sourceFile.isDeclarationFile) return sourceFile;
  const aliases = importedNames(sourceFile);
  const visit = (node: ts.Node): ts.Node => {
    const visited = ts.visitEachChild(node, visit, context);
    if (!ts.isClassDeclaration(visited)) return visited;
    const metadata = collectClassDocblocks(visited, sourceFile, aliases);
    return metadata ? withMetadataFactory(context.factory, visited, metadata) : visited;
  };
  return ts.visitEachChild(sourceFile, visit, context);
}

/**
 * The compiler plugin, in the protocol of the Nest CLI (`compilerOptions.plugins` in
 * nest-cli.json) and of programmatic builds (`customTransformers.before` of
 * `program.emit()`, `transformers.before` of `ts.transpileModule()`): a transformer that
 * records the docblocks of MCP methods and DTO properties as a static of their class.
 *
 * Unlike `@nestjs/swagger`'s plugin it reads syntax only, so `program` may be left out
 * (transpile-only builds, `isolatedModules`).
 */
export function before(
  _options?: McpPluginOptions,
  _program?: ts.Program,
): ts.TransformerFactory<ts.SourceFile> {
  return (context) => (sourceFile) => transformSourceFile(sourceFile, context);
}

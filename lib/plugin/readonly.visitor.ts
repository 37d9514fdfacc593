import { posix, relative } from 'node:path';
import ts from 'typescript';
import type { DocblockMetadata } from '../schema/property-docblock.reader.js';
import { collectClassDocblocks, importedNames } from './class-docblocks.collector.js';
import { literalOf } from './docblock-metadata.emitter.js';

/** Options of {@link ReadonlyVisitor}, as the Nest CLI passes them. */
export interface McpReadonlyVisitorOptions {
  /** The folder of the generated `metadata.ts` (the Nest CLI sets it to the source root). */
  readonly pathToSource: string;
  /**
   * The imports of `metadata.ts` end with the output extension (`.js`), for ESM apps.
   * @default false
   */
  readonly esmCompatible?: boolean;
  readonly [option: string]: unknown;
}

const toPosix = (path: string): string => path.replaceAll('\\', '/');

const outputExtension = (fileName: string): string =>
  fileName.endsWith('.mts') ? '.mjs' : fileName.endsWith('.cts') ? '.cjs' : '.js';

/**
 * For builds that do not run TypeScript transformers (SWC: `nest build -b swc --type-check`,
 * as `@nestjs/swagger` supports it). The Nest CLI's `PluginMetadataGenerator` runs this
 * visitor over the program and prints what {@link collect} returns into `metadata.ts`, which
 * the app hands to `loadMcpPluginMetadata()` before it starts. Only exported classes can be
 * reached from there.
 */
export class ReadonlyVisitor {
  /** The key of this plugin's part of `metadata.ts` (the Nest CLI sets the plugin's name). */
  key = 'nestjs-mcp';
  /** Type imports `metadata.ts` needs: none, docblocks are text. */
  readonly typeImports: Record<string, string> = {};
  private readonly collected = new Map<string, Record<string, ts.ObjectLiteralExpression>>();

  constructor(private readonly options: McpReadonlyVisitorOptions) {
    if (typeof options?.pathToSource !== 'string') {
      throw new TypeError(
        'nestjs-mcp/plugin: the ReadonlyVisitor needs the "pathToSource" option (the folder of ' +
          'the generated metadata.ts); the Nest CLI sets it.',
      );
    }
  }

  visit(_program: ts.Program, sourceFile: ts.SourceFile): void {
    if (sourceFile.isDeclarationFile) return;
    const aliases = importedNames(sourceFile);
    const classes: Record<string, DocblockMetadata> = {};
    const visitNode = (node: ts.Node): void => {
      const exported =
        ts.isClassDeclaration(node) &&
        node.name !== undefined &&
        (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (exported) {
        const metadata = collectClassDocblocks(node, sourceFile, aliases);
        if (metadata) classes[node.name.text] = metadata;
      }
    };
    sourceFile.statements.forEach(visitNode);
    if (Object.keys(classes).length === 0) return;
    this.collected.set(
      this.importPath(sourceFile.fileName),
      Object.fromEntries(
        Object.entries(classes).map(([name, metadata]) => [
          name,
          literalOf(ts.factory, metadata) as ts.ObjectLiteralExpression,
        ]),
      ),
    );
  }

  /** `{ classes: [[import('./path'), { ClassName: { ... } }]] }`, for the CLI's printer. */
  collect(): { classes: Array<[ts.CallExpression, Record<string, ts.ObjectLiteralExpression>]> } {
    return {
      classes: [...this.collected].map(([path, classes]) => [
        ts.factory.createCallExpression(
          ts.factory.createToken(ts.SyntaxKind.ImportKeyword) as ts.Expression,
          undefined,
          [ts.factory.createStringLiteral(path)],
        ),
        classes,
      ]),
    };
  }

  private importPath(fileName: string): string {
    let path = posix.normalize(toPosix(relative(this.options.pathToSource, fileName)));
    if (!path.startsWith('.')) path = `./${path}`;
    const extension = this.options.esmCompatible === true ? outputExtension(fileName) : '';
    return path.replace(/\.[mc]?tsx?$/, extension);
  }
}

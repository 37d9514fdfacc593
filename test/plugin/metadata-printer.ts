import ts from 'typescript';

/*
 * What the Nest CLI's PluginMetadataPrinter (lib/compiler/plugins/plugin-metadata-printer.ts
 * of @nestjs/cli, not a dependency here) writes to metadata.ts from the `collect()` of each
 * ReadonlyVisitor: `export default async () => { const t = {}; return { [key]: ... }; }`,
 * leaves that are object literals kept as they are. Its output has no types, so it is
 * written here as a .js file.
 */
type Collected = Record<string, Array<[ts.CallExpression, Record<string, ts.Node>]>>;

function assignment(name: string, value: ts.Node | Record<string, ts.Node>): ts.PropertyAssignment {
  const node = value as ts.Node;
  return ts.factory.createPropertyAssignment(
    ts.factory.createStringLiteral(name),
    typeof node.kind === 'number' && ts.isObjectLiteralExpression(node)
      ? node
      : ts.factory.createObjectLiteralExpression(
          Object.entries(value as Record<string, ts.Node>).map(([key, item]) =>
            assignment(key, item),
          ),
        ),
  );
}

export function printMetadata(visitors: Array<{ key: string; collect(): Collected }>): string {
  const parts = visitors.map((visitor) =>
    ts.factory.createPropertyAssignment(
      ts.factory.createStringLiteral(visitor.key),
      ts.factory.createObjectLiteralExpression(
        Object.entries(visitor.collect()).map(([group, files]) =>
          ts.factory.createPropertyAssignment(
            ts.factory.createStringLiteral(group),
            ts.factory.createArrayLiteralExpression(
              files.map(([importExpression, classes]) =>
                ts.factory.createArrayLiteralExpression([
                  importExpression,
                  ts.factory.createObjectLiteralExpression(
                    Object.entries(classes).map(([name, meta]) => assignment(name, meta)),
                  ),
                ]),
              ),
            ),
          ),
        ),
      ),
    ),
  );
  const body = ts.factory.createArrowFunction(
    [ts.factory.createToken(ts.SyntaxKind.AsyncKeyword)],
    undefined,
    [],
    undefined,
    ts.factory.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
    ts.factory.createBlock(
      [ts.factory.createReturnStatement(ts.factory.createObjectLiteralExpression(parts))],
      true,
    ),
  );
  const file = ts.createSourceFile(
    'metadata.ts',
    '',
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  return `/* eslint-disable */\n${ts
    .createPrinter({ newLine: ts.NewLineKind.LineFeed })
    .printNode(
      ts.EmitHint.Unspecified,
      ts.factory.createExportAssignment(undefined, undefined, body),
      file,
    )}\n`;
}

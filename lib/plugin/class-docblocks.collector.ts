import ts from 'typescript';
import type {
  DocblockMetadata,
  MethodDocblockMetadata,
  ParameterDocblockMetadata,
} from '../schema/property-docblock.reader.js';
import { parseDocblock, type ParsedDocblock } from './docblock-comment.parser.js';

/*
 * What the plugin records of a class, found from the syntax alone (no type checker), so that
 * it works alike in `nest build`, `tsc`, and transpile-only builds (ts-jest with
 * `isolatedModules`, `ts.transpileModule`).
 */

/** Method decorators whose method becomes an MCP primitive. */
const METHOD_DECORATORS = new Set(['McpTool', 'McpPrompt', 'McpResource']);
/** Class decorators that publish every method of the class. */
const CLASS_DECORATORS = new Set(['McpTools']);

/**
 * The imported name of each local name bound by an `import { A as B }` of the file, so that
 * `@Tool()` after `import { McpTool as Tool } from 'nestjs-mcp'` is recognised.
 */
export function importedNames(sourceFile: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      if (element.propertyName && ts.isIdentifier(element.propertyName)) {
        names.set(element.name.text, element.propertyName.text);
      }
    }
  }
  return names;
}

function decoratorNames(node: ts.Node, aliases: ReadonlyMap<string, string>): string[] {
  if (!ts.canHaveDecorators(node)) return [];
  return (ts.getDecorators(node) ?? []).flatMap((decorator) => {
    let expression: ts.Expression = decorator.expression;
    if (ts.isCallExpression(expression)) expression = expression.expression;
    if (ts.isIdentifier(expression)) return [aliases.get(expression.text) ?? expression.text];
    // `@mcp.McpTool()` after `import * as mcp from 'nestjs-mcp'`.
    if (ts.isPropertyAccessExpression(expression)) return [expression.name.text];
    return [];
  });
}

function memberName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) {
    return name.text;
  }
  // `#private` members and computed names are never MCP methods or DTO properties.
  return undefined;
}

const isStatic = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword);

/**
 * The docblock written right before a node: before its decorators, or between them and the
 * name. `undefined` for a node made by another transformer (it has no source text).
 */
function docblockOf(node: ts.Node, sourceFile: ts.SourceFile): ParsedDocblock | undefined {
  const original = ts.getOriginalNode(node);
  if (original.pos < 0 || original.end > sourceFile.text.length) return undefined;
  const text = sourceFile.text;
  const positions = [original.pos];
  const modifiers = ts.canHaveModifiers(original) ? original.modifiers : undefined;
  const lastModifier = modifiers?.[modifiers.length - 1];
  if (lastModifier) positions.push(lastModifier.end);
  let found: string | undefined;
  for (const position of positions) {
    for (const range of ts.getLeadingCommentRanges(text, position) ?? []) {
      const comment = text.slice(range.pos, range.end);
      if (range.kind === ts.SyntaxKind.MultiLineCommentTrivia && /^\/\*\*(?!\/)/.test(comment)) {
        found = comment;
      }
    }
  }
  return found === undefined ? undefined : parseDocblock(found);
}

function methodDocblock(
  method: ts.MethodDeclaration,
  sourceFile: ts.SourceFile,
): MethodDocblockMetadata | undefined {
  const docblock = docblockOf(method, sourceFile);
  if (!docblock) return undefined;
  const params: ParameterDocblockMetadata[] = [];
  method.parameters.forEach((parameter, index) => {
    if (!ts.isIdentifier(parameter.name)) return;
    const description = docblock.params.get(parameter.name.text);
    if (description) params.push({ name: parameter.name.text, index, description });
  });
  if (docblock.description === '' && params.length === 0) return undefined;
  return {
    ...(docblock.description !== '' && { description: docblock.description }),
    ...(params.length > 0 && { params }),
  };
}

/**
 * The docblocks of a class's MCP methods (decorated with `@McpTool()`, `@McpPrompt()`,
 * `@McpResource()`, or any method of an `@McpTools()` class) and of its decorated properties
 * (DTO properties: class-validator decorators are what put a property in a schema).
 * `undefined` when there is nothing to record, so that the class stays as it is.
 */
export function collectClassDocblocks(
  node: ts.ClassLikeDeclaration,
  sourceFile: ts.SourceFile,
  aliases: ReadonlyMap<string, string>,
): DocblockMetadata | undefined {
  const everyMethod = decoratorNames(node, aliases).some((name) => CLASS_DECORATORS.has(name));
  const methods: Record<string, MethodDocblockMetadata> = {};
  const properties: Record<string, string> = {};
  for (const member of node.members) {
    if (isStatic(member) || !member.name) continue;
    const name = memberName(member.name);
    if (name === undefined) continue;
    const decorators = decoratorNames(member, aliases);
    if (ts.isMethodDeclaration(member) && member.body) {
      if (!everyMethod && !decorators.some((decorator) => METHOD_DECORATORS.has(decorator))) {
        continue;
      }
      const docblock = methodDocblock(member, sourceFile);
      if (docblock) methods[name] = docblock;
    } else if (ts.isPropertyDeclaration(member) && decorators.length > 0) {
      const description = docblockOf(member, sourceFile)?.description;
      if (description) properties[name] = description;
    }
  }
  const hasMethods = Object.keys(methods).length > 0;
  const hasProperties = Object.keys(properties).length > 0;
  if (!hasMethods && !hasProperties) return undefined;
  return { ...(hasMethods && { methods }), ...(hasProperties && { properties }) };
}

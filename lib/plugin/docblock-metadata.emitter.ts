import ts from 'typescript';
import { MCP_DOCBLOCK_METADATA_FACTORY } from '../mcp.constants.js';
import type { DocblockMetadata } from '../schema/property-docblock.reader.js';

/** Plain data as an expression: strings, numbers, booleans, arrays and records of them. */
export function literalOf(factory: ts.NodeFactory, value: unknown): ts.Expression {
  if (typeof value === 'string') return factory.createStringLiteral(value);
  if (typeof value === 'number') return factory.createNumericLiteral(value);
  if (typeof value === 'boolean') return value ? factory.createTrue() : factory.createFalse();
  if (Array.isArray(value)) {
    return factory.createArrayLiteralExpression(value.map((item) => literalOf(factory, item)));
  }
  if (typeof value === 'object' && value !== null) {
    return factory.createObjectLiteralExpression(
      Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) =>
          factory.createPropertyAssignment(
            factory.createStringLiteral(key),
            literalOf(factory, item),
          ),
        ),
      true,
    );
  }
  return factory.createIdentifier('undefined');
}

/** `static _MCP_DOCBLOCK_METADATA() { return { ... }; }`: data only, no import needed. */
function metadataFactoryMethod(
  factory: ts.NodeFactory,
  metadata: DocblockMetadata,
): ts.MethodDeclaration {
  return factory.createMethodDeclaration(
    [factory.createModifier(ts.SyntaxKind.StaticKeyword)],
    undefined,
    factory.createIdentifier(MCP_DOCBLOCK_METADATA_FACTORY),
    undefined,
    undefined,
    [],
    undefined,
    factory.createBlock([factory.createReturnStatement(literalOf(factory, metadata))], true),
  );
}

const isMetadataFactory = (member: ts.ClassElement): boolean =>
  member.name !== undefined &&
  ts.isIdentifier(member.name) &&
  member.name.text === MCP_DOCBLOCK_METADATA_FACTORY;

/**
 * The class with the static that carries its docblocks (one already there, from a
 * previous pass, is replaced).
 */
export function withMetadataFactory(
  factory: ts.NodeFactory,
  node: ts.ClassDeclaration,
  metadata: DocblockMetadata,
): ts.ClassDeclaration {
  return factory.updateClassDeclaration(
    node,
    node.modifiers,
    node.name,
    node.typeParameters,
    node.heritageClauses,
    [
      ...node.members.filter((member) => !isMetadataFactory(member)),
      metadataFactoryMethod(factory, metadata),
    ],
  );
}

import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  collectClassDocblocks,
  importedNames,
} from '../../lib/plugin/class-docblocks.collector.js';

function collect(source: string) {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const aliases = importedNames(file);
  return Object.fromEntries(
    file.statements
      .filter(ts.isClassDeclaration)
      .map((node) => [node.name!.text, collectClassDocblocks(node, file, aliases)]),
  );
}

describe('collectClassDocblocks', () => {
  it('recognises the decorators under an alias and through a namespace import', () => {
    expect(
      collect(`
        import { McpTool as Tool } from 'nestjs-mcp';
        import * as mcp from 'nestjs-mcp';
        class A {
          /** Through the alias. */
          @Tool() one() {}
          /** Through the namespace. */
          @mcp.McpPrompt() two() {}
          /** Not an MCP method. */
          @Other() three() {}
        }`),
    ).toEqual({
      A: {
        methods: {
          one: { description: 'Through the alias.' },
          two: { description: 'Through the namespace.' },
        },
      },
    });
  });

  it('reads a docblock between the decorators and the name, and skips plain comments', () => {
    expect(
      collect(`
        class A {
          @McpTool()
          /** After the decorator. */
          one() {}
          /* Not a docblock. */
          @McpTool() two() {}
          /** Far away. */
          // a line comment between
          @McpTool() three() {}
        }`),
    ).toEqual({
      A: {
        methods: {
          one: { description: 'After the decorator.' },
          three: { description: 'Far away.' },
        },
      },
    });
  });

  it('records every instance method of an @McpTools() class, never static or private ones', () => {
    expect(
      collect(`
        @McpTools()
        class A {
          /** Public. */
          list() {}
          /** Static. */
          static make() {}
          /** Private name. */
          #hidden() {}
          /** A property without a decorator. */
          plain = 1;
        }`),
    ).toEqual({ A: { methods: { list: { description: 'Public.' } } } });
  });

  it('records decorated properties, and nothing for a class without docblocks', () => {
    expect(
      collect(`
        class Dto {
          /** The name. */
          @IsString() name!: string;
          @IsInt() count!: number;
        }
        class Empty {
          @McpTool() run() {}
        }`),
    ).toEqual({ Dto: { properties: { name: 'The name.' } }, Empty: undefined });
  });

  it('keeps @param tags of named parameters by position, those of patterns left out', () => {
    expect(
      collect(`
        class A {
          /**
           * @param id The id.
           * @param missing Not a parameter.
           * @param options The options.
           */
          @McpTool() run({ a }: { a: string }, id: string, options?: object) {}
        }`),
    ).toEqual({
      A: {
        methods: {
          run: {
            params: [
              { name: 'id', index: 1, description: 'The id.' },
              { name: 'options', index: 2, description: 'The options.' },
            ],
          },
        },
      },
    });
  });
});

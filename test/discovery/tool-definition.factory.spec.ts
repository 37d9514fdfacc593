import { IsString } from 'class-validator';
import { McpConfigurationError, McpTool } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import { definitionFactories, WRAPPER } from './definition-factories.js';

class SearchDto {
  @IsString()
  query!: string;
}

/** Declares its properties, but with no class-validator decorator on any of them. */
class UndecoratedDto {
  query!: string;
  limit?: number;
}

class Catalog {
  @McpTool({ description: 'x' })
  searchProducts(_args: SearchDto) {}

  @McpTool({ description: 'x' })
  getHTTPStatus() {}

  @McpTool({ description: 'x' })
  prixCafé() {}

  @McpTool({ description: 'x' })
  undecorated(_args: UndecoratedDto) {}

  @McpTool({ description: 'x' })
  plain(_args: Record<string, unknown>) {}
}

const create = (method: keyof Catalog, options: Parameters<typeof McpTool>[0] = {}) => {
  const factories = definitionFactories();
  const tool = factories.tools.create(WRAPPER, Catalog, method, options);
  return { tool, warnings: factories.warnings() };
};

const failure = (method: keyof Catalog, options: Parameters<typeof McpTool>[0] = {}) => {
  const run = () => create(method, options);
  expect(run).toThrow(McpConfigurationError);
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return '';
};

describe('ToolDefinitionFactory', () => {
  it('names a tool after its method in snake_case by default', () => {
    expect(create('searchProducts', { description: 'x' }).tool.definition.name).toBe(
      'search_products',
    );
    expect(create('getHTTPStatus', { description: 'x' }).tool.definition.name).toBe(
      'get_http_status',
    );
    expect(create('searchProducts').tool.where).toBe('Catalog.searchProducts');
  });

  it('takes the name given in the options as it is', () => {
    expect(create('searchProducts', { name: 'find', description: 'x' }).tool.definition.name).toBe(
      'find',
    );
  });

  it('refuses a default name the spec forbids, saying how to give one', () => {
    expect(failure('prixCafé', { description: 'x' })).toBe(
      'The tool name "prix_café" of Catalog.prixCafé is not allowed: tool names must match ' +
        '^[a-zA-Z0-9_.-]{1,128}$ (letters, digits, "_", "-" and "." only, at most 128 ' +
        "characters). Give a valid name with @McpTool({ name: 'my_tool' }).",
    );
  });

  it('publishes the schema of the DTO, and of no arguments for a tool without one', () => {
    expect(create('searchProducts', { description: 'x' }).tool.definition.inputSchema).toEqual({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    });
    expect(create('getHTTPStatus', { description: 'x' }).tool.definition.inputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
    });
  });

  it('warns about a tool without a description, naming it', () => {
    expect(create('searchProducts').warnings).toEqual([
      'The tool "search_products" (Catalog.searchProducts) has no description, so models must ' +
        "guess what it does. Add @McpTool({ description: '...' }) or @ApiOperation({ " +
        "description: '...' }).",
    ]);
  });

  it('refuses the "arguments" option without an arguments DTO', () => {
    expect(failure('getHTTPStatus', { description: 'x', arguments: { query: 'Text' } })).toBe(
      'Catalog.getHTTPStatus has the "arguments" option of @McpTool() but takes no arguments ' +
        'DTO: the option describes properties of the DTO. Add the DTO parameter, or drop the ' +
        'option.',
    );
  });

  it('warns about a DTO without class-validator decorators, saying what to add', () => {
    const { tool, warnings } = create('undecorated', { description: 'x' });
    expect(tool.definition.inputSchema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
    expect(warnings).toEqual([
      'UndecoratedDto has no class-validator decorators, so the tool "undecorated" ' +
        '(Catalog.undecorated) takes no arguments: its input schema has no properties, and ' +
        'every call that passes one is refused ("property ... is not allowed; allowed ' +
        'properties: (none)"). TypeScript keeps no trace of a property without a decorator: ' +
        'give each property of UndecoratedDto its rules (@IsString(), @IsInt(), @IsOptional(), ' +
        '@ValidateNested(), ...). For a schema a DTO cannot express, type the parameter as a ' +
        'plain object and give @McpTool({ inputSchema }). If it takes nothing on purpose, drop ' +
        'the parameter.',
    ]);
  });

  it('still refuses, at call time, every argument such a DTO is given (what the warning says)', async () => {
    const { tool } = create('undecorated', { description: 'x' });
    const result = await tool.checkArguments({ query: 'lamp' });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain(
      'property \\"query\\" is not allowed; allowed properties: (none)',
    );
  });

  it('does not warn about a decorated DTO nor about a raw inputSchema', () => {
    expect(create('searchProducts', { description: 'x' }).warnings).toEqual([]);
    const schema = { type: 'object', properties: { n: { type: 'integer' } } } as const;
    const { tool, warnings } = create('plain', { description: 'x', inputSchema: schema });
    expect(warnings).toEqual([]);
    expect(tool.definition.inputSchema).toEqual(schema);
  });

  it('refuses a plain object without an inputSchema, saying it leaves no runtime type', () => {
    expect(failure('plain', { description: 'x' })).toContain(
      'Parameter 0 of Catalog.plain has no DTO class (its type is Object): an interface or a ' +
        'type literal leaves no runtime type',
    );
  });
});

import { IsString } from 'class-validator';
import { McpConfigurationError, McpResource, type McpResourceOptions } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import { definitionFactories, WRAPPER } from './definition-factories.js';

class ItemParams {
  @IsString()
  id!: string;
}

class UndecoratedParams {
  id!: string;
}

interface ItemShape {
  id: string;
}

class Resources {
  @McpResource({ uri: 'x://readme' })
  readMe() {}

  @McpResource({ uri: 'x://items/{id}' })
  itemById(_params: ItemParams) {}

  @McpResource({ uri: 'x://items/{id}' })
  undecorated(_params: UndecoratedParams) {}

  @McpResource({ uri: 'x://items/{id}' })
  shaped(_params: ItemShape) {}

  @McpResource({ uri: 'x://items/{id}/summary' })
  summary() {}
}

const create = (method: keyof Resources, options: McpResourceOptions) => {
  const factories = definitionFactories();
  const resource = factories.resources.create(WRAPPER, Resources, method, options);
  return { resource, warnings: factories.warnings() };
};

describe('ResourceDefinitionFactory', () => {
  it('names a resource after its method in snake_case by default, or as given', () => {
    expect(create('readMe', { uri: 'x://readme' }).resource.definition.name).toBe('read_me');
    expect(create('readMe', { uri: 'x://readme', name: 'README' }).resource.definition.name).toBe(
      'README',
    );
  });

  it('tells a fixed URI from an RFC 6570 template', () => {
    const fixed = create('readMe', { uri: 'x://readme' }).resource;
    expect(fixed.kind).toBe('static');
    expect(fixed.definition).toMatchObject({ uri: 'x://readme', name: 'read_me' });
    const template = create('itemById', { uri: 'x://items/{id}' }).resource;
    expect(template.kind).toBe('template');
    expect(template.definition).toMatchObject({
      uriTemplate: 'x://items/{id}',
      name: 'item_by_id',
    });
  });

  it.each([['readme'], ['/readme'], ['1x://readme'], [undefined]])(
    'refuses the URI %j, which has no scheme',
    (uri) => {
      const run = () => create('readMe', { uri } as never);
      expect(run).toThrow(McpConfigurationError);
      expect(run).toThrow(
        `Resources.readMe: @McpResource() needs a "uri" with a scheme, such as ` +
          `'catalog://categories' or the template 'catalog://products/{sku}'.`,
      );
    },
  );

  it('refuses a variables DTO that declares what the template has not', () => {
    expect(() => create('itemById', { uri: 'x://items/{sku}' })).toThrow(
      'Resources.itemById: the variables DTO ItemParams declares "id", which the URI template ' +
        '"x://items/{sku}" does not have (its variables: sku).',
    );
  });

  it('warns about a variables DTO without class-validator decorators', () => {
    expect(create('undecorated', { uri: 'x://items/{id}' }).warnings).toEqual([
      'UndecoratedParams has no class-validator decorators, so the resource "x://items/{id}" ' +
        '(Resources.undecorated) takes no URI variables: every read of a URI that has one is ' +
        'refused ("property ... is not allowed; allowed properties: (none)"). TypeScript keeps ' +
        'no trace of a property without a decorator: give each property of UndecoratedParams ' +
        'its rules (@IsString(), @IsInt(), @IsOptional(), @ValidateNested(), ...). To take the ' +
        'variables unchecked, type the parameter as a plain object (an interface or ' +
        'Record<string, string>). If it takes nothing on purpose, drop the parameter.',
    ]);
  });

  it('passes the variables of an interface parameter as they came, without a warning', async () => {
    const { resource, warnings } = create('shaped', { uri: 'x://items/{id}' });
    expect(warnings).toEqual([]);
    expect(await resource.checkArguments({ id: '42' })).toEqual({ ok: true, value: { id: '42' } });
  });

  it('reads a template whose method takes no parameter, whatever its variables', async () => {
    const { resource } = create('summary', { uri: 'x://items/{id}/summary' });
    expect(await resource.checkArguments({ id: '42' })).toEqual({ ok: true, value: undefined });
  });
});

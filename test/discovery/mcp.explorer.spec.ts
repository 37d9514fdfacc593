import { Body, Controller, Injectable, Param, type OnModuleInit } from '@nestjs/common';
import {
  McpCompletion,
  McpConfigurationError,
  McpGroup,
  McpHidden,
  McpPrompt,
  McpResource,
  McpTool,
  McpTools,
} from 'nestjs-mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { McpExplorer } from '../../lib/discovery/mcp.explorer.js';
import { bootApp, bootError, closeApps } from './discovery-boot.js';
import { FilterDto, HOW, SearchDto, type SearchShape } from './discovery.fixtures.js';

/** The bootstrap error of an app with this provider, checked to be a configuration error. */
async function configurationError(provider: Function): Promise<string> {
  const error = await bootError([provider as never]);
  expect(error).toBeInstanceOf(McpConfigurationError);
  return error.message;
}

afterEach(closeApps);

describe('bootstrap errors, from a real Nest app', () => {
  it('a second arguments DTO', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'x' })
      search(_search: SearchDto, _filter: FilterDto) {}
    }
    expect(await configurationError(Tools)).toBe(
      `Parameter 1 of Tools.search is a second arguments DTO (parameter 0 is the first). ${HOW}`,
    );
  });

  it('a parameter decorator that means nothing for an MCP call', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'x' })
      item(@Param('id') _id: string) {}
    }
    expect(await configurationError(Tools)).toBe(
      `Parameter 0 of Tools.item has @Param(), which means nothing for an MCP call. ${HOW}`,
    );
  });

  it("@Body('x'): one property of the arguments", async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'x' })
      search(@Body('query') _query: string) {}
    }
    expect(await configurationError(Tools)).toBe(
      `Parameter 0 of Tools.search takes one property ("query") of the arguments. ${HOW}`,
    );
  });

  it('missing type metadata on a decorated method', async () => {
    // Decorated by hand: what a build without emitDecoratorMetadata leaves.
    @Injectable()
    class Tools {
      search(_args: SearchDto) {}
    }
    const descriptor = Object.getOwnPropertyDescriptor(Tools.prototype, 'search')!;
    McpTool({ description: 'x' })(Tools.prototype, 'search', descriptor);
    expect(await configurationError(Tools)).toBe(
      'Tools.search has parameters but no type metadata. Enable "emitDecoratorMetadata" (and ' +
        '"experimentalDecorators") in tsconfig.json, as Nest itself requires.',
    );
  });

  it('missing type metadata on an undecorated method of an @McpTools() class', async () => {
    @McpTools()
    @Injectable()
    class Reports {
      salesByMonth(_query: SearchDto) {}
    }
    expect(await configurationError(Reports)).toBe(
      'Reports.salesByMonth has parameters but no type metadata: TypeScript records the ' +
        'parameter types of a method only when the method itself has a decorator, and this ' +
        'one has none (@McpTools() on the class does not count). Put @McpTool() on it, and ' +
        'check that "emitDecoratorMetadata" is enabled in tsconfig.json.',
    );
  });

  it('an interface as the arguments, saying it leaves no runtime type', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'x' })
      search(_args: SearchShape) {}
    }
    expect(await configurationError(Tools)).toBe(
      'Parameter 0 of Tools.search has no DTO class (its type is Object): an interface or a ' +
        'type literal leaves no runtime type (TypeScript records Object for it, as for any and ' +
        'Record<...>), so no schema can be built from it and no call can be checked. Declare ' +
        'the arguments as a class whose properties have class-validator decorators ' +
        '(@IsString(), @IsInt(), ...), or keep the plain object type and give the raw JSON ' +
        'Schema with @McpTool({ inputSchema }).',
    );
  });

  it('two MCP decorators on one method', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'x' })
      @McpPrompt({ description: 'x' })
      search(_args: SearchDto) {}
    }
    expect(await configurationError(Tools)).toBe(
      'Tools.search has more than one of @McpTool(), @McpPrompt(), @McpResource(), ' +
        '@McpCompletion() and @McpMethod(): a method publishes one thing; split it in two methods.',
    );
  });

  it('a tool that is also a completer', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'x' })
      @McpCompletion({ prompt: 'p', argument: 'a' })
      search() {}
    }
    expect(await configurationError(Tools)).toContain('Tools.search has more than one of');
  });

  it('the "arguments" option without an arguments DTO', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'x', arguments: { query: 'What to look for.' } })
      search() {}
    }
    expect(await configurationError(Tools)).toBe(
      'Tools.search has the "arguments" option of @McpTool() but takes no arguments DTO: the ' +
        'option describes properties of the DTO. Add the DTO parameter, or drop the option.',
    );
  });

  it('a resource URI without a scheme', async () => {
    @Injectable()
    class Resources {
      @McpResource({ uri: 'categories' })
      categories() {}
    }
    expect(await configurationError(Resources)).toBe(
      `Resources.categories: @McpResource() needs a "uri" with a scheme, such as ` +
        `'catalog://categories' or the template 'catalog://products/{sku}'.`,
    );
  });

  it('an empty @McpGroup() name', async () => {
    @McpGroup('')
    @Injectable()
    class Tools {
      @McpTool({ description: 'x' })
      search() {}
    }
    expect(await configurationError(Tools)).toBe(
      `Tools.search: @McpGroup() needs a group name, such as @McpGroup('catalog') (got "").`,
    );
  });

  it('an invalid group version, on the class or on the method', async () => {
    @McpGroup('catalog', { version: [] })
    @Injectable()
    class ClassVersion {
      @McpTool({ description: 'x' })
      search() {}
    }
    expect(await configurationError(ClassVersion)).toBe(
      `ClassVersion.search: a group version must be a non-empty string or a non-empty list ` +
        `of them, such as version: '2' or version: ['1', '2'] (got []).`,
    );
    @Injectable()
    class MethodVersion {
      @McpPrompt({ description: 'x', group: 'catalog', version: '' })
      digest() {}
    }
    expect(await configurationError(MethodVersion)).toBe(
      `MethodVersion.digest: a group version must be a non-empty string or a non-empty list ` +
        `of them, such as version: '2' or version: ['1', '2'] (got "").`,
    );
  });

  it('a version without a group', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'x', version: '2' })
      search() {}
    }
    expect(await configurationError(Tools)).toContain(
      'Tools.search has a version ("2") but no group: versions belong to a group.',
    );
  });
});

describe('bootstrap warnings, captured from the Nest logger', () => {
  class UndecoratedDto {
    query!: string;
  }

  it('warns about a tool whose DTO has no class-validator decorators, and boots', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'Searches.' })
      search(_args: UndecoratedDto) {}
    }
    const { logs, printed } = await bootApp([Tools]);
    const warning = logs
      .messages('warn', 'McpExplorer')
      .find((message) => message.startsWith('UndecoratedDto'));
    expect(warning).toBe(
      'UndecoratedDto has no class-validator decorators, so the tool "search" (Tools.search) ' +
        'takes no arguments: its input schema has no properties, and every call that passes ' +
        'one is refused ("property ... is not allowed; allowed properties: (none)"). ' +
        'TypeScript keeps no trace of a property without a decorator: give each property of ' +
        'UndecoratedDto its rules (@IsString(), @IsInt(), @IsOptional(), @ValidateNested(), ' +
        '...). For a schema a DTO cannot express, type the parameter as a plain object and ' +
        'give @McpTool({ inputSchema }). If it takes nothing on purpose, drop the parameter.',
    );
    expect(printed).not.toContain('UndecoratedDto');
  });

  it('warns about a prompt and a resource template whose DTO has no decorators', async () => {
    @Injectable()
    class Content {
      @McpPrompt({ description: 'x' })
      digest(_args: UndecoratedDto) {}

      @McpResource({ uri: 'x://items/{query}' })
      item(_params: UndecoratedDto) {}
    }
    const { logs } = await bootApp([Content]);
    expect(logs.messages('warn', 'McpExplorer')).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'UndecoratedDto has no class-validator decorators, so the prompt "digest" ' +
            '(Content.digest) takes no arguments',
        ),
        expect.stringContaining(
          'UndecoratedDto has no class-validator decorators, so the resource ' +
            '"x://items/{query}" (Content.item) takes no URI variables',
        ),
      ]),
    );
  });

  it('warns about a prompt whose arguments are an interface', async () => {
    @Injectable()
    class Content {
      @McpPrompt({ description: 'x' })
      digest(_args: SearchShape) {}
    }
    const { logs, printed } = await bootApp([Content]);
    expect(logs.messages('warn', 'McpExplorer')).toContain(
      'the prompt "digest" (Content.digest) takes its arguments as a plain object: an ' +
        'interface or a type literal leaves no runtime type, so prompts/list shows no ' +
        'arguments and none is checked. Declare them as a class whose properties have ' +
        'class-validator decorators (@IsString(), @IsOptional(), ...).',
    );
    expect(printed).not.toContain('plain object');
  });

  it('warns about nothing for well-formed entries', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'Searches.' })
      search(_args: SearchDto) {}
    }
    const { logs } = await bootApp([Tools]);
    expect(logs.messages('warn', 'McpExplorer')).toEqual([]);
  });
});

describe('McpExplorer', () => {
  it("scans the app's providers and controllers, leaving Nest's and its own out of the count", async () => {
    @Injectable()
    class CatalogService {}
    @Controller()
    class CatalogController {}
    const { app } = await bootApp([CatalogService, { provide: 'CONFIG', useValue: { a: 1 } }], {
      controllers: [CatalogController],
    });
    const { scanned } = app.get(McpExplorer, { strict: false }).explore();
    expect(scanned).toEqual({
      providers: ['CatalogService', 'CONFIG'],
      controllers: ['CatalogController'],
    });
  });

  it('publishes the public methods of an @McpTools() class, hooks, _names and hidden ones left out', async () => {
    @McpTools()
    @Injectable()
    class Reports implements OnModuleInit {
      onModuleInit() {}
      _internal() {}
      @McpTool({ description: 'x' })
      salesByMonth(_query: SearchDto) {}
      @McpHidden('Writes to the ledger.')
      close() {}
      summary() {}
    }
    const { app } = await bootApp([Reports]);
    const explored = app.get(McpExplorer, { strict: false }).explore();
    expect(explored.tools.map((tool) => tool.definition.name)).toEqual([
      'sales_by_month',
      'summary',
    ]);
    expect(explored.hidden).toEqual([
      { where: 'Reports.close', reason: 'Writes to the ledger.', membership: {} },
    ]);
  });
});

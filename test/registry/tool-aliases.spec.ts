import { Controller, Get, Injectable } from '@nestjs/common';
import {
  McpConfigurationError,
  McpModule,
  McpResource,
  McpServerHost,
  McpServers,
  McpTool,
} from 'nestjs-mcp';
import { Test } from '@nestjs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CapturedLogs } from '../support/captured-logs.js';
import type { VisibilityCheck } from '../../lib/execution/visibility.factory.js';
import {
  PrimitiveRegistry,
  type RegisteredPrimitive,
} from '../../lib/registry/primitive.registry.js';
// Public through lib/index.ts once the lead exports it.
import { McpNaming } from 'nestjs-mcp';
import { bootApp, bootError, closeApps } from '../discovery/discovery-boot.js';

interface Definition {
  name: string;
}
type Entry = RegisteredPrimitive<Definition>;

const everyone: VisibilityCheck = Object.assign(async () => true, { guarded: false });
const entry = (key: string, aliases?: string[]): Entry => ({
  key,
  definition: { name: key },
  isVisible: everyone,
  ...(aliases && { aliases }),
});
const registryOf = (entries: Entry[]) => new PrimitiveRegistry<Definition, Entry>(entries);
const listed = async (registry: PrimitiveRegistry<Definition, Entry>) =>
  (await registry.page(() => ({}) as never, undefined, 100)).items.map((item) => item.name);

describe('PrimitiveRegistry aliases', () => {
  it('finds the entry by an alias, with the listed key', () => {
    const registry = registryOf([entry('search_catalog', ['Catalog.search'])]);
    expect(registry.get('search_catalog')).toMatchObject({ key: 'search_catalog' });
    expect(registry.get('Catalog.search')).toBe(registry.get('search_catalog'));
    expect(registry.get('search')).toBeUndefined();
  });

  it('never lists an alias, nor counts it', async () => {
    const registry = registryOf([entry('search_catalog', ['Catalog.search']), entry('ping')]);
    expect(await listed(registry)).toEqual(['ping', 'search_catalog']);
    expect(registry.size).toBe(2);
    expect(registry.definitions()).toEqual([{ name: 'ping' }, { name: 'search_catalog' }]);
  });

  it('refuses an alias that is a name or an alias already, and an entry named like an alias', () => {
    const registry = registryOf([entry('search_catalog', ['Catalog.search']), entry('ping')]);
    expect(() => registry.add(entry('other', ['ping']))).toThrow(
      'The alias "ping" of "other" is already the name of "ping": names and aliases must be ' +
        'unique per server.',
    );
    expect(() => registry.add(entry('other', ['Catalog.search']))).toThrow(
      'The alias "Catalog.search" of "other" is already an alias of "search_catalog"',
    );
    expect(() => registry.add(entry('Catalog.search'))).toThrow(
      '"Catalog.search" is already an alias of "search_catalog": names and aliases must be ' +
        'unique per server.',
    );
    expect(() => registry.add(entry('ping'))).toThrow(
      '"ping" is already published; remove it first.',
    );
    expect(() => registryOf([entry('a', ['x']), entry('b', ['x'])])).toThrow(
      'The alias "x" of "b" is already an alias of "a"',
    );
    // A refused entry leaves nothing behind.
    expect(registry.get('other')).toBeUndefined();
  });

  it('withdraws the aliases with their entry, and frees them', () => {
    const registry = registryOf([entry('search_catalog', ['Catalog.search'])]);
    expect(registry.remove('Catalog.search')).toBe(false);
    expect(registry.remove('search_catalog')).toBe(true);
    expect(registry.get('Catalog.search')).toBeUndefined();
    registry.add(entry('Catalog.search'));
    expect(registry.get('Catalog.search')).toMatchObject({ key: 'Catalog.search' });
  });
});

@Injectable()
class CatalogTools {
  @McpTool({ description: 'Searches.', aliases: ['Catalog.search'] })
  searchCatalog() {
    return 'found';
  }

  @McpTool({ description: 'Pings.' })
  ping() {
    return 'pong';
  }
}

@Injectable()
class LegacyTools {
  @McpTool({ description: 'Old pings.', aliases: ['ping'] })
  oldPing() {
    return 'pong';
  }
}

@Injectable()
class OtherSearch {
  @McpTool({ description: 'Searches elsewhere.', aliases: ['Catalog.search'] })
  searchElsewhere() {
    return 'found';
  }
}

@Controller('orders')
class OrdersController {
  @McpTool({ description: 'Finds an order.' })
  @Get(':id')
  findOne() {
    return 'order';
  }

  @McpTool({ description: 'Counts orders.', name: 'count_orders' })
  count() {
    return 3;
  }
}

const names = (host: McpServerHost) => host.tools().map((tool) => tool.name);

describe('aliases and names at bootstrap', () => {
  afterEach(closeApps);

  it('fails when an alias is the name of another tool, naming both methods', async () => {
    const error = await bootError([CatalogTools, LegacyTools]);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toBe(
      'The tool alias "ping" of LegacyTools.oldPing is also the name of a tool of ' +
        'CatalogTools.ping. Names and aliases must be unique per server: drop or rename one.',
    );
  });

  it('fails when two tools claim the same alias', async () => {
    const error = await bootError([CatalogTools, OtherSearch]);
    expect(error.message).toContain(
      'The tool alias "Catalog.search" of OtherSearch.searchElsewhere is also the alias of a ' +
        'tool of CatalogTools.searchCatalog.',
    );
  });

  it('fails on an alias the name pattern refuses', async () => {
    @Injectable()
    class BadAlias {
      @McpTool({ description: 'x', aliases: ['Catalog search'] })
      run() {}
    }
    const error = await bootError([BadAlias]);
    expect(error.message).toContain('The alias "Catalog search" of BadAlias.run is not allowed');
  });

  it('checks the aliases of a tool added at run time', async () => {
    const { app } = await bootApp([CatalogTools]);
    const host = app.get(McpServerHost);
    class Extra {
      report() {
        return 'r';
      }
    }
    expect(() =>
      host.addTool(new Extra(), 'report', { description: 'r', aliases: ['Catalog.search'] }),
    ).toThrow('The alias "Catalog.search" of "report" is already an alias of "search_catalog"');
    expect(names(host)).toEqual(['ping', 'search_catalog']);
  });
});

describe('the naming option', () => {
  afterEach(closeApps);

  it('keeps today’s default names without it', async () => {
    const { app } = await bootApp([CatalogTools], { controllers: [OrdersController] });
    expect(names(app.get(McpServerHost))).toEqual([
      'count_orders',
      'find_one',
      'ping',
      'search_catalog',
    ]);
  });

  it('names each server’s tools its own way; an explicit name always wins', async () => {
    const { app } = await bootApp([CatalogTools], {
      controllers: [OrdersController],
      options: [
        { name: 'qualified', version: '1', http: false, naming: McpNaming.qualified },
        {
          name: 'routes',
          version: '1',
          http: false,
          naming: ({ method, route }) =>
            route ? McpNaming.normalize(`${route.method} ${route.path}`) : `tool.${method}`,
        },
      ],
    });
    const servers = app.get(McpServers);
    expect(names(servers.get('qualified'))).toEqual([
      'catalog_ping',
      'catalog_search_catalog',
      'count_orders',
      'orders_find_one',
    ]);
    expect(names(servers.get('routes'))).toEqual([
      'count_orders',
      'get_orders_id',
      'tool.ping',
      'tool.searchCatalog',
    ]);
  });

  it('is read from what a forRootAsync() factory returns', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRootAsync({
          useFactory: async () => ({
            name: 'async',
            version: '1',
            http: false as const,
            naming: McpNaming.qualified,
          }),
        }),
      ],
      providers: [CatalogTools],
    })
      .setLogger(new CapturedLogs())
      .compile();
    const app = await moduleRef.createNestApplication({ logger: false }).init();
    try {
      expect(names(app.get(McpServerHost))).toEqual(['catalog_ping', 'catalog_search_catalog']);
    } finally {
      await app.close();
    }
  });

  it('names tools added at run time too', async () => {
    const { app } = await bootApp([CatalogTools], {
      options: { name: 'x', version: '1', http: false, naming: McpNaming.qualified },
    });
    class ReportTools {
      quarterly() {
        return 'q';
      }
    }
    const host = app.get(McpServerHost);
    host.addTool(new ReportTools(), 'quarterly', { description: 'Q.' });
    expect(names(host)).toContain('report_quarterly');
  });

  it('fails the bootstrap naming the method when it returns no tool name', async () => {
    const error = await bootError([CatalogTools], {
      options: { name: 'x', version: '1', http: false, naming: ({ method }) => `${method}!` },
    });
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain(
      'The "naming" option of McpModule returned "searchCatalog!" for CatalogTools.searchCatalog, ' +
        'which is not a tool name',
    );
  });

  it('checks collisions among the names it gives', async () => {
    const error = await bootError([CatalogTools], {
      options: { name: 'x', version: '1', http: false, naming: () => 'same' },
    });
    expect(error.message).toContain(
      'The tool name "same" is used by CatalogTools.searchCatalog and CatalogTools.ping',
    );
  });
});

describe('the naming and manifest options', () => {
  afterEach(closeApps);

  it.each([
    [{ naming: 'snake' }, '"naming" must be a function of { class, method, route }'],
    [
      { manifest: 'manifest' },
      '"manifest" must be true (published at mcp://<name>/manifest), false, or the URI',
    ],
    [{ manifest: 'mcp://x/{id}' }, '"manifest" must be true'],
    [{ manifest: 1 }, '"manifest" must be true'],
  ])('refuses %j', async (extra, message) => {
    const error = await bootError([CatalogTools], {
      options: { name: 'x', version: '1', http: false, ...(extra as object) },
    });
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain(message);
  });

  it('publishes the manifest at mcp://<name>/manifest, or at the URI given', async () => {
    const { app } = await bootApp([CatalogTools], {
      options: [
        { name: 'shop', version: '1', http: false, manifest: true },
        { name: 'ops', version: '1', http: false, manifest: 'mcp://ops/system/manifest' },
        { name: 'plain', version: '1', http: false },
      ],
    });
    const servers = app.get(McpServers);
    const uris = (server: string) =>
      servers
        .get(server)
        .resources()
        .map((r) => r.uri);
    expect(uris('shop')).toEqual(['mcp://shop/manifest']);
    expect(servers.get('shop').resources()[0]).toMatchObject({ mimeType: 'application/json' });
    expect(uris('ops')).toEqual(['mcp://ops/system/manifest']);
    expect(uris('plain')).toEqual([]);
  });

  it('fails when an app resource already uses the manifest URI', async () => {
    @Injectable()
    class Pages {
      @McpResource({ uri: 'mcp://shop/manifest', description: 'Ours.' })
      manifest() {
        return 'ours';
      }
    }
    const error = await bootError([Pages], {
      options: { name: 'shop', version: '1', http: false, manifest: true },
    });
    expect(error.message).toContain(
      'The manifest of the MCP server "shop" would be published at mcp://shop/manifest, which a ' +
        'resource of the app already uses.',
    );
  });
});

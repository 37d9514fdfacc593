import {
  Injectable,
  Logger,
  Module,
  type INestApplication,
  type OnModuleInit,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import {
  McpCompletion,
  McpConfigurationError,
  McpEvents,
  McpGroup,
  McpModule,
  McpPrompt,
  McpServerHost,
  McpServers,
  McpTool,
  McpTools,
} from 'nestjs-mcp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listServers, selectServer } from '../../lib/transports/server.selector.js';
import { captureLogs } from '../support/captured-logs.js';
import { postModern } from '../support/mcp-post.js';

// An error logged that no test expects fails that test (and is shown in full).
const logs = captureLogs();

class QueryDto {
  @IsString()
  text!: string;
}

/** Ungrouped, with one method that joins the catalog group on its own. */
@Injectable()
class AdminTools {
  @McpTool({ description: 'Reindexes everything.' })
  reindex() {
    return 'reindexed';
  }

  @McpTool({ description: 'Catalog health, from the admin service.', group: 'catalog' })
  catalogHealth() {
    return 'healthy';
  }
}

@McpGroup('catalog')
@Injectable()
class CatalogTools {
  @McpTool({ description: 'Pings the catalog.' })
  ping() {
    return 'pong';
  }

  @McpTool({ description: 'Searches, version 1.', version: '1' })
  search(query: QueryDto) {
    return `v1:${query.text}`;
  }

  @McpTool({ description: 'Searches, version 2.', name: 'search', version: '2' })
  searchV2(query: QueryDto) {
    return `v2:${query.text}`;
  }

  @McpTool({ description: 'In both versions.', version: ['1', '2'] })
  categories() {
    return ['books'];
  }

  @McpTool({ description: 'Moved to the admin server.', group: 'ops' })
  drain() {
    return 'drained';
  }
}

@McpGroup('catalog', { version: '2' })
@Injectable()
class CatalogV2Only {
  @McpTool({ description: 'New in version 2.' })
  recommend() {
    return 'recommended';
  }

  @McpTool({ description: 'Back-ported to version 1.', version: '1' })
  legacyExport() {
    return 'exported';
  }
}

const toolNames = (host: McpServerHost) =>
  host
    .tools()
    .map((tool) => tool.name)
    .toSorted();

/** One helper, two registrations: metadata that serialises alike. */
const registerGroupServer = (name: string) =>
  McpModule.forRootAsync({
    useFactory: () => ({ name, version: '1', group: name, http: { path: name } }),
  });

let app: INestApplication | undefined;

async function boot(
  imports: unknown[],
  providers: unknown[] = [],
  moduleIdGeneratorAlgorithm?: 'deep-hash' | 'reference',
) {
  const moduleRef = await Test.createTestingModule(
    { imports: imports as never[], providers: providers as never[] },
    { moduleIdGeneratorAlgorithm },
  ).compile();
  app = moduleRef.createNestApplication({ logger: logs });
  await app.init();
  return app;
}

const bootError = (imports: unknown[], providers: unknown[] = []) =>
  boot(imports, providers).then(
    () => undefined,
    (error: Error) => error,
  );

afterEach(async () => {
  await app?.close();
  app = undefined;
  vi.restoreAllMocks();
});

describe('Several MCP servers in one app', () => {
  it('gives each forRoot registration its own server, path and entries, and none leak onto the default server', async () => {
    await boot(
      [
        McpModule.forRoot({ name: 'admin', version: '1.0.0', http: { path: 'mcp/admin' } }),
        McpModule.forRoot({
          name: 'catalog',
          version: '1.0.0',
          group: 'catalog',
          http: { path: 'mcp/catalog' },
        }),
        McpModule.forRoot({
          name: 'ops',
          version: '1.0.0',
          group: 'ops',
          http: { path: 'mcp/ops' },
        }),
      ],
      [AdminTools, CatalogTools, CatalogV2Only],
    );
    const servers = app!.get(McpServers);
    expect(servers.names()).toEqual(['admin', 'catalog', 'ops']);
    expect(toolNames(servers.get('admin'))).toEqual(['reindex']);
    // Without a groupVersion: only the group's entries without a version.
    expect(toolNames(servers.get('catalog'))).toEqual(['catalog_health', 'ping']);
    // A method's own group wins over the class's.
    expect(toolNames(servers.get('ops'))).toEqual(['drain']);

    const admin = await postModern(app!, '/mcp/admin', 'server/discover');
    expect(admin.message.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'admin',
    });
    const call = await postModern(app!, '/mcp/catalog', 'tools/call', {
      name: 'ping',
      arguments: {},
    });
    expect(call.message.result.content).toEqual([{ type: 'text', text: 'pong' }]);
    const foreign = await postModern(app!, '/mcp/admin', 'tools/call', {
      name: 'ping',
      arguments: {},
    });
    expect(foreign.message.error).toMatchObject({ code: -32602 });
  });

  it('publishes version-2 entries on the v2 server and version-1 entries on the v1 server, with the group version-less entries on both', async () => {
    await boot(
      [
        McpModule.forRoot({
          name: 'catalog-v1',
          version: '1.4.0',
          group: 'catalog',
          groupVersion: '1',
          http: { path: 'mcp/catalog/v1' },
        }),
        McpModule.forRoot({
          name: 'catalog-v2',
          version: '2.0.0',
          group: 'catalog',
          groupVersion: '2',
          http: { path: 'mcp/catalog/v2' },
        }),
      ],
      [AdminTools, CatalogTools, CatalogV2Only],
    );
    const servers = app!.get(McpServers);
    expect(toolNames(servers.get('catalog-v1'))).toEqual([
      'catalog_health',
      'categories',
      'legacy_export',
      'ping',
      'search',
    ]);
    expect(toolNames(servers.get('catalog-v2'))).toEqual([
      'catalog_health',
      'categories',
      'ping',
      'recommend',
      'search',
    ]);
    // The same tool name on two servers is no collision: each runs its own method.
    for (const [path, expected] of [
      ['/mcp/catalog/v1', 'v1:x'],
      ['/mcp/catalog/v2', 'v2:x'],
    ]) {
      const { message } = await postModern(app!, path!, 'tools/call', {
        name: 'search',
        arguments: { text: 'x' },
      });
      expect(message.result.content).toEqual([{ type: 'text', text: expected }]);
    }
  });

  it('publishes the entries of a provider shared by several modules only on the servers they belong to', async () => {
    @Module({ providers: [AdminTools, CatalogTools], exports: [AdminTools, CatalogTools] })
    class SharedToolsModule {}

    @Injectable()
    class AdminStatus {
      constructor(readonly host: McpServerHost) {}
    }
    @Injectable()
    class CatalogStatus {
      constructor(readonly host: McpServerHost) {}
    }

    @Module({
      imports: [
        SharedToolsModule,
        McpModule.forRoot({ name: 'admin', version: '1', http: { path: 'admin' } }),
      ],
      providers: [AdminStatus],
    })
    class AdminFeatureModule {}

    @Module({
      imports: [
        SharedToolsModule,
        McpModule.forRoot({ name: 'catalog', version: '1', group: 'catalog', http: false }),
      ],
      providers: [CatalogStatus],
    })
    class CatalogFeatureModule {}

    await boot([AdminFeatureModule, CatalogFeatureModule]);
    const servers = app!.get(McpServers);
    expect(toolNames(servers.get('admin'))).toEqual(['reindex']);
    expect(toolNames(servers.get('catalog'))).toEqual(['catalog_health', 'ping']);
    // Injecting McpServerHost still works where one server is imported.
    expect(app!.get(AdminStatus).host.options.name).toBe('admin');
    expect(app!.get(CatalogStatus).host.options.name).toBe('catalog');
  });

  it.each(['reference', 'deep-hash'] as const)(
    'keeps two forRootAsync registrations built by one helper apart (module ids by %s; deep-hash would merge modules that serialise alike)',
    async (algorithm) => {
      await boot([registerGroupServer('alpha'), registerGroupServer('beta')], [], algorithm);
      expect(app!.get(McpServers).names()).toEqual(['alpha', 'beta']);
      expect((await postModern(app!, '/alpha', 'server/discover')).status).toBe(200);
      expect((await postModern(app!, '/beta', 'server/discover')).status).toBe(200);
    },
  );

  it('lets a provider reach each server by name through McpServers', async () => {
    @Injectable()
    class Reports {
      summary() {
        return 'summary';
      }
    }
    @Injectable()
    class Publisher implements OnModuleInit {
      constructor(
        private readonly servers: McpServers,
        private readonly reports: Reports,
      ) {}

      onModuleInit() {
        this.servers
          .get('catalog')
          .addTool(this.reports, 'summary', { description: 'Added at run time.' });
      }
    }
    await boot(
      [
        McpModule.forRoot({ name: 'admin', version: '1', http: false }),
        McpModule.forRoot({ name: 'catalog', version: '1', group: 'catalog', http: false }),
      ],
      [Reports, Publisher],
    );
    const servers = app!.get(McpServers);
    expect(toolNames(servers.get('catalog'))).toEqual(['summary']);
    expect(toolNames(servers.get('admin'))).toEqual([]);
    expect(() => servers.get('nope')).toThrow(
      'There is no MCP server named "nope"; the app\'s servers are: admin, catalog.',
    );
  });

  it('publishes the tool-call events of every server on one McpEvents, each naming its server', async () => {
    await boot(
      [
        McpModule.forRoot({ name: 'admin', version: '1', http: { path: 'admin' } }),
        McpModule.forRoot({
          name: 'catalog',
          version: '1',
          group: 'catalog',
          http: { path: 'catalog' },
        }),
      ],
      [AdminTools, CatalogTools],
    );
    const seen: string[] = [];
    const subscription = app!
      .get(McpEvents)
      .toolCalled.subscribe((event) => seen.push(`${event.server}:${event.tool}`));
    await postModern(app!, '/admin', 'tools/call', { name: 'reindex', arguments: {} });
    await postModern(app!, '/catalog', 'tools/call', { name: 'ping', arguments: {} });
    await vi.waitFor(() => expect(seen.toSorted()).toEqual(['admin:reindex', 'catalog:ping']));
    subscription.unsubscribe();
  });

  it('selects a server by name for stdio and the CLI, and lists the names when the choice is missing or wrong', async () => {
    await boot([
      McpModule.forRoot({ name: 'admin', version: '1', http: false }),
      McpModule.forRoot({ name: 'catalog', version: '1', group: 'catalog', http: false }),
    ]);
    expect(listServers(app!).map((server) => server.options.name)).toEqual(['admin', 'catalog']);
    expect(selectServer(app!, 'catalog').options.name).toBe('catalog');
    expect(() => selectServer(app!)).toThrow(
      'The module has 2 MCP servers (admin, catalog): choose one by name',
    );
    expect(() => selectServer(app!, 'shop')).toThrow(
      'The module has no MCP server named "shop"; its servers are: admin, catalog.',
    );
  });

  it('attaches a completer to every server that publishes its target, wherever the completer lives', async () => {
    class RestockDto {
      @IsString()
      category!: string;
    }
    @McpGroup('catalog')
    @Injectable()
    class CatalogPrompts {
      @McpPrompt({ description: 'Plans a restock.' })
      restockPlan(args: RestockDto) {
        return `Restock ${args.category}`;
      }
    }
    @Injectable()
    class Categories {
      @McpCompletion({ prompt: 'restock_plan', argument: 'category' })
      complete(prefix: string) {
        return ['books', 'bikes', 'toys'].filter((value) => value.startsWith(prefix));
      }
    }
    await boot(
      [
        McpModule.forRoot({ name: 'admin', version: '1', http: { path: 'admin' } }),
        McpModule.forRoot({
          name: 'catalog',
          version: '1',
          group: 'catalog',
          http: { path: 'catalog' },
        }),
      ],
      [CatalogPrompts, Categories],
    );
    const { message } = await postModern(app!, '/catalog', 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'restock_plan' },
      argument: { name: 'category', value: 'b' },
    });
    expect(message.result.completion.values).toEqual(['books', 'bikes']);
  });

  it('lets an ungrouped completer serve the servers whose target has its argument, and no other', async () => {
    class ReorderV1 {
      @IsString()
      supplier!: string;
    }
    class ReorderV2 {
      @IsString()
      vendor!: string;
    }
    @Injectable()
    class Purchasing {
      @McpPrompt({ description: 'Reorders from a supplier.' })
      reorder(args: ReorderV1) {
        return `Reorder from ${args.supplier}`;
      }
    }
    // A grouped server publishes its own prompt of the same name, without that argument.
    @McpGroup('shop')
    @Injectable()
    class ShopPurchasing {
      @McpPrompt({ description: 'Reorders from a vendor.' })
      reorder(args: ReorderV2) {
        return `Reorder from ${args.vendor}`;
      }
    }
    @Injectable()
    class Suppliers {
      @McpCompletion({ prompt: 'reorder', argument: 'supplier' })
      complete(prefix: string) {
        return ['Acme', 'Birch'].filter((value) => value.startsWith(prefix));
      }
    }
    await boot(
      [
        McpModule.forRoot({ name: 'main', version: '1', http: { path: 'main' } }),
        McpModule.forRoot({ name: 'shop', version: '1', group: 'shop', http: { path: 'shop' } }),
      ],
      [Purchasing, ShopPurchasing, Suppliers],
    );
    const complete = (path: string, argument: string) =>
      postModern(app!, path, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'reorder' },
        argument: { name: argument, value: 'A' },
      });
    expect((await complete('/main', 'supplier')).message.result.completion.values).toEqual([
      'Acme',
    ]);
    // The shop's prompt has no such argument, and its own argument no completer.
    expect((await complete('/shop', 'vendor')).message.result.completion.values).toEqual([]);
    const prompt = await postModern(app!, '/shop', 'prompts/get', {
      name: 'reorder',
      arguments: { vendor: 'Birch' },
    });
    expect(prompt.message.result.messages[0].content.text).toBe('Reorder from Birch');
  });

  it('still stops the bootstrap for a completer whose argument no server’s target has', async () => {
    class ReorderArgs {
      @IsString()
      supplier!: string;
    }
    @Injectable()
    class Purchasing {
      @McpPrompt({ description: 'Reorders.' })
      reorder(args: ReorderArgs) {
        return `Reorder from ${args.supplier}`;
      }
    }
    @Injectable()
    class Notes {
      @McpCompletion({ prompt: 'reorder', argument: 'note' })
      complete() {
        return [];
      }
    }
    const error = await bootError(
      [McpModule.forRoot({ name: 'main', version: '1' })],
      [Purchasing, Notes],
    );
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error!.message).toContain('Notes.complete');
    expect(error!.message).toContain('supplier');
  });

  it('fails bootstrap when two servers claim the same HTTP path, naming both', async () => {
    const error = await bootError([
      McpModule.forRoot({ name: 'admin', version: '1', http: { path: '/mcp/' } }),
      McpModule.forRoot({ name: 'catalog', version: '1', group: 'catalog' }),
    ]);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error!.message).toContain(
      'The MCP servers "admin" and "catalog" both claim the HTTP path "/mcp".',
    );
  });

  it('fails bootstrap when two servers have the same name', async () => {
    const error = await bootError([
      McpModule.forRoot({ name: 'catalog', version: '1', http: { path: 'a' } }),
      McpModule.forRoot({ name: 'catalog', version: '2', http: { path: 'b' } }),
    ]);
    expect(error!.message).toContain('Two McpModule registrations are named "catalog"');
  });

  it('scans the app once for all its servers', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    @Injectable()
    class Undocumented {
      @McpTool()
      listThings() {}
    }
    await boot(
      [
        McpModule.forRoot({ name: 'a', version: '1', http: false }),
        McpModule.forRoot({ name: 'b', version: '1', group: 'b', http: false }),
        McpModule.forRoot({ name: 'c', version: '1', group: 'c', http: false }),
      ],
      [Undocumented],
    );
    const warnings = warn.mock.calls.filter(([message]) =>
      String(message).includes('Undocumented.listThings'),
    );
    expect(warnings).toHaveLength(1);
  });

  it('checks name collisions per server: a duplicate within one server still fails', async () => {
    @McpGroup('catalog', { version: '2' })
    @Injectable()
    class Clash {
      @McpTool({ description: 'x', name: 'search' })
      find() {}
    }
    const error = await bootError(
      [
        McpModule.forRoot({
          name: 'catalog-v2',
          version: '2',
          group: 'catalog',
          groupVersion: '2',
        }),
      ],
      [CatalogTools, Clash],
    );
    expect(error!.message).toContain(
      'The tool name "search" is used by CatalogTools.searchV2 and Clash.find',
    );
  });

  it('fails bootstrap on a version without a group, naming the method', async () => {
    @Injectable()
    class Versionless {
      @McpTool({ description: 'x', version: '2' })
      run() {}
    }
    const error = await bootError([McpModule.forRoot({ name: 'x', version: '1' })], [Versionless]);
    expect(error!.message).toContain('Versionless.run has a version ("2") but no group');
  });

  it('applies @McpGroup to every tool of an @McpTools class', async () => {
    @McpGroup('reports', { version: ['1', '2'] })
    @McpTools()
    @Injectable()
    class ReportTools {
      daily() {}
    }
    await boot(
      [
        McpModule.forRoot({ name: 'default', version: '1', http: false }),
        McpModule.forRoot({
          name: 'reports',
          version: '1',
          group: 'reports',
          groupVersion: '2',
          http: false,
        }),
      ],
      [ReportTools],
    );
    const servers = app!.get(McpServers);
    expect(toolNames(servers.get('reports'))).toEqual(['daily']);
    expect(toolNames(servers.get('default'))).toEqual([]);
  });

  it.each([
    [{ group: '' }, '"group" must be a non-empty string'],
    [{ groupVersion: '2' }, '"groupVersion" needs "group"'],
    [{ group: 'catalog', groupVersion: 2 }, '"groupVersion" must be a non-empty string'],
  ])('fails bootstrap on group options %j', async (extra, problem) => {
    const error = await bootError([
      McpModule.forRoot({ name: 'x', version: '1', ...extra } as never),
    ]);
    expect(error!.message).toContain(problem);
  });
});

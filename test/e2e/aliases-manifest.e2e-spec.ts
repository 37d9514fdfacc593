import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { IsString } from 'class-validator';
import {
  McpContext,
  McpEvents,
  McpHidden,
  McpModule,
  McpScopes,
  McpTool,
  type McpCallContext,
  type McpToolCalledEvent,
} from 'nestjs-mcp';
import { McpTestClient, type McpTestProtocolVersion } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';

class SearchDto {
  @IsString()
  text!: string;
}

@Injectable()
class CatalogTools {
  @McpTool({
    title: 'Search the catalog',
    description: 'Finds products by text.',
    annotations: { readOnlyHint: true },
    aliases: ['Catalog.search', 'catalog-find'],
  })
  @McpScopes('catalog.read')
  searchCatalog(query: SearchDto, @McpContext() context: McpCallContext) {
    return `${context.name}: results for ${query.text}`;
  }

  @McpTool({ description: 'Changes a product.', annotations: { destructiveHint: false } })
  @McpScopes('catalog.read', 'catalog.write')
  updateProduct() {
    return 'updated';
  }

  @McpTool({ description: 'Exports the whole catalog.' })
  @McpScopes({ any: ['catalog.admin', 'ops'] })
  exportCatalog() {
    return 'exported';
  }

  @McpTool({ description: 'Answers pong.' })
  ping() {
    return 'pong';
  }

  @McpTool({ description: 'Charges the card.' })
  @McpHidden('Only the checkout flow may charge a card.')
  chargeCard() {
    return 'charged';
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'catalog',
      version: '1.0.0',
      manifest: true,
      // The caller's scopes, space-separated, as an OAuth token would carry them.
      callerScopes: (request) => request.headers['x-scopes'],
    }),
  ],
  providers: [CatalogTools],
})
class AliasesManifestModule {}

const READER = { 'x-scopes': 'catalog.read' };
const ADMIN = { 'x-scopes': 'catalog.read catalog.write catalog.admin' };
const ERAS: readonly McpTestProtocolVersion[] = ['2026-07-28', '2025-11-25'];
const MANIFEST = 'mcp://catalog/manifest';

interface Manifest {
  server: string;
  tools: Array<{ name: string; scopes: string[]; scopeMatch?: string } & Record<string, unknown>>;
}

/** The manifest as `client` reads it. */
const manifestAs = async (client: McpTestClient): Promise<Manifest> => {
  const answer = await client.readResource(MANIFEST).assertOk();
  const [content] = answer.result!.contents as Array<{ text: string; mimeType: string }>;
  expect(content!.mimeType).toBe('application/json');
  return JSON.parse(content!.text) as Manifest;
};

describe('tool aliases and the manifest resource', () => {
  const logs = captureLogs();
  let running: RunningApp;
  let app: INestApplication;
  const clients: McpTestClient[] = [];
  const events: McpToolCalledEvent[] = [];

  const connect = async (protocolVersion: McpTestProtocolVersion) => {
    const client = await McpTestClient.connect(app, { protocolVersion, headers: READER });
    clients.push(client);
    return client;
  };

  const deprecations = () =>
    logs
      .messages('warn', 'DeprecatedAliases')
      .filter((message) => message.includes('deprecated alias'));

  beforeAll(async () => {
    running = await startApp(AliasesManifestModule, { logger: logs });
    app = running.app;
    app.get(McpEvents).toolCalled.subscribe((event) => events.push(event));
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await running.close();
  });

  describe.each(ERAS)('an alias, on %s', (era) => {
    it('is called as the tool, which sees its listed name', async () => {
      const mcp = await connect(era);
      await mcp
        .callTool('Catalog.search', { text: 'kettle' })
        .assertOk()
        .assertText('search_catalog: results for kettle');
      await mcp
        .callTool('Catalog.search', { text: 'mug' })
        .assertOk()
        .assertText('search_catalog: results for mug');
      await mcp
        .callTool('search_catalog', { text: 'kettle' })
        .assertOk()
        .assertText('search_catalog: results for kettle');
      // Once per alias and process: the first era's calls warned, the second era's do not.
      expect(deprecations()).toEqual(
        era === ERAS[0]
          ? [
              'A client called the tool "Catalog.search", a deprecated alias of ' +
                '"search_catalog": it still works, but tools/list shows only "search_catalog"; ' +
                'move clients to that name, then drop the alias from @McpTool({ aliases }).',
            ]
          : [],
      );
    });

    it('is never listed', async () => {
      const mcp = await connect(era);
      const answer = await mcp
        .listTools()
        .assertToolListed('search_catalog')
        .assertToolNotListed('Catalog.search')
        .assertToolNotListed('catalog-find');
      expect(JSON.stringify(answer.result)).not.toContain('Catalog.search');
    });

    it('checks arguments and scopes as the tool does', async () => {
      const mcp = await connect(era);
      await mcp.callTool('Catalog.search', {}).assertError('text must be a string');
      await mcp
        .as({ 'x-scopes': 'ops' })
        .callTool('Catalog.search', { text: 'kettle' })
        .assertError('catalog.read');
    });
  });

  it('warns once for each alias of its own', async () => {
    for (const era of ERAS) {
      const mcp = await connect(era);
      await mcp.callTool('catalog-find', { text: 'mug' }).assertOk();
      await mcp.callTool('Catalog.search', { text: 'cup' }).assertOk();
    }
    // Catalog.search warned in an earlier test already.
    expect(deprecations()).toEqual([
      expect.stringContaining('"catalog-find", a deprecated alias of "search_catalog"'),
    ]);
  });

  it('reports the listed name in McpEvents', async () => {
    events.length = 0;
    const mcp = await connect('2026-07-28');
    await mcp.callTool('Catalog.search', { text: 'lamp' }).assertOk();
    expect(events.map((event) => event.tool)).toEqual(['search_catalog']);
  });

  it('refuses a name that is neither a name nor an alias with -32602', async () => {
    const mcp = await connect('2026-07-28');
    await mcp.callTool('Catalog.find', { text: 'x' }).assertError(-32602);
  });

  it('lists the manifest among the resources', async () => {
    const mcp = await connect('2025-11-25');
    const answer = await mcp.listResources().assertOk();
    expect(answer.result!.resources).toContainEqual(
      expect.objectContaining({ uri: MANIFEST, name: 'manifest', mimeType: 'application/json' }),
    );
  });

  it.each(ERAS)(
    'gives a reader and an admin the tools their scopes let them call, on %s',
    async (era) => {
      const reader = await connect(era);
      const admin = reader.as(ADMIN);
      const forReader = await manifestAs(reader);
      const forAdmin = await manifestAs(admin);
      expect(forReader.server).toBe('catalog');
      expect(forReader.tools).toEqual([
        { name: 'ping', description: 'Answers pong.', scopes: [] },
        {
          name: 'search_catalog',
          title: 'Search the catalog',
          description: 'Finds products by text.',
          annotations: { readOnlyHint: true },
          scopes: ['catalog.read'],
        },
      ]);
      expect(forAdmin.tools.map((tool) => tool.name)).toEqual([
        'export_catalog',
        'ping',
        'search_catalog',
        'update_product',
      ]);
      expect(forAdmin.tools.find((tool) => tool.name === 'export_catalog')).toEqual({
        name: 'export_catalog',
        description: 'Exports the whole catalog.',
        scopes: ['catalog.admin', 'ops'],
        scopeMatch: 'any',
      });
      expect(forAdmin.tools.find((tool) => tool.name === 'update_product')?.scopes).toEqual([
        'catalog.read',
        'catalog.write',
      ]);
      // The difference is exactly the tools that need a scope the admin has and the reader not.
      const readerScopes = new Set(READER['x-scopes'].split(' '));
      const onlyAdmin = forAdmin.tools.filter(
        (tool) => !forReader.tools.some((seen) => seen.name === tool.name),
      );
      for (const tool of onlyAdmin) {
        const held = tool.scopes.filter((scope) => readerScopes.has(scope));
        expect(
          tool.scopeMatch === 'any' ? held.length === 0 : held.length < tool.scopes.length,
        ).toBe(true);
      }
      // What each sees in the manifest is what tools/list shows it.
      const listed = await admin.listTools().assertOk();
      expect(listed.result!.tools.map((tool) => tool.name)).toEqual(
        forAdmin.tools.map((tool) => tool.name),
      );
    },
  );

  it('leaves out hidden tools and aliases', async () => {
    const manifest = await manifestAs((await connect('2026-07-28')).as(ADMIN));
    const text = JSON.stringify(manifest);
    expect(text).not.toContain('charge');
    expect(text).not.toContain('Catalog.search');
  });

  it('follows tools added at run time', async () => {
    const mcp = (await connect('2026-07-28')).as(ADMIN);
    const { McpServerHost } = await import('nestjs-mcp');
    const host = app.get(McpServerHost);
    class ReportTools {
      report() {
        return 'report';
      }
    }
    const extra = new ReportTools();
    host.addTool(extra, 'report', { description: 'A report.', aliases: ['Reports.get'] });
    try {
      expect((await manifestAs(mcp)).tools.map((tool) => tool.name)).toContain('report');
      await mcp.callTool('Reports.get').assertOk().assertText('report');
    } finally {
      host.removeTool('report');
    }
    expect((await manifestAs(mcp)).tools.map((tool) => tool.name)).not.toContain('report');
    await mcp.callTool('Reports.get').assertError(-32602);
  });
});

import { Controller, Injectable } from '@nestjs/common';
import { McpGroup, McpResource, McpTool } from 'nestjs-mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyServerReport } from '../../lib/discovery/empty-server.report.js';
import type { ExploredPrimitives } from '../../lib/discovery/mcp.explorer.js';
import { bootApp, closeApps } from './discovery-boot.js';

const CAUSES =
  'Likely causes:\n' +
  '  - the class is not in the "providers" (or "controllers") of a module the app imports\n' +
  '  - its methods lack @McpTool(), @McpPrompt() or @McpResource() (or the class lacks ' +
  '@McpTools())';
const RUN_TIME =
  "If this server's entries are added at run time (McpServerHost#addTool()), ignore this.";

@Injectable()
class CatalogService {
  search() {
    return [];
  }
}

@Controller()
class CatalogController {}

@Injectable()
class UngroupedTools {
  @McpTool({ description: 'x' })
  ping() {}

  @McpResource({ uri: 'x://readme' })
  readme() {}
}

@McpGroup('orders', { version: '2' })
@Injectable()
class OrdersV2Tools {
  @McpTool({ description: 'x' })
  placeOrder() {}
}

@McpGroup('catalog')
@Injectable()
class WithdrawnCatalogTools {
  @McpTool({ description: 'x', hidden: 'Withdrawn until the new pricing ships.' })
  reprice() {}
}

afterEach(closeApps);

describe('a server that publishes nothing', () => {
  it('warns, naming what was scanned and the likely causes, instead of an info line', async () => {
    const { logs, printed } = await bootApp([CatalogService], {
      controllers: [CatalogController],
    });
    expect(logs.messages('warn', 'CatalogAssembler')).toEqual([
      'MCP server "x" publishes nothing: it serves entries without a group, and the scan found ' +
        'none. Scanned 1 provider (CatalogService) and 1 controller (CatalogController) of ' +
        `the app's modules. ${CAUSES}\n${RUN_TIME}`,
    ]);
    expect(logs.entries.some((entry) => entry.message.includes('publishes 0 tool(s)'))).toBe(false);
    expect(printed).not.toContain('publishes nothing');
  });

  it('says so when the app has no providers at all', async () => {
    const { logs } = await bootApp([]);
    expect(logs.messages('warn', 'CatalogAssembler')[0]).toContain(
      "Scanned 0 providers and 0 controllers of the app's modules.",
    );
  });

  it("names the group of the server, and where the app's entries went instead", async () => {
    const { logs } = await bootApp([UngroupedTools, OrdersV2Tools, WithdrawnCatalogTools], {
      options: [
        { name: 'main', version: '1', http: false },
        { name: 'catalog', version: '1', http: false, group: 'catalog', groupVersion: '3' },
      ],
    });
    expect(logs.messages('warn', 'CatalogAssembler')).toEqual([
      'MCP server "catalog" publishes nothing: it serves group "catalog", version "3", and ' +
        'the scan found none. Scanned 3 providers (UngroupedTools, OrdersV2Tools, ' +
        `WithdrawnCatalogTools) and 0 controllers of the app's modules. ${CAUSES}\n` +
        '  - the entries belong to other servers: 2 without a group; 1 in group "orders", ' +
        'version "2" (@McpGroup() on the class, group/version on the method; a server\'s own ' +
        'comes from McpModule.forRoot({ group, groupVersion }))\n' +
        '  - 1 of its methods is hidden (@McpHidden() or { hidden })\n' +
        RUN_TIME,
    ]);
    // The server that publishes something keeps its info line.
    expect(logs.entries).toContainEqual({
      level: 'log',
      message: 'MCP server "main" publishes 1 tool(s), 0 prompt(s), 1 resource(s)',
      context: 'CatalogAssembler',
    });
  });
});

const explored = (providers: string[]): ExploredPrimitives => ({
  tools: [],
  prompts: [],
  resources: [],
  completers: [],
  methods: [],
  extensions: [],
  views: [],
  hidden: [],
  scanned: { providers, controllers: [] },
});

describe('emptyServerReport', () => {
  it('lists at most ten class names', () => {
    const names = Array.from({ length: 12 }, (_, index) => `Service${index + 1}`);
    expect(emptyServerReport('x', explored(names), {})).toContain(
      'Scanned 12 providers (Service1, Service2, Service3, Service4, Service5, Service6, ' +
        'Service7, Service8, Service9, Service10, and 2 more) and 0 controllers',
    );
  });

  it('leaves out the group cause when the app has no entry anywhere', () => {
    const report = emptyServerReport('x', explored([]), { group: 'catalog' });
    expect(report).toContain('it serves group "catalog" (entries without a version)');
    expect(report).not.toContain('other servers');
    expect(report).not.toContain('hidden');
  });
});

/**
 * MCP Apps and the run-time API (`McpServers#get(name)`, `McpServerHost#addTool()` and
 * `removeTool()`): a view is listed and read by a caller who may see a tool that shows it,
 * whenever that tool was published. A tool added at run time, for another scope, opens the
 * view to its callers; removing the first tool leaves the view to the second's; removing
 * both makes the view an unknown resource, as if it had never existed. Over HTTP, with the
 * SDK clients of both revisions.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Injectable, Module } from '@nestjs/common';
import {
  McpAppView,
  McpConfigurationError,
  McpModule,
  McpScopes,
  McpServers,
  McpTool,
  type McpServerHost,
} from 'nestjs-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopesFromHeader, UI_CAPABILITY, viewFile } from '../fixtures/apps.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import { errorOf } from '../support/mcp-clients.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';

const logs = captureLogs();

const CARD = 'ui://shop/card';
const BOARD = 'ui://shop/board';
const UNKNOWN = 'ui://shop/no-such-view';
/** The scope of the tool published at bootstrap, and of those added at run time. */
const V1_SCOPE = 'card.v1';
const V2_SCOPE = 'card.v2';

@Injectable()
class CardTools {
  @McpTool({ description: 'Shows the card (first version).', app: { view: 'card' } })
  @McpScopes(V1_SCOPE)
  show_card() {
    return 'card, first version';
  }

  /** Published at run time, naming the same view, for callers of another scope. */
  @McpScopes(V2_SCOPE)
  show_card_v2() {
    return 'card, second version';
  }
}

@Injectable()
class BoardTools {
  /** Unguarded: at bootstrap, everyone sees the board. */
  @McpTool({ description: 'Shows the board to anyone.', app: { view: 'board' } })
  open_board() {
    return 'board';
  }

  /** Published at run time in place of `open_board`, for `card.v2` callers only. */
  @McpScopes(V2_SCOPE)
  locked_board() {
    return 'board, locked';
  }

  @McpAppView('board', { title: 'Board' })
  board() {
    return '<!doctype html><html><body><p id="board">board</p></body></html>';
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'shop',
      version: '1.0.0',
      callerScopes: scopesFromHeader,
      apps: { views: { card: { file: viewFile('product-card'), title: 'Card' } } },
    }),
  ],
  providers: [CardTools, BoardTools],
})
class RuntimeAppsModule {}

/** What the tests need of either SDK client. */
interface Connected {
  readonly sdk: any;
  close(): Promise<void>;
}

const headersOf = (scopes: string[]): Record<string, string> =>
  scopes.length ? { 'x-scopes': scopes.join(',') } : {};

const ERAS = [
  {
    era: '2025-11-25 (v1 client)',
    /** A 2025 session subscribes with `resources/subscribe`. */
    subscribes: true,
    connect: async (url: URL, scopes: string[]): Promise<Connected> => {
      const sdk = new LegacyClient(
        { name: 'apps-runtime-v1', version: '1.0.0' },
        { capabilities: { extensions: UI_CAPABILITY } as never },
      );
      await sdk.connect(new LegacyTransport(url, { requestInit: { headers: headersOf(scopes) } }));
      return { sdk, close: () => sdk.close() };
    },
  },
  {
    era: '2026-07-28 (v2 client)',
    subscribes: false,
    connect: async (url: URL, scopes: string[]): Promise<Connected> => {
      const sdk = new ModernClient(
        { name: 'apps-runtime-v2', version: '1.0.0' },
        {
          capabilities: { extensions: UI_CAPABILITY },
          versionNegotiation: { mode: { pin: '2026-07-28' } },
        },
      );
      await sdk.connect(new ModernTransport(url, { requestInit: { headers: headersOf(scopes) } }));
      return { sdk, close: () => sdk.close() };
    },
  },
] as const;

const toolNames = async (client: any): Promise<string[]> =>
  (await client.listTools()).tools.map((tool: any) => tool.name).toSorted();

/** Whether the caller lists the view; asserts that its read agrees. */
async function sees(client: any, uri: string): Promise<boolean> {
  const { resources } = await client.listResources();
  const listed = resources.some((resource: any) => resource.uri === uri);
  const read = await client.readResource({ uri }).then(
    (result: any) => result,
    (error: { code: number; message: string }) => error,
  );
  if (read.contents) {
    expect(read.contents[0]).toMatchObject({ uri, mimeType: RESOURCE_MIME_TYPE });
  } else {
    // Not readable: exactly as a URI the server never had.
    const unknown = await errorOf(client.readResource({ uri: UNKNOWN }));
    expect(read.code).toBe(unknown.code);
    expect(read.message).toBe(unknown.message.replace(UNKNOWN, uri));
  }
  expect(listed, `${uri} listed, and its read ${read.contents ? 'served' : 'refused'}`).toBe(
    Boolean(read.contents),
  );
  return listed;
}

describe.each(ERAS)(
  'MCP Apps views and tools changed at run time, $era',
  ({ connect, subscribes }) => {
    let running: RunningApp;
    let host: McpServerHost;
    const opened: Connected[] = [];

    beforeAll(async () => {
      running = await startApp(RuntimeAppsModule, { logger: logs });
      host = running.app.get(McpServers).get('shop');
    });
    afterAll(async () => {
      await Promise.all(opened.map((client) => client.close()));
      await running?.close();
    });

    const caller = async (...scopes: string[]) => {
      const connected = await connect(running.url, scopes);
      opened.push(connected);
      return connected.sdk;
    };

    it('opens a view to the callers of a tool added at run time, keeps it through that tool, and withdraws it with the last one', async () => {
      const tools = running.app.get(CardTools);
      const [nobody, v1, v2, both] = await Promise.all([
        caller(),
        caller(V1_SCOPE),
        caller(V2_SCOPE),
        caller(V1_SCOPE, V2_SCOPE),
      ]);
      // At bootstrap, only the first tool's callers see the card.
      expect(await sees(v1, CARD)).toBe(true);
      expect(await sees(v2, CARD)).toBe(false);
      expect(await sees(nobody, CARD)).toBe(false);

      host.addTool(tools, 'show_card_v2', {
        description: 'Shows the card (second version).',
        app: { view: 'card' },
      });
      const listed = (await v2.listTools()).tools;
      expect(listed.map((tool: any) => tool.name)).toContain('show_card_v2');
      expect(listed.find((tool: any) => tool.name === 'show_card_v2')._meta).toEqual({
        ui: { resourceUri: CARD },
        [RESOURCE_URI_META_KEY]: CARD,
      });
      expect(await toolNames(v2)).not.toContain('show_card');
      expect(await sees(v2, CARD)).toBe(true);
      const { contents } = await v2.readResource({ uri: CARD });
      expect(contents[0].text).toContain('<article id="product-card">');
      expect(await sees(v1, CARD)).toBe(true);
      expect(await sees(nobody, CARD)).toBe(false);

      expect(host.removeTool('show_card')).toBe(true);
      expect(await toolNames(v1)).not.toContain('show_card');
      expect(await sees(v2, CARD)).toBe(true);
      expect(await sees(v1, CARD)).toBe(false);

      expect(host.removeTool('show_card_v2')).toBe(true);
      expect(await sees(both, CARD)).toBe(false);
      expect(await sees(v2, CARD)).toBe(false);

      // Published again, the view is back for that tool's callers.
      host.addTool(tools, 'show_card', { description: 'Shows the card.', app: { view: 'card' } });
      expect(await sees(v1, CARD)).toBe(true);
      expect(await sees(v2, CARD)).toBe(false);
    });

    it('stops listing a view to everyone once the unguarded tool that showed it gives way to a guarded one', async () => {
      const tools = running.app.get(BoardTools);
      const [nobody, v2] = await Promise.all([caller(), caller(V2_SCOPE)]);
      expect(await sees(nobody, BOARD)).toBe(true);

      host.addTool(tools, 'locked_board', {
        description: 'Shows the board.',
        app: { view: 'board' },
      });
      expect(host.removeTool('open_board')).toBe(true);
      expect(await toolNames(nobody)).not.toContain('locked_board');
      expect(await sees(nobody, BOARD)).toBe(false);
      if (subscribes) {
        const refused = await errorOf(nobody.subscribeResource({ uri: BOARD }));
        const unknown = await errorOf(nobody.subscribeResource({ uri: UNKNOWN }));
        expect(refused.code).toBe(unknown.code);
        expect(refused.message).toBe(unknown.message.replace(UNKNOWN, BOARD));
        await v2.subscribeResource({ uri: BOARD });
      }
      expect(await sees(v2, BOARD)).toBe(true);
      const { contents } = await v2.readResource({ uri: BOARD });
      expect(contents[0].text).toContain('<p id="board">board</p>');

      expect(host.removeTool('locked_board')).toBe(true);
      expect(await sees(v2, BOARD)).toBe(false);
      expect(await sees(nobody, BOARD)).toBe(false);
    });

    it('refuses a run-time tool naming a view the server does not publish, naming the view', async () => {
      const before = host.tools().map((tool) => tool.name);
      let thrown: unknown;
      try {
        host.addTool(running.app.get(CardTools), 'show_card_v2', { app: { view: 'no-such-view' } });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(McpConfigurationError);
      expect((thrown as Error).message).toContain('no-such-view');
      expect(host.tools().map((tool) => tool.name)).toEqual(before);
    });
  },
);

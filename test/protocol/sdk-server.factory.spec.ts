import { PerRequestHTTPServerTransport, type ProtocolEra } from '@modelcontextprotocol/server';
import { Injectable, type Provider } from '@nestjs/common';
import {
  inputRequired,
  McpPrompt,
  McpResource,
  McpServerHost,
  McpTool,
  type McpModuleOptions,
} from 'nestjs-mcp';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpTranslationSource } from '../../lib/interfaces/mcp-translation-source.interface.js';
import type { TransportCaller } from '../../lib/protocol/protocol-runtime.interface.js';
import { ProtocolRuntime } from '../../lib/protocol/protocol.runtime.js';
import type { ServingUnit } from '../../lib/protocol/server-tracing.js';
import { bootApp, closeApps } from '../discovery/discovery-boot.js';
import { closeClients, MODERN, openClient } from '../support/in-memory-client.js';

@Injectable()
class Shop {
  @McpTool({ description: 'Echoes.' })
  echo() {
    return 'echo';
  }

  @McpTool({ description: 'Asks before it exports.' })
  confirm_export() {
    return inputRequired({
      inputRequests: {
        ok: inputRequired.elicit({
          message: 'Export?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        }),
      },
    });
  }

  @McpPrompt({ description: 'A brief.' })
  brief() {
    return 'Write a brief.';
  }

  @McpResource({ uri: 'shop://about', name: 'about', description: 'About the shop.' })
  about() {
    return 'A shop.';
  }

  @McpResource({ uri: 'shop://items/{id}', name: 'item', description: 'One item.' })
  item() {
    return 'An item.';
  }
}

@Injectable()
class Exports {
  @McpTool({ description: 'Exports the catalog as a task.', task: 'optional' })
  async export_catalog() {
    return 'exported';
  }
}

const OPTIONS: McpModuleOptions = {
  name: 'shop',
  version: '1.0.0',
  http: false,
  instructions: 'Call echo first.',
};

/** Boots the app and returns a factory of its SDK servers for one serving unit. */
async function serversOf(providers: Provider[], options: Partial<McpModuleOptions> = {}) {
  const booted = await bootApp(providers, { options: { ...OPTIONS, ...options } });
  const runtime = booted.app.get(ProtocolRuntime);
  const factory =
    (transport: TransportCaller | (() => TransportCaller) = {}, unit: ServingUnit = {}) =>
    (era: ProtocolEra) =>
      runtime.serverFor(era, transport, unit);
  return { ...booted, runtime, factory };
}

/** The capabilities a client of `era` is told of: `initialize` (2025) or `server/discover`. */
async function capabilitiesOf(factory: (era: ProtocolEra) => any, era: ProtocolEra) {
  const client = await openClient(factory, era);
  const answer = era === 'modern' ? await client.ask('server/discover') : client.initialized!;
  return answer.result.capabilities;
}

/** Connects a server to the SDK's per-request transport, classified 2026-07-28. */
async function discover(server: ReturnType<ProtocolRuntime['serverFor']>) {
  const transport = new PerRequestHTTPServerTransport({
    classification: { era: 'modern', revision: MODERN },
    responseMode: 'json',
  });
  await server.connect(transport);
  const response = await transport.handleMessage({
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'unit', version: '1' },
      },
    },
  });
  const body = (await response.json()) as Record<string, any>;
  await server.close();
  return body;
}

describe('SdkServerFactory', () => {
  afterEach(async () => {
    await closeClients();
    await closeApps();
  });

  describe('capabilities', () => {
    it('promises a 2025 client served per request no changes (nothing can reach it)', async () => {
      const { factory } = await serversOf([Shop]);
      expect(await capabilitiesOf(factory(), 'legacy')).toEqual({
        tools: { listChanged: false },
        prompts: { listChanged: false },
        resources: { subscribe: false, listChanged: false },
        completions: {},
        logging: {},
      });
    });

    it('promises changes to a 2025 connection and to every 2026-07-28 client', async () => {
      const { factory } = await serversOf([Shop]);
      for (const capabilities of [
        await capabilitiesOf(factory({}, { live: true }), 'legacy'),
        await capabilitiesOf(factory(), 'modern'),
        await capabilitiesOf(factory({}, { live: true }), 'modern'),
      ]) {
        expect(capabilities).toMatchObject({
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
        });
      }
    });

    it('advertises tasks only when a tool runs as one, as each revision names them', async () => {
      const plain = await serversOf([Shop]);
      expect(await capabilitiesOf(plain.factory(), 'legacy')).not.toHaveProperty('tasks');
      expect(await capabilitiesOf(plain.factory(), 'modern')).not.toHaveProperty('extensions');
      await closeApps();

      const withTasks = await serversOf([Shop, Exports]);
      expect((await capabilitiesOf(withTasks.factory(), 'legacy')).tasks).toEqual({
        list: {},
        cancel: {},
        requests: { tools: { call: {} } },
      });
      expect((await capabilitiesOf(withTasks.factory(), 'modern')).extensions).toEqual({
        'io.modelcontextprotocol/tasks': {},
      });
    });

    it('advertises tasks on the servers made after a task tool is added at run time', async () => {
      const { app, factory } = await serversOf([Shop, Exports]);
      const host = app.get(McpServerHost);
      expect(host.removeTool('export_catalog')).toBe(true);
      expect(await capabilitiesOf(factory(), 'legacy')).not.toHaveProperty('tasks');
      host.addTool(app.get(Exports), 'export_catalog', { task: 'required', description: 'x' });
      expect(await capabilitiesOf(factory(), 'legacy')).toHaveProperty('tasks');
    });
  });

  describe('the handler table', () => {
    const CANDIDATES: Record<string, Record<string, unknown>> = {
      'tools/list': {},
      'tools/call': { name: 'echo', arguments: {} },
      'prompts/list': {},
      'prompts/get': { name: 'brief' },
      'resources/list': {},
      'resources/templates/list': {},
      'resources/read': { uri: 'shop://about' },
      'resources/subscribe': { uri: 'shop://about' },
      'resources/unsubscribe': { uri: 'shop://about' },
      'completion/complete': {
        ref: { type: 'ref/prompt', name: 'brief' },
        argument: { name: 'x', value: '' },
      },
      'logging/setLevel': { level: 'info' },
      ping: {},
      'tasks/get': { taskId: 'none' },
      'tasks/list': {},
      'tasks/cancel': { taskId: 'none' },
      'tasks/result': { taskId: 'none' },
      'tasks/update': { taskId: 'none', inputResponses: {} },
      'sampling/createMessage': {},
    };

    /** The methods of CANDIDATES a client of `era` can call: every answer but -32601. */
    async function callable(factory: (era: ProtocolEra) => any, era: ProtocolEra) {
      const client = await openClient(factory, era);
      const found: string[] = [];
      for (const [method, params] of Object.entries(CANDIDATES)) {
        const answer = await client.ask(method, params);
        if (answer.error?.code !== -32601) found.push(method);
      }
      return found;
    }

    const CATALOG = [
      'tools/list',
      'tools/call',
      'prompts/list',
      'prompts/get',
      'resources/list',
      'resources/templates/list',
      'resources/read',
    ];

    it('answers the catalog’s methods, and tasks/* only with a task tool (2025-11-25)', async () => {
      const plain = await serversOf([Shop]);
      const session = [
        ...CATALOG,
        'resources/subscribe',
        'resources/unsubscribe',
        'completion/complete',
        'logging/setLevel',
        'ping',
      ];
      expect(await callable(plain.factory(), 'legacy')).toEqual(session);
      await closeApps();
      const withTasks = await serversOf([Shop, Exports]);
      expect(await callable(withTasks.factory(), 'legacy')).toEqual([
        ...session,
        'tasks/get',
        'tasks/list',
        'tasks/cancel',
        'tasks/result',
      ]);
    });

    it('answers the 2026-07-28 task methods, without the 2025 ones', async () => {
      // The SDK itself refuses on this revision what it removed (subscribe, setLevel, ping).
      const plain = await serversOf([Shop]);
      expect(await callable(plain.factory(), 'modern')).toEqual([
        ...CATALOG,
        'completion/complete',
      ]);
      await closeApps();
      const withTasks = await serversOf([Shop, Exports]);
      expect(await callable(withTasks.factory(), 'modern')).toEqual([
        ...CATALOG,
        'completion/complete',
        'tasks/get',
        'tasks/cancel',
        'tasks/update',
      ]);
    });
  });

  describe('supported revisions', () => {
    it('lists 2026-07-28 on a modern server only: it binds to it and answers server/discover', async () => {
      const { runtime } = await serversOf([Shop]);
      const modern = await discover(runtime.serverFor('modern', {}));
      expect(modern.result.supportedVersions).toContain(MODERN);
      expect(modern.result.instructions).toBe('Call echo first.');

      const legacy = await discover(runtime.serverFor('legacy', {}));
      expect(legacy.error.code).toBe(-32022);
      expect(legacy.error.data.supported).toContain('2025-11-25');
      expect(legacy.error.data.supported).not.toContain(MODERN);
    });
  });

  describe('instructions', () => {
    const german: McpTranslationSource = {
      locales: () => ['en', 'de'],
      load: (locale) =>
        locale === 'de' ? { _server: { instructions: 'Rufe zuerst echo auf.' } } : undefined,
    };
    const i18n = { i18n: { defaultLocale: 'en', translations: german } };

    it('answers in the locale of the transport, the code’s words in the default one', async () => {
      const { factory } = await serversOf([Shop], i18n);
      const instructions = async (transport: TransportCaller, era: ProtocolEra) => {
        const client = await openClient(factory(transport), era);
        const answer = era === 'modern' ? await client.ask('server/discover') : client.initialized!;
        return answer.result.instructions;
      };
      expect(await instructions({ locale: 'de' }, 'legacy')).toBe('Rufe zuerst echo auf.');
      expect(await instructions({ locale: 'de' }, 'modern')).toBe('Rufe zuerst echo auf.');
      expect(await instructions({ locale: 'en' }, 'legacy')).toBe('Call echo first.');
      // A language nobody translated falls back to the default.
      expect(await instructions({ locale: 'fr' }, 'modern')).toBe('Call echo first.');
      expect(
        await instructions({ request: { headers: { 'accept-language': 'de-DE' } } }, 'legacy'),
      ).toBe('Rufe zuerst echo auf.');
    });

    it('gives a 2025 session, whose locale varies per message, the default instructions', async () => {
      const { factory } = await serversOf([Shop], i18n);
      const client = await openClient(
        factory(() => ({ locale: 'de' }), { live: true }),
        'legacy',
      );
      expect(client.initialized!.result.instructions).toBe('Call echo first.');
    });
  });

  describe('a question a 2025 client served per request cannot be asked', () => {
    it('is answered with an error, and the developer is told why once', async () => {
      const { factory, logs } = await serversOf([Shop]);
      const client = await openClient(factory(), 'legacy');
      for (let round = 0; round < 2; round++) {
        const answer = await client.ask('tools/call', { name: 'confirm_export', arguments: {} });
        expect(answer.result).toMatchObject({ isError: true });
        expect(answer.result.content[0].text).toContain('Cannot request input');
      }
      const told = logs.warnings().filter((entry) => entry.message.includes('confirm_export'));
      expect(told).toHaveLength(1);
      expect(told[0]!.message).toContain('legacySessions');
    });
  });
});

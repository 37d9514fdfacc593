import { Injectable, UseGuards, type CanActivate, type Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  McpContext,
  McpHidden,
  McpModule,
  McpPrompt,
  McpResource,
  McpScopes,
  McpServerHost,
  McpTool,
  type McpCallContext,
  type McpModuleOptions,
} from 'nestjs-mcp';
import { InMemoryTaskStore, MCP_TASK_STORE } from 'nestjs-mcp/tasks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpChange } from '../../lib/interfaces/mcp-scale-out.interface.js';
import { ProtocolRuntime } from '../../lib/protocol/protocol.runtime.js';
import { bootApp, closeApps } from '../discovery/discovery-boot.js';
import { closeClients, openClient } from '../support/in-memory-client.js';

class Nobody implements CanActivate {
  canActivate() {
    return false;
  }
}

@Injectable()
class Shop {
  @McpTool({ description: 'Searches.', aliases: ['Shop.search'] })
  search() {
    return [];
  }

  @McpTool({ description: 'Deletes everything.' })
  @McpScopes('shop:admin', 'audit')
  purge() {
    return 'done';
  }

  @McpTool({ description: 'Charges a card.' })
  @McpHidden('Only the checkout flow may charge.')
  charge() {
    return 'charged';
  }

  @McpPrompt({ description: 'A brief.' })
  brief() {
    return 'Write a brief.';
  }

  @McpResource({ uri: 'shop://about', name: 'about', description: 'About.' })
  about() {
    return 'A shop.';
  }

  @McpResource({ uri: 'shop://items/{id}', name: 'item', description: 'One item.' })
  @McpScopes('items:read')
  item() {
    return 'An item.';
  }
}

@Injectable()
class Exports {
  /** Runs until its task is cancelled (or the server shuts down). */
  @McpTool({ description: 'Exports as a task.', task: 'optional' })
  async export_catalog(@McpContext() ctx: McpCallContext) {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    return 'stopped';
  }
}

@Injectable()
class Guarded {
  @McpTool({ description: 'Only for some.' })
  @UseGuards(Nobody)
  secret() {
    return 'secret';
  }
}

const OPTIONS: McpModuleOptions = { name: 'shop', version: '1.0.0', http: false };

async function runtimeOf(providers: Provider[], options: Partial<McpModuleOptions> = {}) {
  const booted = await bootApp(providers, { options: { ...OPTIONS, ...options } });
  return { ...booted, runtime: booted.app.get(ProtocolRuntime) };
}

describe('ProtocolRuntime', () => {
  afterEach(async () => {
    await closeClients();
    await closeApps();
  });

  it('refuses every question before the app is initialised, saying what to call', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot(OPTIONS)],
      providers: [Shop],
    }).compile();
    try {
      const runtime = moduleRef.get(ProtocolRuntime);
      for (const ask of [
        () => runtime.tool('search'),
        () => runtime.published(),
        () => runtime.serverFor('legacy', {}),
      ]) {
        expect(ask).toThrow('The MCP server is not initialised yet: call app.init()');
      }
      expect(runtime.localization).toBeUndefined();
    } finally {
      await moduleRef.close();
    }
  });

  it('assembles the catalog at onModuleInit: what it publishes, and what it hides', async () => {
    const { runtime } = await runtimeOf([Shop]);
    const published = runtime.published();
    expect(published.tools.map((tool) => tool.name)).toEqual(['purge', 'search']);
    expect(published.prompts.map((prompt) => prompt.name)).toEqual(['brief']);
    expect(published.resources.map((resource) => resource.uri)).toEqual(['shop://about']);
    expect(published.resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'shop://items/{id}',
    ]);
    expect(published.hidden).toEqual([
      { where: 'Shop.charge', reason: 'Only the checkout flow may charge.' },
    ]);
  });

  it('tells a transport the facts of a tool, by its name or an alias', async () => {
    const { runtime } = await runtimeOf([Shop, Exports]);
    const facts = runtime.tool('search');
    expect(facts).toEqual({
      task: false,
      inputSchema: expect.objectContaining({ type: 'object' }),
    });
    expect(runtime.tool('Shop.search')).toEqual(facts);
    expect(runtime.tool('export_catalog')?.task).toBe(true);
    expect(runtime.tool('charge')).toBeUndefined();
    expect(runtime.tool('nothing')).toBeUndefined();
  });

  it('says a list is shown alike to every caller until a guard decides an entry', async () => {
    const open = await runtimeOf([Exports]);
    expect(open.runtime.listedAlike('tools')).toBe(true);
    expect(open.runtime.listedAlike('resources')).toBe(true);
    await closeApps();

    const guarded = await runtimeOf([Guarded]);
    expect(guarded.runtime.listedAlike('tools')).toBe(false);
    await closeApps();

    // @McpScopes() is a guard too: purge and the template are shown per caller. Resources
    // are alike only when the static ones and the templates both are.
    const { runtime } = await runtimeOf([Shop]);
    expect(runtime.listedAlike('tools')).toBe(false);
    expect(runtime.listedAlike('prompts')).toBe(true);
    expect(runtime.listedAlike('resources')).toBe(false);
  });

  it('reads what @McpScopes() requires of the entry a request names, and every scope named', async () => {
    const { runtime } = await runtimeOf([Shop]);
    expect(runtime.scopeRequirementOf({ method: 'tools/call', params: { name: 'purge' } })).toEqual(
      { requirement: { all: ['shop:admin', 'audit'] }, what: "tool 'purge'" },
    );
    expect(
      runtime.scopeRequirementOf({ method: 'resources/read', params: { uri: 'shop://items/3' } }),
    ).toMatchObject({ requirement: { all: ['items:read'] } });
    expect(
      runtime.scopeRequirementOf({ method: 'tools/call', params: { name: 'search' } }),
    ).toBeUndefined();
    expect(runtime.namedScopes()).toEqual(['audit', 'items:read', 'shop:admin']);
  });

  it('tells listeners of each change of the catalog and of resource updates, until they stop', async () => {
    const { app, runtime } = await runtimeOf([Shop]);
    const host = app.get(McpServerHost);
    const heard: McpChange[] = [];
    const stop = runtime.onChange((change) => heard.push(change));
    host.addTool(app.get(Shop), 'charge', { name: 'charge_now', description: 'Charges.' });
    host.removePrompt('brief');
    host.removeResource('shop://items/{id}');
    runtime.resourceUpdated('shop://about');
    expect(heard).toEqual([
      { kind: 'tools' },
      { kind: 'prompts' },
      { kind: 'resources' },
      { kind: 'resource', uri: 'shop://about' },
    ]);
    stop();
    runtime.resourceUpdated('shop://about');
    expect(heard).toHaveLength(4);
    expect(runtime.tool('charge_now')).toBeDefined();
  });

  describe('at shutdown', () => {
    it('closes the task store the module made', async () => {
      const { app } = await runtimeOf([Shop]);
      const store = app.get<InMemoryTaskStore>(MCP_TASK_STORE);
      const close = vi.spyOn(store, 'close');
      await app.close();
      expect(close).toHaveBeenCalledOnce();
    });

    it('cancels the tasks it runs, and leaves an app’s own store open', async () => {
      const store = new InMemoryTaskStore();
      const close = vi.spyOn(store, 'close');
      const { app, runtime } = await runtimeOf([Exports], { tasks: { store } });
      const client = await openClient(
        (era) => runtime.serverFor(era, {}, { live: true }),
        'legacy',
      );
      const started = await client.ask('tools/call', {
        name: 'export_catalog',
        arguments: {},
        task: {},
      });
      const { taskId } = started.result.task as { taskId: string };
      expect((await store.get(taskId))?.status).toBe('working');

      await app.close();
      expect(close).not.toHaveBeenCalled();
      // Still the app's to read: the task is recorded as cancelled.
      expect((await store.get(taskId))?.status).toBe('cancelled');
      await store.close();
    });
  });
});

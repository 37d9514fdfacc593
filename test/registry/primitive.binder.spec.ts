import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpExplorer, type ExploredPrimitives } from '../../lib/discovery/mcp.explorer.js';
import type { McpCompletionContext } from '../../lib/interfaces/mcp-completion.interface.js';
import { McpCall } from '../../lib/execution/mcp-call.js';
import { PrimitiveBinder } from '../../lib/registry/primitive.binder.js';
import { closeApps } from '../discovery/discovery-boot.js';
import { toolCall } from '../support/fake-call.js';
import { ADMIN, bootPipelineApp, GUEST, scopeOf, trail } from '../execution/pipeline.fixture.js';

/** The guards' check for a listing, as the registry makes it for each entry. */
const listing = (name: string, request: unknown) =>
  new McpCall({ kind: 'tool', name, arguments: {}, scope: scopeOf(request), phase: 'list' });

describe('PrimitiveBinder', () => {
  let binder: PrimitiveBinder;
  let explored: ExploredPrimitives;

  beforeEach(async () => {
    trail.length = 0;
    const { app } = await bootPipelineApp();
    binder = app.get(PrimitiveBinder);
    explored = app.get(McpExplorer).explore();
  });
  afterEach(closeApps);

  const discoveredTool = (name: string) =>
    explored.tools.find((tool) => tool.definition.name === name)!;

  describe('tool()', () => {
    it('publishes the tool under its name, with its aliases and scopes', () => {
      const tool = binder.tool(discoveredTool('audited'));
      expect(tool.key).toBe('audited');
      expect(tool.definition).toMatchObject({
        name: 'audited',
        description: 'Needs the audit scope.',
      });
      expect(tool.aliases).toEqual(['Admin.audit']);
      expect(tool.scopes).toEqual({ all: ['audit'] });
      expect(tool).not.toHaveProperty('task');
    });

    it('binds the invoker to the pipeline, guards included', async () => {
      const tool = binder.tool(discoveredTool('export'));
      expect(await tool.invoke(toolCall('export', { limit: 1 }, scopeOf(ADMIN)))).toEqual({
        content: [{ type: 'text', text: 'exported 1' }],
      });
      const refused = await tool.invoke(toolCall('export', { limit: 1 }, scopeOf(GUEST)));
      expect(refused.isError).toBe(true);
    });

    it('shows the tool to the callers its guards let through, and every tool without guards to all', async () => {
      const guarded = binder.tool(discoveredTool('export')).isVisible;
      expect(guarded.guarded).toBe(true);
      expect(await guarded(listing('export', ADMIN))).toBe(true);
      expect(await guarded(listing('export', GUEST))).toBe(false);
      // Listing runs the guards alone: never an interceptor or the method.
      expect(trail).toEqual(['guard', 'guard']);

      const open = binder.tool(discoveredTool('open')).isVisible;
      expect(open.guarded).toBe(false);
      expect(await open(listing('open', GUEST))).toBe(true);
    });

    it('splits a task tool for a queue only when the server runs one', async () => {
      const inProcess = binder.tool(discoveredTool('queued'));
      expect(inProcess.task).toEqual({ mode: 'optional' });
      expect(inProcess).not.toHaveProperty('queued');
      expect(binder.tool(discoveredTool('open'), {}, true)).not.toHaveProperty('queued');

      const queued = binder.tool(discoveredTool('queued'), {}, true).queued!;
      expect(await queued.check(toolCall('queued', { limit: 1 }, scopeOf(ADMIN)))).toBeUndefined();
      expect(await queued.run(toolCall('queued', { limit: 2 }, scopeOf(GUEST)))).toEqual({
        content: [{ type: 'text', text: 'queued 2' }],
      });
    });

    it('lists and checks optional arguments as nullable for a server that asks for it', async () => {
      const args = { limit: 1, format: null };
      const plain = binder.tool(discoveredTool('export'));
      const nullable = binder.tool(discoveredTool('export'), { nullableOptionals: true });
      expect(JSON.stringify(plain.definition.inputSchema.properties?.format)).not.toContain('null');
      expect(JSON.stringify(nullable.definition.inputSchema.properties?.format)).toContain('null');
      expect((await plain.invoke(toolCall('export', args, scopeOf(ADMIN)))).isError).toBe(true);
      expect(await nullable.invoke(toolCall('export', args, scopeOf(ADMIN)))).toEqual({
        content: [{ type: 'text', text: 'exported 1' }],
      });
    });
  });

  describe('prompt() and resource()', () => {
    it('binds a prompt with its arguments’ schema and no completer yet', async () => {
      const prompt = binder.prompt(explored.prompts.find((p) => p.definition.name === 'brief')!);
      expect(prompt.key).toBe('brief');
      expect(prompt.completers.size).toBe(0);
      expect(prompt.argumentsSchema).toMatchObject({ type: 'object' });
      const call = new McpCall({ kind: 'prompt', name: 'brief', arguments: {}, scope: scopeOf() });
      expect((await prompt.get(call)).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Write a brief.' } },
      ]);
    });

    it('binds a template by its URI template, with the matcher of its variables', async () => {
      const [item] = explored.resources;
      const template = binder.resource(item!);
      expect(template.key).toBe('admin://items/{id}');
      expect('template' in template && template.template.match('admin://items/9')).toEqual({
        id: '9',
      });
      const read = new McpCall({
        kind: 'resource',
        name: 'admin://items/9',
        arguments: { id: '9' },
        scope: scopeOf(),
      });
      expect((await template.read(read, 'admin://items/9')).contents).toEqual([
        expect.objectContaining({ uri: 'admin://items/9', text: 'Item 9.' }),
      ]);
    });
  });

  describe('completer()', () => {
    it('calls a request-scoped provider’s completer on a new instance each time', async () => {
      const [discovered] = explored.completers;
      const complete = binder.completer(discovered!);
      const context = {
        arguments: {},
        argument: 'topic',
        call: { name: 'brief_for' },
      } as unknown as McpCompletionContext;
      const first = (await complete('ca', context)) as string[];
      const second = (await complete('ca', context)) as string[];
      expect(first[1]).toBe('brief_for');
      expect(first[0]).toMatch(/^ca-\d+$/);
      expect(second[0]).not.toBe(first[0]);
    });
  });
});

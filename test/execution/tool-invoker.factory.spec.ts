import type { CallToolResult } from '@modelcontextprotocol/server';
import { McpEvents, type McpToolCalledEvent } from 'nestjs-mcp';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { McpExplorer } from '../../lib/discovery/mcp.explorer.js';
import { ToolInvokerFactory } from '../../lib/execution/tool-invoker.factory.js';
import { closeApps } from '../discovery/discovery-boot.js';
import { toolCall } from '../support/fake-call.js';
import { ADMIN, bootPipelineApp, GUEST, scopeOf, trail } from './pipeline.fixture.js';

const text = (result: { content?: Array<{ type: string; text?: string }> }) =>
  result.content?.map((block) => block.text).join('\n');

describe('ToolInvokerFactory', () => {
  let booted: Awaited<ReturnType<typeof bootPipelineApp>>;
  let events: McpToolCalledEvent[];

  beforeEach(async () => {
    trail.length = 0;
    booted = await bootPipelineApp();
    events = [];
    booted.app.get(McpEvents).toolCalled.subscribe((event) => events.push(event));
  });
  afterEach(closeApps);

  /** Invokes `name` as a caller with `request`, the observer's calls recorded. */
  async function invoke(name: string, args: Record<string, unknown>, request?: unknown) {
    const methodReached = vi.fn();
    // These tools never ask questions: every answer is a tool result.
    const result = (await booted
      .tool(name)
      .invoke(toolCall(name, args, scopeOf(request)), { methodReached })) as CallToolResult;
    // Events are published after the response: on the next turn of the event loop here.
    await nextMacrotask();
    return { result, methodReached };
  }

  /** The tool `queued`, split as a server with `tasks.queue` binds it. */
  const queuedOf = () => {
    const discovered = booted.app
      .get(McpExplorer)
      .explore()
      .tools.find((tool) => tool.definition.name === 'queued')!;
    return booted.app.get(ToolInvokerFactory).createQueued(discovered);
  };

  it('runs an allowed call through the pipeline and answers with its result', async () => {
    const { result, methodReached } = await invoke('export', { limit: 3 }, ADMIN);
    expect(result).toEqual({ content: [{ type: 'text', text: 'exported 3' }] });
    expect(trail).toEqual(['guard', 'interceptor:before', 'pipe', 'method', 'interceptor:after']);
    expect(methodReached).toHaveBeenCalled();
  });

  it('answers a refused call with an isError result; the method never runs', async () => {
    const { result, methodReached } = await invoke('export', { limit: 3 }, GUEST);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Forbidden (403): Forbidden resource');
    expect(trail).toEqual(['guard']);
    expect(methodReached).not.toHaveBeenCalled();
  });

  it('lets guards decide first: a refused caller learns nothing of its arguments', async () => {
    const { result } = await invoke('export', { limit: 'many' }, GUEST);
    expect(text(result)).toBe('Forbidden (403): Forbidden resource');
    expect(JSON.stringify(result)).not.toContain('limit');
  });

  it('refuses invalid arguments after the guards ran, naming each problem', async () => {
    const { result, methodReached } = await invoke('export', { limit: 0, extra: 1 }, ADMIN);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('/limit');
    expect(text(result)).toContain('/extra');
    expect(result.structuredContent).toMatchObject({ error: 'invalid_arguments' });
    expect(trail).toEqual(['guard', 'interceptor:before']);
    expect(methodReached).not.toHaveBeenCalled();
  });

  it('publishes the event of executed calls only', async () => {
    await invoke('export', { limit: 3 }, GUEST);
    await invoke('export', { limit: 0 }, ADMIN);
    expect(events).toEqual([]);
    await invoke('export', { limit: 2 }, ADMIN);
    expect(events).toEqual([
      expect.objectContaining({
        server: 'admin',
        tool: 'export',
        outcome: 'success',
        era: 'legacy',
        arguments: { limit: 2 },
      }),
    ]);
  });

  it('answers a result that breaks the declared output with an isError result, and logs it', async () => {
    const { result } = await invoke('broken', {});
    expect(result.isError).toBe(true);
    // The result that broke the declaration is not sent; what broke it is named.
    expect(result).not.toHaveProperty('structuredContent');
    expect(text(result)).toContain('does not match its declared output schema');
    expect(text(result)).toContain('/name');
    const logged = booted.logs.errors().map((entry) => entry.message);
    expect(logged).toEqual([expect.stringContaining('AdminTools.broken')]);
  });

  it('maps a thrown error to an isError result, and lets a task record a ProtocolError', async () => {
    const { result } = await invoke('upstream', {});
    expect(result.isError).toBe(true);
    // The detail stays in the log; the caller gets a reference to quote.
    expect(text(result)).not.toContain('Upstream unavailable');
    expect(text(result)).toMatch(/reference [0-9a-f]{8}/);

    const controller = new AbortController();
    const task = { id: 't-1', signal: controller.signal, setStatus: async () => undefined };
    await expect(
      booted.tool('upstream').invoke(toolCall('upstream', {}, scopeOf(), task)),
    ).rejects.toMatchObject({ code: -32050, message: 'Upstream unavailable' });
  });

  describe('the queued split (tasks.queue)', () => {
    it('checks in the request: the guard’s refusal, then the arguments', async () => {
      const { check } = queuedOf();
      const refused = await check(toolCall('queued', { limit: 1 }, scopeOf(GUEST)));
      expect(refused && text(refused)).toBe('Forbidden (403): Forbidden resource');
      const invalid = await check(toolCall('queued', { limit: 0 }, scopeOf(ADMIN)));
      expect(invalid?.isError).toBe(true);
      expect(invalid && text(invalid)).toContain('/limit');
      expect(await check(toolCall('queued', { limit: 1 }, scopeOf(ADMIN)))).toBeUndefined();
      // Checking never runs the method.
      expect(trail).toEqual(['guard', 'guard', 'guard']);
    });

    it('runs on the worker without the guards, which ran in the request', async () => {
      const { run } = queuedOf();
      const result = (await run(
        toolCall('queued', { limit: 4 }, scopeOf(GUEST)),
      )) as CallToolResult;
      expect(result).toEqual({ content: [{ type: 'text', text: 'queued 4' }] });
      expect(trail).toEqual(['method']);
    });
  });
});

import {
  CLIENT_CAPABILITIES_META_KEY,
  Server,
  type ProtocolEra,
} from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpTasksOptions } from '../../../lib/interfaces/mcp-task-options.interface.js';
import type { McpTask } from '../../../lib/interfaces/mcp-task-store.interface.js';
import { TASK_RESULT } from '../../../lib/protocol/catalog-mcp.server.js';
import { defaultCallerIdentity } from '../../../lib/authorization/caller-identity.js';
import { TaskHandlers } from '../../../lib/protocol/handlers/task.handlers.js';
import { supportedRevisions } from '../../../lib/protocol/protocol-revisions.js';
import type { RegisteredTool } from '../../../lib/registry/registered-primitives.js';
import { InMemoryTaskStore } from '../../../lib/tasks/in-memory-task.store.js';
import type { McpTaskRunner, TaskStart } from '../../../lib/tasks/mcp-task.runner.js';
import { TASKS_EXTENSION } from '../../../lib/mcp.constants.js';
import { fakeScope, fakeServerContext, toolCall } from '../../support/fake-call.js';
import { closeClients, openClient } from '../../support/in-memory-client.js';

const DECLARED = { [CLIENT_CAPABILITIES_META_KEY]: { extensions: { [TASKS_EXTENSION]: {} } } };

const toolOf = (task?: RegisteredTool['task']): RegisteredTool => ({
  key: 'export_catalog',
  definition: { name: 'export_catalog', inputSchema: { type: 'object' } },
  isVisible: Object.assign(async () => true, { guarded: false }),
  invoke: async () => ({ content: [] }),
  ...(task && { task }),
});

const storedTask = (overrides: Partial<McpTask> = {}): McpTask => ({
  taskId: 't-1',
  owner: 'anonymous',
  toolName: 'export_catalog',
  status: 'working',
  createdAt: '2026-03-01T10:00:00.000Z',
  lastUpdatedAt: '2026-03-01T10:00:00.000Z',
  ttlMs: 1_000,
  pollIntervalMs: 1_000,
  ...overrides,
});

/** A runner that records what it was asked to start, and starts nothing. */
function fakeRunner(outcome: TaskStart = { kind: 'task', task: storedTask() }) {
  const start = vi.fn(async (..._args: Parameters<McpTaskRunner['start']>) => outcome);
  return { runner: { start, traceWith: vi.fn() } as unknown as McpTaskRunner, start };
}

/** A `tools/call` of the era, declaring the tasks extension or not (2026-07-28). */
const callIn = (era: ProtocolEra, declared = false, identity = 'anonymous') =>
  toolCall(
    'export_catalog',
    {},
    fakeScope(fakeServerContext(declared ? { envelope: DECLARED } : {}).ctx, {
      era,
      identity,
    }),
  );

const server = {} as Server;

/** Stores the decisions are made beside (they read none): closed after the file. */
const looseStores: InMemoryTaskStore[] = [];
const looseStore = () => {
  const made = new InMemoryTaskStore();
  looseStores.push(made);
  return made;
};
afterAll(async () => {
  await Promise.all(looseStores.map((made) => made.close()));
});

const decide = (
  handlers: TaskHandlers,
  era: ProtocolEra,
  tool: RegisteredTool,
  params: Record<string, unknown> = {},
  declared = false,
) =>
  handlers.callTool(
    callIn(era, declared),
    tool,
    { name: 'export_catalog', ...params },
    era,
    server,
  );

describe('TaskHandlers#capabilities', () => {
  const handlers = new TaskHandlers(looseStore(), fakeRunner().runner);

  it('advertises the extension on 2026-07-28, and the tasks capability on 2025-11-25', () => {
    expect(handlers.capabilities('modern')).toEqual({ extensions: { [TASKS_EXTENSION]: {} } });
    expect(handlers.capabilities('legacy')).toEqual({
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
  });
});

describe('TaskHandlers#callTool on 2026-07-28', () => {
  it('answers as usual when the request did not declare the extension', async () => {
    const { runner, start } = fakeRunner();
    const handlers = new TaskHandlers(looseStore(), runner);
    expect(await decide(handlers, 'modern', toolOf({ mode: 'optional' }))).toBeUndefined();
    // The 2025 parameter means nothing on this revision.
    expect(
      await decide(handlers, 'modern', toolOf({ mode: 'optional' }), { task: {} }),
    ).toBeUndefined();
    expect(start).not.toHaveBeenCalled();
  });

  it('refuses a required task tool without the extension with -32021', async () => {
    const handlers = new TaskHandlers(looseStore(), fakeRunner().runner);
    await expect(decide(handlers, 'modern', toolOf({ mode: 'required' }))).rejects.toMatchObject({
      code: -32021,
      message: expect.stringContaining(
        `The tool "export_catalog" needs the extension "${TASKS_EXTENSION}"`,
      ),
    });
  });

  it('answers a tool that is never a task as usual, even when the extension is declared', async () => {
    const { runner, start } = fakeRunner();
    const handlers = new TaskHandlers(looseStore(), runner);
    expect(await decide(handlers, 'modern', toolOf(), {}, true)).toBeUndefined();
    expect(start).not.toHaveBeenCalled();
  });

  it('answers a flat CreateTaskResult, marked as a task for the SDK wrapper', async () => {
    const handlers = new TaskHandlers(looseStore(), fakeRunner().runner);
    const decision = await decide(handlers, 'modern', toolOf({ mode: 'optional' }), {}, true);
    expect(decision?.kind).toBe('task');
    expect(decision?.result).toMatchObject({ resultType: 'task', taskId: 't-1', ttlMs: 1_000 });
    expect(TASK_RESULT in decision!.result).toBe(true);
  });
});

describe('TaskHandlers#callTool on 2025-11-25', () => {
  it('refuses params.task on a tool that never runs as a task with -32601', async () => {
    const handlers = new TaskHandlers(looseStore(), fakeRunner().runner);
    await expect(decide(handlers, 'legacy', toolOf(), { task: {} })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining('does not run as a task: call it without params.task'),
    });
  });

  it('refuses a required task tool called without params.task with -32601', async () => {
    const handlers = new TaskHandlers(looseStore(), fakeRunner().runner);
    for (const params of [{}, { task: null }, { task: [] }]) {
      await expect(
        decide(handlers, 'legacy', toolOf({ mode: 'required' }), params),
      ).rejects.toMatchObject({ code: -32601, message: expect.stringContaining('only as a task') });
    }
  });

  it('answers an optional task tool as usual without params.task, and as { task } with it', async () => {
    const handlers = new TaskHandlers(looseStore(), fakeRunner().runner);
    expect(await decide(handlers, 'legacy', toolOf({ mode: 'optional' }))).toBeUndefined();
    const decision = await decide(handlers, 'legacy', toolOf({ mode: 'optional' }), { task: {} });
    expect(decision?.result).toMatchObject({ task: { taskId: 't-1', ttl: 1_000 } });
  });

  it('passes on an answer given in the request (a refused call) as it is', async () => {
    const refused = { content: [{ type: 'text' as const, text: 'no' }], isError: true };
    const { runner } = fakeRunner({ kind: 'answered', result: refused });
    const handlers = new TaskHandlers(looseStore(), runner);
    expect(await decide(handlers, 'legacy', toolOf({ mode: 'optional' }), { task: {} })).toEqual({
      kind: 'answered',
      result: refused,
    });
  });
});

/** The timing a task of `tool` is started with, for a call with `params.task`. */
const timingOf = async (
  options: McpTasksOptions,
  tool: RegisteredTool,
  task: Record<string, unknown>,
  era: ProtocolEra = 'legacy',
) => {
  const { runner, start } = fakeRunner();
  await decide(
    new TaskHandlers(looseStore(), runner, options),
    era,
    tool,
    { task },
    era === 'modern',
  );
  return start.mock.calls[0]![3];
};

describe('TaskHandlers task timing and owner', () => {
  it('honours a shorter ttl a 2025 client asks for, and caps a longer one', async () => {
    const tool = toolOf({ mode: 'optional', ttlMs: 60_000, pollIntervalMs: 250 });
    expect(await timingOf({}, tool, { ttl: 5_000 })).toEqual({ ttlMs: 5_000, pollIntervalMs: 250 });
    expect(await timingOf({}, tool, { ttl: 600_000 })).toEqual({
      ttlMs: 60_000,
      pollIntervalMs: 250,
    });
    // Not a positive whole number: the tool's own.
    expect((await timingOf({}, tool, { ttl: -1 })).ttlMs).toBe(60_000);
    expect((await timingOf({}, tool, { ttl: 1.5 })).ttlMs).toBe(60_000);
  });

  it('takes the module’s timing for a tool without its own, then the defaults', async () => {
    const tool = toolOf({ mode: 'optional' });
    expect(await timingOf({ ttlMs: 30_000, pollIntervalMs: 100 }, tool, {})).toEqual({
      ttlMs: 30_000,
      pollIntervalMs: 100,
    });
    expect(await timingOf({}, tool, {})).toEqual({ ttlMs: 3_600_000, pollIntervalMs: 1_000 });
  });

  it('gives a 2026-07-28 task the configured life, whatever params.task says', async () => {
    const tool = toolOf({ mode: 'optional', ttlMs: 60_000 });
    expect((await timingOf({}, tool, { ttl: 5_000 }, 'modern')).ttlMs).toBe(60_000);
  });

  it('makes the task the caller’s: the identity of the call’s request', async () => {
    const { runner, start } = fakeRunner();
    const handlers = new TaskHandlers(looseStore(), runner);
    const call = (identity: string) =>
      handlers.callTool(
        callIn('legacy', false, identity),
        toolOf({ mode: 'optional' }),
        { name: 'export_catalog', task: {} } as never,
        'legacy',
        server,
      );
    await call('acme');
    await call('user:7');
    expect(start.mock.calls.map((args) => args[2])).toEqual(['acme', 'user:7']);
  });
});

describe('TaskHandlers tasks/get', () => {
  let store: InMemoryTaskStore;
  /** Whose request the server is reading: the next message is this caller's. */
  let caller: unknown;

  beforeEach(() => {
    store = new InMemoryTaskStore();
  });
  afterEach(async () => {
    await closeClients();
    await store.close();
  });

  /** A client of `era` of SDK servers with the task methods only, on the in-memory pair. */
  function serve(era: ProtocolEra, clientCapabilities: Record<string, unknown> = {}) {
    const handlers = new TaskHandlers(store, fakeRunner().runner);
    const serverOf = (served: ProtocolEra) => {
      const made = new Server(
        { name: 'tasks', version: '1' },
        { supportedProtocolVersions: supportedRevisions(served) },
      );
      made.registerCapabilities(handlers.capabilities(served));
      handlers.register(made, served, () => defaultCallerIdentity(caller));
      return made;
    };
    return openClient(serverOf, era, clientCapabilities);
  }

  it('answers the owner with the task, and anyone else as if it did not exist (2025-11-25)', async () => {
    await store.create({ taskId: 't-1', owner: 'user:alice', toolName: 'x', ttlMs: 60_000 });
    const client = await serve('legacy');
    caller = { user: { id: 'alice' } };
    expect((await client.ask('tasks/get', { taskId: 't-1' })).result).toMatchObject({
      taskId: 't-1',
      status: 'working',
      ttl: 60_000,
    });
    caller = { user: { id: 'mallory' } };
    const refused = await client.ask('tasks/get', { taskId: 't-1' });
    expect(refused.error).toMatchObject({ code: -32602 });
    expect(refused.error?.message).toContain('Unknown task "t-1"');
    expect((await client.ask('tasks/list', {})).result).toEqual({ tasks: [] });
  });

  it('does the same on 2026-07-28, after checking the extension was declared', async () => {
    await store.create({ taskId: 't-2', owner: 'user:alice', toolName: 'x', ttlMs: 60_000 });
    caller = { user: { id: 'alice' } };
    const undeclared = await (await serve('modern')).ask('tasks/get', { taskId: 't-2' });
    expect(undeclared.error).toMatchObject({ code: -32021 });
    const client = await serve('modern', DECLARED[CLIENT_CAPABILITIES_META_KEY]);
    const own = await client.ask('tasks/get', { taskId: 't-2' });
    expect(own.result).toMatchObject({ resultType: 'complete', taskId: 't-2', ttlMs: 60_000 });
    caller = { user: { id: 'mallory' } };
    const other = await client.ask('tasks/get', { taskId: 't-2' });
    expect(other.error).toMatchObject({ code: -32602 });
    const cancel = await client.ask('tasks/cancel', { taskId: 't-2' });
    expect(cancel.error).toMatchObject({ code: -32602 });
    expect((await store.get('t-2'))?.status).toBe('working');
  });
});

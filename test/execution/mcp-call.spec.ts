import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { DetachedResponse } from '../../lib/context/detached-response.js';
import { McpCall, type TaskBinding } from '../../lib/execution/mcp-call.js';
import { fakeScope, fakeServerContext, toolCall } from '../support/fake-call.js';

/** A task binding whose status messages are recorded. */
function binding(overrides: Partial<TaskBinding> = {}) {
  const controller = new AbortController();
  const statuses: string[] = [];
  const task: TaskBinding = {
    id: 'task-1',
    signal: controller.signal,
    setStatus: async (message) => void statuses.push(message),
    ...overrides,
  };
  return { task, controller, statuses };
}

const accepted = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('McpCall as a round of a task', () => {
  it('makes a new call with the task’s signal, leaving the first one as it was', () => {
    const request = new AbortController();
    const first = toolCall(
      'export',
      { year: 2026 },
      fakeScope(fakeServerContext({ signal: request.signal }).ctx),
    );
    const { task, controller } = binding();
    const round = first.asTask(task);

    expect(round).not.toBe(first);
    expect(round.signal).toBe(controller.signal);
    expect(round.task).toBe(task);
    expect(round).toMatchObject({ kind: 'tool', name: 'export', arguments: { year: 2026 } });
    // The call of the request still answers to the request.
    expect(first.signal).toBe(request.signal);
    expect(first.task).toBeUndefined();
    expect(first.taskBinding).toBeUndefined();
  });

  it('keeps what the call was made of, so a later stage can make the next form of it', () => {
    const scope = fakeScope();
    const call = new McpCall({ kind: 'prompt', name: 'p', arguments: {}, scope, phase: 'list' });
    expect(call.parts).toMatchObject({ kind: 'prompt', name: 'p', scope, phase: 'list' });
    expect(call.phase).toBe('list');
    expect(toolCall('t').phase).toBe('call');
  });
});

describe('McpCall#reportProgress', () => {
  it('notifies only rising values, with the request’s progress token', async () => {
    const { ctx, notify } = fakeServerContext({ progressToken: 'p-1' });
    const call = toolCall('import', {}, fakeScope(ctx));
    await call.reportProgress(10, 100, 'Started');
    await call.reportProgress(10, 100); // not above the last: dropped
    await call.reportProgress(5); // below: dropped
    await call.reportProgress(50);
    expect(notify.mock.calls.map(([notification]) => notification)).toEqual([
      {
        method: 'notifications/progress',
        params: { progressToken: 'p-1', progress: 10, total: 100, message: 'Started' },
      },
      { method: 'notifications/progress', params: { progressToken: 'p-1', progress: 50 } },
    ]);
  });

  it('sends nothing when the client asked for no progress', async () => {
    const { ctx, notify } = fakeServerContext();
    await toolCall('import', {}, fakeScope(ctx)).reportProgress(1);
    expect(notify).not.toHaveBeenCalled();
  });

  it('sends nothing once the call was cancelled', async () => {
    const request = new AbortController();
    const { ctx, notify } = fakeServerContext({ progressToken: 7, signal: request.signal });
    const call = toolCall('import', {}, fakeScope(ctx));
    request.abort();
    await call.reportProgress(1);
    expect(notify).not.toHaveBeenCalled();
  });

  it('becomes the task’s status message in a task, rising values only', async () => {
    const { ctx, notify } = fakeServerContext({ progressToken: 'p-1' });
    const { task, statuses } = binding();
    const call = toolCall('import', {}, fakeScope(ctx), task);
    await call.reportProgress(1, 4, 'Importing');
    await call.reportProgress(1, 4, 'Again');
    await call.reportProgress(2, 4);
    await call.reportProgress(3);
    expect(statuses).toEqual(['Importing (1/4)', '2/4', '3']);
    // A task outlives its request: there is nobody to notify.
    expect(notify).not.toHaveBeenCalled();
  });

  it('stops updating a task’s status once the task was cancelled', async () => {
    const { task, controller, statuses } = binding();
    const call = toolCall('import', {}, fakeScope(), task);
    controller.abort();
    await call.reportProgress(1);
    expect(statuses).toEqual([]);
  });
});

describe('McpCall#log', () => {
  it('hands the log to the SDK, which applies the client’s level', async () => {
    const { ctx, log } = fakeServerContext();
    await toolCall('t', {}, fakeScope(ctx)).log('warning', { disk: 'full' }, 'storage');
    expect(log).toHaveBeenCalledExactlyOnceWith('warning', { disk: 'full' }, 'storage');
  });

  it('is silent in a task, which has no stream left to log to', async () => {
    const { ctx, log } = fakeServerContext();
    await expect(
      toolCall('t', {}, fakeScope(ctx), binding().task).log('info', 'x'),
    ).resolves.toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });
});

describe('McpCall answers and state', () => {
  it('reads the request’s state and answers outside a task', () => {
    // What the SDK's verify hook resolved: the state, with the entry that minted it.
    const { ctx } = fakeServerContext({
      requestState: { entry: 'deploy', state: { step: 2 } },
      inputResponses: { confirm: accepted({ ok: true }) },
    });
    const call = toolCall('deploy', {}, fakeScope(ctx));
    expect(call.requestState()).toEqual({ step: 2 });
    expect(call.acceptedInput('confirm')).toEqual({ ok: true });
    expect(call.input('confirm')).toEqual({ kind: 'elicit', ...accepted({ ok: true }) });
    expect(call.input('other')).toEqual({ kind: 'missing' });
  });

  it('reads the request’s until the task asked its own first question', () => {
    const { ctx } = fakeServerContext({
      requestState: { entry: 'deploy', state: 'from-request' },
    });
    const call = toolCall('deploy', {}, fakeScope(ctx), binding().task);
    expect(call.requestState()).toBe('from-request');
  });

  it('reads the task’s state and answers once the task asked, never the request’s', () => {
    const { ctx } = fakeServerContext({
      requestState: 'from-request',
      inputResponses: { confirm: accepted({ ok: false }) },
    });
    const { task } = binding({
      inputResponses: { confirm: accepted({ ok: true }) },
      requestState: { round: 2 },
    });
    const call = toolCall('deploy', {}, fakeScope(ctx), task);
    expect(call.requestState()).toEqual({ round: 2 });
    expect(call.acceptedInput('confirm')).toEqual({ ok: true });
    // A round whose method minted no state has none, even if the request carried one.
    const stateless = toolCall('deploy', {}, fakeScope(ctx), binding({ inputResponses: {} }).task);
    expect(stateless.requestState()).toBeUndefined();
  });

  it('mints state through the request scope, for this request and this entry', async () => {
    const { ctx } = fakeServerContext();
    const mint = vi.fn(async () => 'minted');
    const call = toolCall('deploy', {}, fakeScope(ctx, { mintRequestState: mint }));
    await expect(call.mintRequestState({ step: 1 })).resolves.toBe('minted');
    expect(mint).toHaveBeenCalledExactlyOnceWith({ step: 1 }, ctx, 'deploy');
  });
});

describe('McpCall facts of the request', () => {
  it('reads the client’s capabilities from the envelope on 2026-07-28', () => {
    const capabilities = { elicitation: {} };
    const { ctx } = fakeServerContext({
      envelope: { [CLIENT_CAPABILITIES_META_KEY]: capabilities },
    });
    const legacy = vi.fn(() => ({ sampling: {} }));
    const call = toolCall(
      't',
      {},
      fakeScope(ctx, { era: 'modern', legacyClientCapabilities: legacy }),
    );
    expect(call.clientCapabilities).toBe(capabilities);
    expect(legacy).not.toHaveBeenCalled();
    expect(call.era).toBe('modern');
  });

  it('reads them from initialize on a 2025-era connection', () => {
    const { ctx } = fakeServerContext({
      envelope: { [CLIENT_CAPABILITIES_META_KEY]: { elicitation: {} } },
    });
    const call = toolCall('t', {}, fakeScope(ctx, { legacyClientCapabilities: () => ({}) }));
    expect(call.clientCapabilities).toEqual({});
  });

  it('reads the caller’s scopes from the platform request once', () => {
    const request = { headers: { 'x-scopes': 'a b' } };
    const readScopes = vi.fn(() => ['a', 'b']);
    const call = toolCall('t', {}, fakeScope(undefined, { transport: { request }, readScopes }));
    expect(call.scopes).toEqual(['a', 'b']);
    expect(call.scopes).toEqual(['a', 'b']);
    expect(readScopes).toHaveBeenCalledExactlyOnceWith(request);
  });

  it('speaks English without i18n, else the negotiated locale', () => {
    expect(toolCall('t').locale).toBe('en');
    expect(toolCall('t', {}, fakeScope(undefined, { locale: 'de' })).locale).toBe('de');
  });

  it('gives guards the request, a detached response and the call, the same response each time', () => {
    const request = { headers: {} };
    const response = { real: true };
    const call = toolCall(
      't',
      {},
      fakeScope(fakeServerContext({ id: 42 }).ctx, {
        transport: { request, response },
      }),
    );
    const [givenRequest, detached, self] = call.handlerArgs();
    expect(givenRequest).toBe(request);
    expect(detached).toBeInstanceOf(DetachedResponse);
    expect(self).toBe(call);
    expect(call.handlerArgs()[1]).toBe(detached);
    expect(call.httpResponse).toBe(response);
    expect(call.requestId).toBe(42);
  });
});

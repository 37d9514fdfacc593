import { describe, expect, it, vi } from 'vitest';
import { InvalidArgumentsError } from '../../lib/errors/invalid-arguments.error.js';
import type { CallPhases } from '../../lib/execution/call-phases.js';
import { McpCall } from '../../lib/execution/mcp-call.js';
import { McpInvocation } from '../../lib/execution/mcp-invocation.js';
import type { ArgumentIssue } from '../../lib/interfaces/argument-issue.interface.js';
import { fakeScope, toolCall } from '../support/fake-call.js';

const ISSUES: ArgumentIssue[] = [
  { path: '/limit', constraint: 'max', message: 'limit must not be greater than 50' },
];
const invalid = { ok: false as const, issues: ISSUES };
const valid = (value: object | undefined) => ({ ok: true as const, value });

const observed = () => ({ methodReached: vi.fn(), argumentsTaken: vi.fn() });

const phased = () => {
  const phases = {
    validation: vi.fn(async (run: () => unknown) => run()),
    pipeline: vi.fn(async (run: () => Promise<unknown>) => run()),
    methodReached: vi.fn(),
  };
  const call = new McpCall({
    kind: 'tool',
    name: 'search',
    arguments: { limit: 99 },
    scope: fakeScope(),
    phases: phases as unknown as CallPhases,
  });
  return { call, phases };
};

describe('McpInvocation#validatedArguments', () => {
  it('hands the method the validated value, and tells that the method took it', () => {
    const dto = { query: 'lamp' };
    const observer = observed();
    const invocation = McpInvocation.of(toolCall('search'), valid(dto), observer);
    expect(invocation.validatedArguments()).toBe(dto);
    expect(observer.argumentsTaken).toHaveBeenCalledOnce();
  });

  it('raises the failure with every issue, naming the tool, and tells nothing', () => {
    const observer = observed();
    const invocation = McpInvocation.of(toolCall('search'), invalid, observer);
    let thrown: unknown;
    try {
      invocation.validatedArguments();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentsError);
    expect(thrown).toMatchObject({ target: 'search', issues: ISSUES, kind: 'tool' });
    expect(observer.argumentsTaken).not.toHaveBeenCalled();
  });

  it('names what failed by the kind of call (URI variables for a resource)', () => {
    const scope = fakeScope();
    const read = new McpCall({ kind: 'resource', name: 'app://x/1', arguments: {}, scope });
    expect(() => McpInvocation.of(read, invalid).validatedArguments()).toThrow(
      'Invalid URI variables for resource "app://x/1"',
    );
  });

  it('works without an observer', () => {
    expect(McpInvocation.of(toolCall('t'), valid(undefined)).validatedArguments()).toBeUndefined();
  });
});

describe('McpInvocation#methodReached', () => {
  it('tells the observer and the timed phases when the arguments are valid', () => {
    const { call, phases } = phased();
    const observer = observed();
    McpInvocation.of(call, valid({}), observer).methodReached();
    expect(observer.methodReached).toHaveBeenCalledOnce();
    expect(phases.methodReached).toHaveBeenCalledOnce();
  });

  it('is silent for invalid arguments: they are refused where they are resolved', () => {
    const { call, phases } = phased();
    const observer = observed();
    McpInvocation.of(call, invalid, observer).methodReached();
    expect(observer.methodReached).not.toHaveBeenCalled();
    expect(phases.methodReached).not.toHaveBeenCalled();
  });
});

describe('McpInvocation as a call', () => {
  it('is the call it checked: same name, arguments, signal and task', () => {
    const controller = new AbortController();
    const task = { id: 't-1', signal: controller.signal, setStatus: async () => undefined };
    const call = toolCall('search', { q: 'x' }, fakeScope(), task);
    const invocation = McpInvocation.of(call, valid({}));
    expect(invocation).toBeInstanceOf(McpCall);
    expect(invocation).toMatchObject({ kind: 'tool', name: 'search', arguments: { q: 'x' } });
    expect(invocation.signal).toBe(controller.signal);
    expect(invocation.task).toBe(task);
  });

  it('shares the call’s detached response: what enhancers write is read from the call', () => {
    const call = toolCall('search');
    const invocation = McpInvocation.of(call, valid({}));
    invocation.detachedResponse.setHeader('Retry-After', '30');
    expect(invocation.detachedResponse).toBe(call.detachedResponse);
    expect(invocation.handlerArgs()[1]).toBe(call.detachedResponse);
    expect(call.detachedResponse.getHeaders()).toEqual({ 'retry-after': '30' });
  });
});

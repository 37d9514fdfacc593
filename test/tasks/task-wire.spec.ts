import * as v1 from '@modelcontextprotocol/ext-tasks/core/v1';
import * as v2 from '@modelcontextprotocol/ext-tasks/core/v2';
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  RELATED_TASK_META_KEY,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { McpTask, McpTaskStatus } from '../../lib/interfaces/mcp-task-store.interface.js';
import {
  declaresTasks,
  isFinal,
  legacyCreateTaskResult,
  legacyTask,
  legacyTaskPayload,
  modernAcknowledgement,
  modernCreateTaskResult,
  modernDetailedTask,
  taskParams,
  tasksExtensionRequired,
  unknownTask,
} from '../../lib/tasks/task-wire.js';
import { TASKS_EXTENSION } from '../../lib/mcp.constants.js';
import { fakeServerContext } from '../support/fake-call.js';

const task = (overrides: Partial<McpTask> = {}): McpTask => ({
  taskId: '6f1c2a4e-0000-4000-8000-000000000001',
  owner: 'alice',
  toolName: 'export_catalog',
  status: 'working',
  createdAt: '2026-03-01T10:00:00.000Z',
  lastUpdatedAt: '2026-03-01T10:00:01.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 1_000,
  ...overrides,
});

/** The issues a schema of ext-tasks finds, empty when the value matches. */
const problems = (schema: { safeParse(value: unknown): any }, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues;
};

const RESULT = { content: [{ type: 'text' as const, text: 'done' }] };

/** declaresTasks of a request whose envelope carries `capabilities`. */
const declared = (capabilities: unknown) =>
  declaresTasks(
    fakeServerContext({ envelope: { [CLIENT_CAPABILITIES_META_KEY]: capabilities } }).ctx,
  );

describe('declaresTasks', () => {
  it('is true only when the envelope names the tasks extension', () => {
    expect(declared({ extensions: { [TASKS_EXTENSION]: {} } })).toBe(true);
    expect(declared({ extensions: { 'io.example/other': {} } })).toBe(false);
    expect(declared({})).toBe(false);
    expect(declaresTasks(fakeServerContext().ctx)).toBe(false);
  });
});

describe('the errors', () => {
  it('refuses a call without the extension with -32021, naming what to declare', () => {
    const error = tasksExtensionRequired('The tool "export"');
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.code).toBe(-32021);
    expect(error.message).toBe(
      `The tool "export" needs the extension "${TASKS_EXTENSION}": declare ` +
        `"${TASKS_EXTENSION}" in params._meta["${CLIENT_CAPABILITIES_META_KEY}"].extensions.`,
    );
    expect(error.data).toMatchObject({
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  });

  it('answers an unknown task with -32602, quoting the id as JSON', () => {
    const error = unknownTask('nope"');
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('Unknown task "nope\\""');
  });
});

describe('2026-07-28 shapes', () => {
  it('answers tools/call with a flat CreateTaskResult, and no outcome in it', () => {
    const created = modernCreateTaskResult(task({ statusMessage: 'Queued' }));
    expect(problems(v2.CreateTaskResultV2Schema, created)).toEqual([]);
    expect(created).toEqual({
      resultType: 'task',
      taskId: task().taskId,
      status: 'working',
      statusMessage: 'Queued',
      createdAt: task().createdAt,
      lastUpdatedAt: task().lastUpdatedAt,
      ttlMs: 60_000,
      pollIntervalMs: 1_000,
    });
  });

  it('leaves out what the task does not have (no undefined keys on the wire)', () => {
    const created = modernCreateTaskResult(task({ pollIntervalMs: undefined, ttlMs: null }));
    expect(Object.keys(created)).not.toContain('statusMessage');
    expect(Object.keys(created)).not.toContain('pollIntervalMs');
    expect(created.ttlMs).toBeNull();
    expect(problems(v2.CreateTaskResultV2Schema, created)).toEqual([]);
  });

  it.each<[McpTaskStatus, Partial<McpTask>]>([
    ['working', {}],
    ['input_required', { inputRequests: { name: { method: 'roots/list' } as never } }],
    ['completed', { result: RESULT }],
    ['failed', { error: { code: -32603, message: 'boom' } }],
    ['cancelled', {}],
  ])('gives a %s task to tasks/get as GetTaskResultV2', (status, outcome) => {
    const detailed = modernDetailedTask(task({ status, ...outcome }));
    expect(problems(v2.GetTaskResultV2Schema, detailed)).toEqual([]);
    expect(detailed.resultType).toBe('complete');
  });

  it('inlines the result of a completed task as a complete tool result of this revision', () => {
    const detailed = modernDetailedTask(task({ status: 'completed', result: RESULT }));
    expect(detailed.result).toEqual({ resultType: 'complete', ...RESULT });
    expect(problems(v2.CallToolResultV2Schema, detailed.result)).toEqual([]);
    expect(detailed).not.toHaveProperty('error');
    expect(detailed).not.toHaveProperty('inputRequests');
  });

  it('inlines the error of a failed task, and the questions of one that waits', () => {
    const error = { code: -32602, message: 'bad', data: { at: '/x' } };
    expect(modernDetailedTask(task({ status: 'failed', error })).error).toEqual(error);
    // A task parked without its questions recorded still carries the field clients read.
    expect(modernDetailedTask(task({ status: 'input_required' })).inputRequests).toEqual({});
    expect(modernDetailedTask(task({ status: 'working', result: RESULT }))).not.toHaveProperty(
      'result',
    );
  });

  it('acknowledges tasks/update and tasks/cancel with nothing but resultType', () => {
    expect(modernAcknowledgement()).toEqual({ resultType: 'complete' });
    expect(problems(v2.UpdateTaskResultV2Schema, modernAcknowledgement())).toEqual([]);
    expect(problems(v2.CancelTaskResultV2Schema, modernAcknowledgement())).toEqual([]);
  });
});

describe('2025-11-25 shapes', () => {
  it('names the times ttl and pollInterval, as that revision does', () => {
    const wire = legacyTask(task({ statusMessage: 'Halfway' }));
    expect(wire).toEqual({
      taskId: task().taskId,
      status: 'working',
      statusMessage: 'Halfway',
      createdAt: task().createdAt,
      lastUpdatedAt: task().lastUpdatedAt,
      ttl: 60_000,
      pollInterval: 1_000,
    });
    expect(problems(v1.GetTaskResultV1Schema, wire)).toEqual([]);
  });

  it('shows a completed task whose result is an error as failed', () => {
    const failed = task({ status: 'completed', result: { ...RESULT, isError: true } });
    expect(legacyTask(failed).status).toBe('failed');
    expect(legacyTask(task({ status: 'completed', result: RESULT })).status).toBe('completed');
  });

  it('answers tools/call with { task }', () => {
    const created = legacyCreateTaskResult(task());
    expect(created).toEqual({ task: legacyTask(task()) });
    expect(problems(v1.CreateTaskResultV1Schema, created)).toEqual([]);
  });

  it('answers tasks/result with the result, tied to its task, keeping its own _meta', () => {
    const done = task({ status: 'completed', result: { ...RESULT, _meta: { mine: 1 } } });
    const payload = legacyTaskPayload(done);
    expect(payload).toEqual({
      ...RESULT,
      _meta: { mine: 1, [RELATED_TASK_META_KEY]: { taskId: done.taskId } },
    });
    expect(problems(v1.TaskResultV1Schema, payload)).toEqual([]);
    expect(problems(v1.CallToolResultV1Schema, payload)).toEqual([]);
  });

  it('answers tasks/result of a failed task with its JSON-RPC error', () => {
    const failed = task({ status: 'failed', error: { code: -32602, message: 'bad', data: 1 } });
    const thrown = (() => {
      try {
        legacyTaskPayload(failed);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect(thrown).toMatchObject({ code: -32602, message: 'bad', data: 1 });
  });

  it('answers tasks/result of a cancelled task with -32600', () => {
    expect(() => legacyTaskPayload(task({ status: 'cancelled' }))).toThrow(
      expect.objectContaining({ code: -32600, message: expect.stringContaining('cancelled') }),
    );
  });
});

describe('isFinal', () => {
  it('is true for completed, failed and cancelled only', () => {
    const statuses: McpTaskStatus[] = [
      'working',
      'input_required',
      'completed',
      'failed',
      'cancelled',
    ];
    expect(statuses.filter(isFinal)).toEqual(['completed', 'failed', 'cancelled']);
  });
});

/** What the SDK's check of `params` answers for a task method of `kind`. */
const validate = (kind: 'id' | 'update' | 'list', value: unknown) =>
  taskParams(kind).params['~standard'].validate(value) as {
    value?: unknown;
    issues?: Array<{ message: string }>;
  };

describe('taskParams', () => {
  it('takes a string taskId, and refuses any other with a message that says what it is', () => {
    expect(validate('id', { taskId: 'abc' })).toEqual({ value: { taskId: 'abc' } });
    for (const params of [{ taskId: 1 }, {}, undefined]) {
      expect(validate('id', params).issues?.[0]?.message).toMatch(/taskId must be the string id/);
    }
  });

  it('takes an optional string cursor for tasks/list', () => {
    expect(validate('list', undefined)).toEqual({ value: {} });
    expect(validate('list', { cursor: 'c1' })).toEqual({ value: { cursor: 'c1' } });
    expect(validate('list', { cursor: 7 }).issues?.[0]?.message).toMatch(/nextCursor/);
  });

  it('takes answers as an object for tasks/update, or none (the SDK may have lifted them)', () => {
    const answers = { taskId: 't', inputResponses: { name: { action: 'accept' } } };
    expect(validate('update', answers)).toEqual({ value: answers });
    expect(validate('update', { taskId: 't' })).toEqual({ value: { taskId: 't' } });
    for (const inputResponses of [[], null, 'yes']) {
      expect(validate('update', { taskId: 't', inputResponses }).issues?.[0]?.message).toMatch(
        /inputResponses must be an object/,
      );
    }
  });
});

import * as v1 from '@modelcontextprotocol/ext-tasks/core/v1';
import * as v2 from '@modelcontextprotocol/ext-tasks/core/v2';

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSION = '2025-11-25';
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** One JSON-RPC request and what the server answered, as they crossed the wire. */
export interface Exchange {
  readonly method: string;
  readonly params: Record<string, any>;
  readonly status: number;
  /** The response message (`result` or `error`). */
  readonly message: Record<string, any>;
  /** Notifications sent on the response's stream before the response. */
  readonly notifications: Array<Record<string, any>>;
}

type Checker = (exchange: Exchange) => string[];

/**
 * Every exchange of one client, each checked against the ext-tasks schemas of its
 * revision; `violations` lists what did not match, for the tests to expect empty.
 */
export class WireLog {
  readonly exchanges: Exchange[] = [];
  readonly violations: string[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly check: Checker) {}

  record(exchange: Exchange): void {
    this.exchanges.push(exchange);
    for (const problem of this.check(exchange)) {
      this.violations.push(`${exchange.method}: ${problem}\n${JSON.stringify(exchange.message)}`);
    }
  }

  /** Records what `reading` resolves to once it does (a response read in the background). */
  track(reading: Promise<Exchange | undefined>): void {
    const done = reading.then((exchange) => exchange && this.record(exchange)).catch(() => {});
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  /** Waits for the responses still being read. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  /** The answers to `method`, oldest first. */
  answersTo(method: string): Array<Record<string, any>> {
    return this.exchanges.filter((e) => e.method === method).map((e) => e.message);
  }
}

/** The JSON-RPC messages of a response body, sent as JSON or as SSE events. */
export async function messagesOf(res: Response): Promise<Array<Record<string, any>>> {
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (!text) return [];
  if (!type.startsWith('text/event-stream')) {
    const body = JSON.parse(text);
    return Array.isArray(body) ? body : [body];
  }
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data));
}

/** Splits a response's messages into the response and the notifications before it. */
export function exchangeOf(
  request: { method: string; params?: Record<string, any> },
  status: number,
  messages: Array<Record<string, any>>,
): Exchange {
  const message = messages.find((m) => 'result' in m || 'error' in m) ?? {};
  const notifications = messages.filter((m) => 'method' in m && !('id' in m));
  return { method: request.method, params: request.params ?? {}, status, message, notifications };
}

const problemsOf = (schema: { safeParse(value: unknown): any }, value: unknown, what: string) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : [`${what}: ${JSON.stringify(parsed.error.issues)}`];
};

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** What every 2026 task object must hold beyond its schema. */
function modernTaskProblems(task: Record<string, any>): string[] {
  const problems: string[] = [];
  for (const key of ['createdAt', 'lastUpdatedAt']) {
    if (!ISO_8601.test(String(task[key]))) problems.push(`${key} is not ISO 8601`);
  }
  if (!(task.ttlMs === null || (Number.isInteger(task.ttlMs) && task.ttlMs > 0)))
    problems.push('ttlMs is neither null nor a positive integer');
  if (
    task.pollIntervalMs !== undefined &&
    !(Number.isInteger(task.pollIntervalMs) && task.pollIntervalMs > 0)
  )
    problems.push('pollIntervalMs is not a positive integer');
  for (const old of ['ttl', 'pollInterval', 'requestState', 'task'])
    if (old in task) problems.push(`carries "${old}"`);
  return problems;
}

/** Checks a 2026-07-28 exchange against `@modelcontextprotocol/ext-tasks/core/v2`. */
export const checkModern: Checker = ({ method, params, message }) => {
  if (message.error) return problemsOf(v2.ErrorV2Schema, message.error, 'error');
  const result = message.result as Record<string, any> | undefined;
  if (!result) return ['neither result nor error'];
  switch (method) {
    case 'tools/call': {
      if (result.resultType === 'task') {
        const extra = ['result', 'error', 'inputRequests', 'content'].filter((k) => k in result);
        return [
          ...problemsOf(v2.CreateTaskResultV2Schema, result, 'CreateTaskResultV2'),
          ...modernTaskProblems(result),
          ...extra.map((key) => `the CreateTaskResult carries "${key}"`),
        ];
      }
      const schema =
        result.resultType === 'input_required'
          ? v2.InputRequiredCallToolResultV2Schema
          : v2.CallToolResultV2Schema;
      return [
        ...problemsOf(schema, result, `${result.resultType} tools/call result`),
        ...('taskId' in result ? ['a result that is not a task carries a taskId'] : []),
      ];
    }
    case 'tasks/get': {
      const problems = [
        ...problemsOf(v2.GetTaskResultV2Schema, result, 'GetTaskResultV2'),
        ...modernTaskProblems(result),
      ];
      if (result.taskId !== params.taskId) problems.push('taskId differs from the request');
      if (result.status === 'completed') {
        // What the ext-tasks client decodes the inlined result with.
        problems.push(...problemsOf(v2.CallToolResultV2Schema, result.result, 'inlined result'));
        if (result.result?.resultType !== 'complete')
          problems.push('the inlined result lacks resultType "complete"');
        if (result.result?._meta?.[RELATED_TASK_META]) problems.push('the result has related-task');
      }
      return problems;
    }
    case 'tasks/update':
    case 'tasks/cancel': {
      const schema =
        method === 'tasks/update' ? v2.UpdateTaskResultV2Schema : v2.CancelTaskResultV2Schema;
      const taskFields = ['taskId', 'status', 'result', 'error'].filter((k) => k in result);
      return [
        ...problemsOf(schema, result, method),
        ...taskFields.map((key) => `the acknowledgement carries "${key}"`),
      ];
    }
    default:
      return [];
  }
};

function legacyTaskProblems(task: Record<string, any>): string[] {
  const problems: string[] = [];
  for (const key of ['createdAt', 'lastUpdatedAt']) {
    if (!ISO_8601.test(String(task[key]))) problems.push(`${key} is not ISO 8601`);
  }
  for (const modern of ['ttlMs', 'pollIntervalMs', 'resultType'])
    if (modern in task) problems.push(`a 2025 task carries "${modern}"`);
  return problems;
}

/** Checks a 2025-11-25 exchange against `@modelcontextprotocol/ext-tasks/core/v1`. */
export const checkLegacy: Checker = ({ method, params, message, notifications }) => {
  const problems = notifications
    .filter((n) => n.method === 'notifications/tasks/status')
    .flatMap((n) => [
      ...problemsOf(v1.TaskStatusNotificationV1Schema, n, 'TaskStatusNotificationV1'),
      ...legacyTaskProblems(n.params ?? {}),
    ]);
  if (message.error) {
    const { code, message: text } = message.error;
    if (!Number.isInteger(code) || typeof text !== 'string') problems.push('malformed error');
    return problems;
  }
  const result = message.result as Record<string, any> | undefined;
  if (!result) return [...problems, 'neither result nor error'];
  switch (method) {
    case 'initialize':
      problems.push(
        ...problemsOf(v1.ServerCapabilitiesV1Schema, result.capabilities, 'capabilities'),
      );
      break;
    case 'tools/list':
      for (const tool of result.tools ?? [])
        problems.push(...problemsOf(v1.ToolV1Schema, tool, `tool ${tool.name}`));
      break;
    case 'tools/call':
      // A call with params.task that guards or validation refused is answered as usual.
      if (params.task && 'task' in result) {
        problems.push(
          ...problemsOf(v1.CreateTaskResultV1Schema, result, 'CreateTaskResultV1'),
          ...legacyTaskProblems(result.task ?? {}),
        );
      } else {
        problems.push(...problemsOf(v1.CallToolResultV1Schema, result, 'CallToolResultV1'));
        if ('task' in result) problems.push('a call without params.task answered with a task');
      }
      break;
    case 'tasks/get':
    case 'tasks/cancel':
      problems.push(
        ...problemsOf(
          method === 'tasks/get' ? v1.GetTaskResultV1Schema : v1.CancelTaskResultV1Schema,
          result,
          method,
        ),
        ...legacyTaskProblems(result),
      );
      if (result.taskId !== params.taskId) problems.push('taskId differs from the request');
      break;
    case 'tasks/list':
      problems.push(
        ...problemsOf(v1.ListTasksResultV1Schema, result, 'ListTasksResultV1'),
        ...(result.tasks ?? []).flatMap(legacyTaskProblems),
      );
      break;
    case 'tasks/result':
      problems.push(
        ...problemsOf(v1.TaskResultV1Schema, result, 'TaskResultV1'),
        ...problemsOf(v1.CallToolResultV1Schema, result, 'CallToolResultV1'),
      );
      if (result._meta?.[RELATED_TASK_META]?.taskId !== params.taskId)
        problems.push('the result lacks related-task _meta naming the task');
      break;
  }
  return problems;
};

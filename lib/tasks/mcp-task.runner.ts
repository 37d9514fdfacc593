import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { McpCall, type TaskBinding } from '../execution/mcp-call.js';
import type {
  McpTask,
  McpTaskEvent,
  McpTaskStore,
} from '../interfaces/mcp-task-store.interface.js';
import type { RegisteredTool } from '../registry/registered-primitives.js';
import type { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { traceTaskRun, type TaskRunTrace } from '../telemetry/task-run.tracer.js';

/** How long a task lives and how often its client should poll. */
export interface TaskTiming {
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
}

/** What starting a task call came to: an answer in the request, or a task. */
export type TaskStart =
  | { readonly kind: 'answered'; readonly result: CallToolResult | InputRequiredResult }
  | { readonly kind: 'task'; readonly task: McpTask };

type Settled =
  | { readonly ok: true; readonly value: CallToolResult | InputRequiredResult }
  | { readonly ok: false; readonly error: unknown };

/** A task this process runs: what its later rounds and its cancellation need. */
interface Run {
  readonly tool: RegisteredTool;
  readonly first: McpCall;
  readonly controller: AbortController;
  readonly expiry?: NodeJS.Timeout;
  readonly trace?: TaskRunTrace;
}

const REACHED = Symbol('method reached');
const GRACE = Symbol('grace over');

/** Resolves after the current macrotask: what the method does without waiting is done by then. */
const nextMacrotask = () => new Promise<typeof GRACE>((resolve) => setImmediate(resolve, GRACE));

const settle = (promise: Promise<CallToolResult | InputRequiredResult>): Promise<Settled> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

/**
 * Runs tool calls as MCP tasks (docs/tasks.md). A call starts like any other: validation,
 * guards, interceptors and pipes run in the request, so a refused or invalid call is
 * answered there and never becomes a task. Once the method is reached the call is
 * detached: a question the method asks before it first waits is a round of the request
 * (the client answers it with a new `tools/call`); otherwise the task is stored, the
 * client gets its id, and the outcome goes to the store when the method ends. Questions
 * asked later park the task in `input_required`; when the store says every one is
 * answered, the method is called again with the answers. One runner per server; the
 * store may be shared by several instances, whose runners each run their own tasks.
 */
export class McpTaskRunner {
  private readonly logger = new Logger('McpModule');
  private readonly runs = new Map<string, Run>();
  private readonly unsubscribe: () => void;
  private telemetry?: McpTelemetry;

  constructor(private readonly store: McpTaskStore) {
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
  }

  /** Gives each task's run a span, linked to the request that started it. */
  traceWith(telemetry: McpTelemetry | undefined): void {
    this.telemetry = telemetry;
  }

  /**
   * Starts `call` of `tool` as a task of `owner`. Resolves once the task is stored (so a
   * `tasks/get` for it finds it), or with the answer when the call ended in the request.
   */
  async start(
    call: McpCall,
    tool: RegisteredTool,
    owner: string,
    timing: TaskTiming,
  ): Promise<TaskStart> {
    const taskId = randomUUID();
    const controller = new AbortController();
    let stored = false;
    let statusMessage: string | undefined;
    call.taskBinding = {
      id: taskId,
      signal: controller.signal,
      setStatus: async (message) => {
        if (stored) await this.store.setStatusMessage(taskId, message);
        else statusMessage = message;
      },
    };
    const reached = new Promise<typeof REACHED>((resolve) => {
      call.onMethodReached = () => resolve(REACHED);
    });
    const outcome = settle(tool.invoke(call));
    const first = await Promise.race([outcome, reached]);
    // Refused, invalid, or answered by an interceptor: the method never ran.
    if (first !== REACHED) return answered(first);
    const early = await Promise.race([outcome, nextMacrotask()]);
    if (early !== GRACE && early.ok && isInputRequiredResult(early.value)) return answered(early);

    const created = await this.store.create({
      taskId,
      owner,
      toolName: tool.key,
      ...timing,
      statusMessage,
    });
    stored = true;
    const run: Run = {
      tool,
      first: call,
      controller,
      expiry: this.expiryOf(taskId, timing, controller),
      trace: this.telemetry && traceTaskRun(this.telemetry, taskId, tool.key),
    };
    this.runs.set(taskId, run);
    if (early === GRACE) {
      void outcome.then((settled) => this.record(taskId, run, settled));
      return { kind: 'task', task: created };
    }
    const task = (await this.record(taskId, run, early)) ?? created;
    return { kind: 'task', task };
  }

  /** Aborts what this process runs (app shutdown); the tasks stay in the store, cancelled. */
  async close(): Promise<void> {
    this.unsubscribe();
    const ids = [...this.runs.keys()];
    await Promise.all(ids.map((taskId) => this.store.requestCancel(taskId).catch(() => undefined)));
    for (const taskId of ids) this.stop(taskId, 'The server shut down.');
  }

  /** Writes what a round of the method came to, and parks the run when it asked questions. */
  private async record(taskId: string, run: Run, settled: Settled): Promise<McpTask | undefined> {
    // Cancelled or expired: the store already says so, whatever the method returned.
    if (run.controller.signal.aborted) return undefined;
    const asks = settled.ok && isInputRequiredResult(settled.value);
    let task: McpTask | undefined;
    try {
      if (!settled.ok) {
        task = await this.store.fail(taskId, taskErrorOf(settled.error, this.logger));
      } else if (!isInputRequiredResult(settled.value)) {
        task = await this.store.complete(taskId, settled.value);
      } else {
        const { inputRequests = {}, requestState } = settled.value;
        task = await this.store.requireInput(taskId, inputRequests, requestState);
        // Only a state to carry, no question: the next round starts at once.
        if (task && Object.keys(inputRequests).length === 0) void this.resume(task);
      }
    } catch (error) {
      this.logger.error(
        `Task ${taskId} of tool "${run.tool.key}" could not be stored: ${String(error)}`,
      );
    }
    if (!asks) this.stop(taskId, undefined, task);
    return task;
  }

  private onEvent(event: McpTaskEvent): void {
    if (event.type === 'cancel-requested') this.stop(event.taskId, 'The task was cancelled.');
    else if (event.type === 'expired')
      this.stop(event.taskId, 'The task expired (its ttlMs ran out).');
    else if (event.type === 'input-complete') void this.resume(event.task);
  }

  /** The next round of a parked task: the method again, with the answers of this round. */
  private async resume(task: McpTask): Promise<void> {
    const run = this.runs.get(task.taskId);
    if (!run || run.controller.signal.aborted) return;
    const { first } = run;
    const scope = first.requestScope;
    let requestState: unknown;
    try {
      requestState =
        task.requestState === undefined
          ? undefined
          : await scope.verifyRequestState(task.requestState, first.serverContext);
    } catch {
      await this.record(task.taskId, run, {
        ok: false,
        error: new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          'The state the tool kept with its questions is invalid or expired (requestState.ttlSeconds); start the task again.',
        ),
      });
      return;
    }
    const call = new McpCall('tool', first.name, first.arguments, scope);
    call.phases = first.phases;
    const binding: TaskBinding = {
      id: task.taskId,
      signal: run.controller.signal,
      setStatus: async (message) => void (await this.store.setStatusMessage(task.taskId, message)),
      inputResponses: task.inputResponses ?? {},
      requestState,
    };
    call.taskBinding = binding;
    await this.record(task.taskId, run, await settle(run.tool.invoke(call)));
  }

  /**
   * Forgets a run that ended: its expiry timer, its span (ended with the task's outcome),
   * and, when it is stopped for a `reason` (cancel, expiry, shutdown), its method's signal.
   */
  private stop(taskId: string, reason?: string, task?: McpTask): void {
    const run = this.runs.get(taskId);
    if (!run) return;
    this.runs.delete(taskId);
    clearTimeout(run.expiry);
    if (reason) run.controller.abort(new Error(reason));
    const ended = reason ? { status: 'cancelled' } : task;
    run.trace?.end(
      ended && {
        status: ended.status,
        isError: task?.result?.isError,
        errorCode: task?.error?.code,
      },
    );
  }

  /** A running task is aborted when its TTL runs out, and recorded as cancelled. */
  private expiryOf(taskId: string, { ttlMs }: TaskTiming, controller: AbortController) {
    if (ttlMs === null) return undefined;
    const timer = setTimeout(() => {
      if (controller.signal.aborted) return;
      void this.store.requestCancel(taskId).catch(() => undefined);
      this.stop(taskId, 'The task expired (its ttlMs ran out).');
    }, ttlMs);
    timer.unref();
    return timer;
  }
}

const answered = (settled: Settled): TaskStart => {
  if (!settled.ok) throw settled.error;
  return { kind: 'answered', result: settled.value };
};

/**
 * The JSON-RPC error a failed task records: a `ProtocolError` the method threw as it is;
 * anything else (the invoker maps ordinary errors to `isError` results, so this is a bug
 * of the pipeline) as an internal error whose detail stays in the log.
 */
function taskErrorOf(error: unknown, logger: Logger) {
  if (error instanceof ProtocolError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined && { data: error.data }),
    };
  }
  logger.error(
    `A task failed unexpectedly: ${error instanceof Error ? error.stack : String(error)}`,
  );
  return {
    code: ProtocolErrorCode.InternalError,
    message: 'Internal error: the task failed unexpectedly; the details were logged on the server.',
  };
}

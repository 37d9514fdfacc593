import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { McpCall, type RequestScope, type TaskBinding } from '../execution/mcp-call.js';
import type { QueuedToolInvoker, ToolInvoker } from '../execution/tool-invoker.factory.js';
import { errorMessage } from '../utils/value-checks.util.js';
import type { McpTaskJob, McpTaskQueue } from '../interfaces/mcp-scale-out.interface.js';
import type {
  McpTask,
  McpTaskEvent,
  McpTaskStore,
} from '../interfaces/mcp-task-store.interface.js';
import type { RegisteredTool } from '../registry/registered-primitives.js';
import type { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { traceTaskRun, type TaskRunTrace } from '../telemetry/task-run.tracer.js';
import { isFinal } from './task-wire.js';
import { taskJobOf } from './task-job.js';
import {
  answered,
  settle,
  taskErrorOf,
  type Settled,
  type TaskStart,
  type TaskTiming,
} from './task-run.js';

export type { TaskStart, TaskTiming } from './task-run.js';

/** A task this process runs: what its later rounds and its cancellation need. */
interface Run {
  readonly tool: RegisteredTool;
  /** The tool's invoker: the whole call, or the call without its guards on a queue's worker. */
  readonly invoke: ToolInvoker;
  readonly first: McpCall;
  readonly controller: AbortController;
  readonly expiry?: NodeJS.Timeout;
  /** Set once the run starts (a queued job is read before it runs). */
  trace?: TaskRunTrace;
  /** Told when the run ends (a queue's job ends with it). */
  readonly ended?: () => void;
}

/** What a worker needs of its server to run a queued task (`tasks.queue`). */
export interface TaskJobServing {
  /** The tool by its listed name, on this instance. */
  tool(name: string): RegisteredTool | undefined;
  /** The request scope of the job's call: its caller, locale and request-state codec. */
  scopeOf(job: McpTaskJob, signal: AbortSignal): RequestScope;
}

/** The status message of a task cancelled because the instance running it shut down. */
const SHUT_DOWN_MESSAGE =
  'The server running this task shut down before it finished; start the task again.';

const REACHED = Symbol('method reached');
const GRACE = Symbol('grace over');

/** Resolves after the current macrotask: what the method does without waiting is done by then. */
const nextMacrotask = () => new Promise<typeof GRACE>((resolve) => setImmediate(resolve, GRACE));

/**
 * Runs tool calls as MCP tasks (docs/tasks.md). A call starts like any other: validation,
 * guards, interceptors and pipes run in the request, so a refused or invalid call is
 * answered there and never becomes a task. Once the method is reached the call is
 * detached: a question the method asks before it first waits is a round of the request
 * (the client answers it with a new `tools/call`); otherwise the task is stored, the
 * client gets its id, and the outcome goes to the store when the method ends. Questions
 * asked later park the task in `input_required`; when the store says every one is
 * answered, the method is called again with the answers. One runner per server; the
 * store may be shared by several instances, whose runners each run their own tasks. With
 * a queue (`tasks.queue`, docs/scale-out.md), the request only checks the call (guards,
 * arguments) and stores the task; whichever instance takes the job runs it to its end.
 */
export class McpTaskRunner {
  private readonly logger = new Logger(McpTaskRunner.name);
  private readonly runs = new Map<string, Run>();
  private readonly unsubscribe: () => void;
  private telemetry?: McpTelemetry;

  constructor(
    private readonly store: McpTaskStore,
    private readonly queue?: McpTaskQueue,
  ) {
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
  }

  /**
   * Takes the queue's jobs on this instance, and ends as failed the tasks whose instance
   * stopped before they did (the queue reports them lost).
   */
  serveQueue(serving: TaskJobServing): void {
    if (!this.queue) return;
    this.queue.onLost((job, reason) => {
      this.logger.warn(`Task ${job.taskId} of tool "${job.toolName}" was lost: ${reason}`);
      void this.store
        .fail(job.taskId, { code: ProtocolErrorCode.InternalError, message: reason })
        .catch(() => undefined);
    });
    this.queue.work((job) => this.runJob(job, serving));
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
    if (this.queue && tool.queued)
      return this.enqueue(call, tool, tool.queued, owner, timing, taskId);
    const controller = new AbortController();
    let stored = false;
    let statusMessage: string | undefined;
    const taskCall = call.asTask({
      id: taskId,
      signal: controller.signal,
      setStatus: async (message) => {
        if (stored) await this.store.setStatusMessage(taskId, message);
        else statusMessage = message;
      },
    });
    let methodReached!: () => void;
    const reached = new Promise<typeof REACHED>((resolve) => {
      methodReached = () => resolve(REACHED);
    });
    const outcome = settle(tool.invoke(taskCall, { methodReached }));
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
      invoke: tool.invoke,
      first: taskCall,
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

  /** A queued call: checked here, stored, and handed to whichever instance takes it. */
  private async enqueue(
    call: McpCall,
    tool: RegisteredTool,
    queued: QueuedToolInvoker,
    owner: string,
    timing: TaskTiming,
    taskId: string,
  ): Promise<TaskStart> {
    const refused = await queued.check(call);
    if (refused) return { kind: 'answered', result: refused };
    const task = await this.store.create({ taskId, owner, toolName: tool.key, ...timing });
    try {
      await this.queue!.enqueue(taskJobOf(call, taskId, tool.key, timing));
    } catch (error) {
      const message = `The task could not be queued (${errorMessage(error)}); retry the call.`;
      this.logger.error(`Task ${taskId} of tool "${tool.key}": ${message}`);
      await this.store
        .fail(taskId, { code: ProtocolErrorCode.InternalError, message })
        .catch(() => undefined);
      throw new ProtocolError(ProtocolErrorCode.InternalError, message);
    }
    return { kind: 'task', task };
  }

  /** A job this instance took: the task's method, run until the task ends. */
  private async runJob(job: McpTaskJob, serving: TaskJobServing): Promise<void> {
    const { taskId } = job;
    if (this.runs.has(taskId)) return;
    const tool = serving.tool(job.toolName);
    if (!tool?.queued) {
      // A final task (cancelled before any instance took it) stays as it is.
      await this.store.fail(taskId, {
        code: ProtocolErrorCode.MethodNotFound,
        message: `The tool "${job.toolName}" is not published on the instance that took the task; every instance must publish the same task tools.`,
      });
      return;
    }
    const controller = new AbortController();
    const call = new McpCall({
      kind: 'tool',
      name: job.toolName,
      arguments: job.arguments,
      scope: serving.scopeOf(job, controller.signal),
      task: this.bindingOf(taskId, controller.signal),
    });
    let ended!: () => void;
    const done = new Promise<void>((resolve) => (ended = resolve));
    const remaining =
      job.ttlMs === null ? null : Math.max(0, job.createdAt + job.ttlMs - Date.now());
    const run: Run = {
      tool,
      invoke: tool.queued.run,
      first: call,
      controller,
      expiry: this.expiryOf(taskId, { ttlMs: remaining }, controller),
      ended,
    };
    // Registered before the task is read: a cancel from now on aborts the run by its event,
    // and one that came before shows in what is read.
    this.runs.set(taskId, run);
    const stored = await this.store.get(taskId);
    if (!stored || isFinal(stored.status)) {
      this.stop(taskId, 'The task was cancelled before it ran.');
      return;
    }
    run.trace = this.telemetry && traceTaskRun(this.telemetry, taskId, tool.key);
    void settle(run.invoke(call)).then((settled) => this.record(taskId, run, settled));
    await done;
  }

  /** What a round of a task changes in its call: its signal, status and answers. */
  private bindingOf(
    taskId: string,
    signal: AbortSignal,
    round?: Pick<TaskBinding, 'inputResponses' | 'requestState'>,
  ): TaskBinding {
    return {
      id: taskId,
      signal,
      setStatus: async (message) => void (await this.store.setStatusMessage(taskId, message)),
      ...round,
    };
  }

  /**
   * Aborts what this process runs (app shutdown). The tasks stay in the store, cancelled,
   * with a status message that says why, which every instance sharing the store reports.
   */
  async close(): Promise<void> {
    this.unsubscribe();
    const ids = [...this.runs.keys()];
    // Stopped first: a method that reports its progress meanwhile would replace the message.
    for (const taskId of ids) this.stop(taskId, 'The server shut down.');
    await Promise.all(ids.map((taskId) => this.cancelAtShutdown(taskId)));
    await this.queue?.close();
  }

  private async cancelAtShutdown(taskId: string): Promise<void> {
    // A task that ended meanwhile is final: the store changes neither its message nor status.
    await this.store.setStatusMessage(taskId, SHUT_DOWN_MESSAGE).catch(() => undefined);
    await this.store.requestCancel(taskId).catch(() => undefined);
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
      if (task.requestState !== undefined) {
        const minted = await scope.verifyRequestState(task.requestState, first.serverContext);
        // The task's own tool minted it, or it is no state of this task's.
        if (minted.entry !== first.name) throw new Error('minted for another entry');
        requestState = minted.state;
      }
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
    const call = first.asTask(
      this.bindingOf(task.taskId, run.controller.signal, {
        inputResponses: task.inputResponses ?? {},
        requestState,
      }),
    );
    await this.record(task.taskId, run, await settle(run.invoke(call)));
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
    run.ended?.();
    const ended = reason ? { status: 'cancelled' } : task;
    run.trace?.end(
      ended && {
        status: ended.status,
        isError: task?.result?.isError,
        errorCode: task?.error?.code,
        errorData: task?.error?.data,
      },
    );
  }

  /** A running task is aborted when its TTL runs out, and recorded as cancelled. */
  private expiryOf(taskId: string, { ttlMs }: TaskTiming, controller: AbortController) {
    if (ttlMs === null) return undefined;
    const timer = setTimeout(() => {
      if (controller.signal.aborted) return;
      // Stopped first: the store's cancel event would stop it with the reason of a cancel.
      this.stop(taskId, 'The task expired (its ttlMs ran out).');
      void this.store.requestCancel(taskId).catch(() => undefined);
    }, ttlMs);
    timer.unref();
    return timer;
  }
}

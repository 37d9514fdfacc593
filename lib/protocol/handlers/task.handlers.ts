import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolRequestParams,
  type CallToolResult,
  type InputRequest,
  type InputRequiredResult,
  type ProtocolEra,
  type Result,
  type Server,
  type ServerCapabilities,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { McpCall } from '../../execution/mcp-call.js';
import { errorMessage } from '../../utils/value-checks.util.js';
import type { McpTasksOptions } from '../../interfaces/mcp-task-options.interface.js';
import type { McpTask, McpTaskStore } from '../../interfaces/mcp-task-store.interface.js';
import type { PrimitiveRegistry } from '../../registry/primitive.registry.js';
import type { RegisteredTool } from '../../registry/registered-primitives.js';
import type { McpTaskRunner, TaskTiming } from '../../tasks/mcp-task.runner.js';
import type { McpTelemetry } from '../../telemetry/mcp-telemetry.js';
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
} from '../../tasks/task-wire.js';
import { TASKS_EXTENSION } from '../../mcp.constants.js';
import { TASK_RESULT } from '../catalog-mcp.server.js';

const DEFAULT_TTL_MS = 3_600_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const DEFAULT_PAGE_SIZE = 100;

/** What a `tools/call` of a task tool came to: a task, or an answer to send as usual. */
export type TaskCall =
  | { readonly kind: 'task'; readonly result: object }
  | { readonly kind: 'answered'; readonly result: CallToolResult | InputRequiredResult };

/** Who the caller of one MCP request is (its request scope's identity). */
type IdentityOf = (serverContext: ServerContext) => string;

/** The caller's task of that id; the "unknown task" error for any other. */
type OwnTask = (taskId: string, ctx: ServerContext) => Promise<McpTask>;

/**
 * The MCP methods of tasks on the SDK servers the factory builds (docs/tasks.md): the
 * capability each revision advertises, the decision whether a `tools/call` becomes a
 * task, and `tasks/*`. The wire shapes come from `tasks/task-wire.ts`; the work from
 * the runner and the store.
 */
export class TaskHandlers {
  /** The tasks each 2025 session started, whose status changes it is told of. */
  private readonly sessionTasks = new WeakMap<object, Set<string>>();

  constructor(
    private readonly store: McpTaskStore,
    private readonly runner: McpTaskRunner,
    private readonly options: McpTasksOptions = {},
  ) {}

  /** Gives each task's run a span (the factory's telemetry, when it records). */
  traceWith(telemetry: McpTelemetry | undefined): void {
    this.runner.traceWith(telemetry);
  }

  /** What the server advertises: the extension on 2026-07-28, `tasks` on 2025-11-25. */
  capabilities(era: ProtocolEra): ServerCapabilities {
    return era === 'modern'
      ? { extensions: { [TASKS_EXTENSION]: {} } }
      : { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
  }

  /**
   * Runs a `tools/call` of a task tool as a task when the request may get one; `undefined`
   * when the call is answered as any other. 2026-07-28: the request declared the extension
   * (a `required` tool without it is refused with -32021); the 2025 `task` parameter
   * means nothing there. 2025-11-25: the request sent `params.task` (a `required` tool
   * without it, or a tool that is never a task with it, gets -32601).
   */
  async callTool(
    call: McpCall,
    tool: RegisteredTool,
    params: CallToolRequestParams,
    era: ProtocolEra,
    /** What the call was served on: a 2025 session's server keeps its tasks' ids. */
    server: object,
  ): Promise<TaskCall | undefined> {
    const mode = tool.task?.mode;
    const task = (params as { task?: unknown }).task;
    const asked =
      era === 'modern'
        ? declaresTasks(call.serverContext)
        : typeof task === 'object' && task !== null && !Array.isArray(task);
    if (!asked) {
      if (mode !== 'required') return undefined;
      if (era === 'modern') throw tasksExtensionRequired(`The tool "${tool.key}"`);
      throw methodNotFound(
        `The tool "${tool.key}" runs only as a task: call it with params.task (for example { "task": {} }).`,
      );
    }
    if (!mode) {
      if (era === 'modern') return undefined;
      throw methodNotFound(
        `The tool "${tool.key}" does not run as a task: call it without params.task.`,
      );
    }
    const requestedTtl = era === 'legacy' ? (task as { ttl?: unknown }).ttl : undefined;
    const started = await this.runner.start(
      call,
      tool,
      // The caller's identity owns the task: never a session, which the task outlives.
      call.identity,
      this.timingOf(tool, requestedTtl),
    );
    if (started.kind === 'answered') return started;
    this.sessionTasks.get(server)?.add(started.task.taskId);
    const wire =
      era === 'modern'
        ? modernCreateTaskResult(started.task)
        : legacyCreateTaskResult(started.task);
    return { kind: 'task', result: { ...wire, [TASK_RESULT]: true } };
  }

  /** 2025-11-25 tools/list: `execution.taskSupport` on each tool that runs as a task. */
  withTaskSupport(items: Tool[], tools: PrimitiveRegistry<Tool, RegisteredTool>): Tool[] {
    return items.map((item) => {
      const mode = tools.get(item.name)?.task?.mode;
      return mode ? { ...item, execution: { ...item.execution, taskSupport: mode } } : item;
    });
  }

  /**
   * Registers `tasks/*` of `era` on `server`. A 2025 session (`live`) is also told of each
   * status change of the tasks it started (`notifications/tasks/status`) while it is open.
   */
  register(
    server: Server,
    era: ProtocolEra,
    identityOf: IdentityOf,
    pageSize = DEFAULT_PAGE_SIZE,
    live = false,
  ): void {
    if (era === 'legacy' && live) this.notifySession(server);
    // A task of another caller is answered as one that does not exist.
    const own = async (taskId: string, ctx: ServerContext): Promise<McpTask> => {
      const task = await this.store.get(taskId);
      if (!task || task.owner !== identityOf(ctx)) throw unknownTask(taskId);
      return task;
    };
    if (era === 'modern') this.registerModern(server, own);
    else this.registerLegacy(server, own, identityOf, pageSize);
  }

  /** 2026-07-28 (SEP-2663): `tasks/get`, `tasks/update` and `tasks/cancel`, for callers that declared the extension. */
  private registerModern(server: Server, own: OwnTask): void {
    server.setRequestHandler('tasks/get', taskParams('id'), async ({ taskId }, ctx) => {
      gated('tasks/get', ctx);
      return wire(modernDetailedTask(await own(taskId, ctx)));
    });
    server.setRequestHandler('tasks/update', taskParams('update'), async (params, ctx) => {
      gated('tasks/update', ctx);
      await own(params.taskId, ctx);
      const answers = params.inputResponses ?? ctx.mcpReq.inputResponses ?? {};
      await this.store.resolveInput(params.taskId, answers as Record<string, unknown>);
      return modernAcknowledgement();
    });
    server.setRequestHandler('tasks/cancel', taskParams('id'), async ({ taskId }, ctx) => {
      gated('tasks/cancel', ctx);
      await own(taskId, ctx);
      await this.store.requestCancel(taskId);
      return modernAcknowledgement();
    });
  }

  /** 2025-11-25 "Tasks": `tasks/get`, `tasks/list`, `tasks/cancel` and `tasks/result`. */
  private registerLegacy(
    server: Server,
    own: OwnTask,
    ownerOf: (ctx: ServerContext) => string,
    pageSize: number,
  ): void {
    server.setRequestHandler('tasks/get', taskParams('id'), async ({ taskId }, ctx) =>
      wire(legacyTask(await own(taskId, ctx))),
    );
    server.setRequestHandler('tasks/list', taskParams('list'), async ({ cursor }, ctx) => {
      const page = await this.store
        .list(ownerOf(ctx), { cursor, limit: pageSize })
        .catch((error: unknown) => {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, errorMessage(error));
        });
      return wire({
        tasks: page.tasks.map(legacyTask),
        ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
      });
    });
    server.setRequestHandler('tasks/cancel', taskParams('id'), async ({ taskId }, ctx) => {
      const task = await own(taskId, ctx);
      if (isFinal(task.status)) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Task ${task.taskId} already ended (${task.status}); there is nothing to cancel.`,
        );
      }
      return wire(legacyTask((await this.store.requestCancel(task.taskId)) ?? task));
    });
    server.setRequestHandler('tasks/result', taskParams('id'), async ({ taskId }, ctx) => {
      const task = await own(taskId, ctx);
      return wire(legacyTaskPayload(await this.outcomeOf(task, ctx)));
    });
  }

  private notifySession(server: Server): void {
    const started = new Set<string>();
    this.sessionTasks.set(server, started);
    const unsubscribe = this.store.subscribe((event) => {
      if (event.type !== 'updated' || !started.has(event.task.taskId) || !server.transport) return;
      if (isFinal(event.task.status)) started.delete(event.task.taskId);
      void server
        .notification({
          method: 'notifications/tasks/status',
          params: legacyTask(event.task),
        } as never)
        .catch(() => undefined);
    });
    const previous = server.onclose;
    // The SDK's Protocol reports closing through `onclose` only (it is not an EventTarget).
    // oxlint-disable-next-line unicorn/prefer-add-event-listener
    server.onclose = () => {
      unsubscribe();
      previous?.();
    };
  }

  /**
   * Waits until the task ends (2025-11-25 `tasks/result`). Questions the task asks while
   * the client waits travel as requests on this stream, when the client can be asked.
   */
  private outcomeOf(task: McpTask, ctx: ServerContext): Promise<McpTask> {
    if (isFinal(task.status)) return Promise.resolve(task);
    return new Promise<McpTask>((resolve, reject) => {
      const asked = new Set<string>();
      const onTask = (current: McpTask) => {
        if (isFinal(current.status)) {
          unsubscribe();
          resolve(current);
        } else if (current.status === 'input_required') {
          this.ask(current, ctx, asked);
        }
      };
      const unsubscribe = this.store.subscribe((event) => {
        if (event.type === 'expired' && event.taskId === task.taskId) {
          unsubscribe();
          reject(unknownTask(task.taskId));
        } else if (event.type === 'updated' && event.task.taskId === task.taskId) {
          onTask(event.task);
        }
      });
      ctx.mcpReq.signal.addEventListener('abort', () => unsubscribe(), { once: true });
      // It may have moved on between the read and the subscription.
      void this.store.get(task.taskId).then((current) => current && onTask(current));
    });
  }

  /** Sends the task's pending questions to the waiting client and records its answers. */
  private ask(task: McpTask, ctx: ServerContext, asked: Set<string>): void {
    for (const [key, request] of Object.entries(task.inputRequests ?? {})) {
      if (asked.has(key)) continue;
      asked.add(key);
      void askOnStream(ctx, request)
        .then((answer) => this.store.resolveInput(task.taskId, { [key]: answer }))
        .catch(() => asked.delete(key));
    }
  }

  private timingOf(tool: RegisteredTool, requestedTtl: unknown): TaskTiming {
    const configured = tool.task?.ttlMs ?? this.options.ttlMs ?? DEFAULT_TTL_MS;
    // A 2025 client may ask for a shorter life, never a longer one than the tool allows.
    const ttlMs =
      Number.isInteger(requestedTtl) && (requestedTtl as number) > 0
        ? Math.min(requestedTtl as number, configured)
        : configured;
    return {
      ttlMs,
      pollIntervalMs:
        tool.task?.pollIntervalMs ?? this.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    };
  }
}

/** The capability is checked before the id (conformance: tasks-capability-negotiation). */
const gated = (method: string, ctx: ServerContext) => {
  if (!declaresTasks(ctx)) throw tasksExtensionRequired(method);
};

/** A task object as the SDK's result type (its fields are JSON; `McpTask` types them loosely). */
const wire = (value: object) => value as Result;

const methodNotFound = (message: string) =>
  new ProtocolError(ProtocolErrorCode.MethodNotFound, message);

/** One input request as a server-to-client request of the 2025 wire. */
function askOnStream(ctx: ServerContext, request: InputRequest): Promise<unknown> {
  const { method, params } = request as { method: string; params?: Record<string, unknown> };
  if (method === 'elicitation/create') return ctx.mcpReq.elicitInput(params as never);
  if (method === 'sampling/createMessage') return ctx.mcpReq.requestSampling(params as never);
  return ctx.mcpReq.send({ method, params } as never);
}

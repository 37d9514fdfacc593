import {
  McpServer,
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { traceConnection, type TracedConnection } from '../telemetry/connection.tracer.js';
import type { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { asInvalidParams } from './request-params.error.js';

/**
 * Marks a `tools/call` answer that is a task (`CreateTaskResult`), not a tool result: the
 * SDK's `tools/call` wrapper would add `content: []` and check it as a tool result.
 */
export const TASK_RESULT = Symbol('nestjs-mcp task result');

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** Carries a task result past the SDK's result checks, which it must not go through. */
class TaskResultCarrier {
  constructor(readonly result: Result) {}
}

/**
 * The SDK's low-level `Server`, with `tools/call` answers that are tasks let through. The
 * SDK wraps each handler through `_wrapHandler`, its documented hook for subclasses; for
 * `tools/call` it still validates the request, and checks the result as a tool result,
 * which a task (`CreateTaskResult`) is not. The SDK's check of a request's params answers
 * `-32602` with a plain message (`asInvalidParams`).
 */
export class TaskAwareServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    if (method !== 'tools/call') {
      const checked = super._wrapHandler(method, handler);
      return (request, ctx) =>
        checked(request, ctx).catch((error: unknown) => {
          throw asInvalidParams(method, error);
        });
    }
    const wrapped = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (typeof result === 'object' && result !== null && TASK_RESULT in result) {
        throw new TaskResultCarrier(result);
      }
      return result;
    });
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        if (error instanceof TaskResultCarrier) return error.result;
        throw asInvalidParams(method, error);
      }
    };
  }
}

type ServerInfo = ConstructorParameters<typeof McpServer>[0];
type ServerOptions = ConstructorParameters<typeof McpServer>[1];

/**
 * The SDK's `McpServer`, used only as the product the HTTP entry expects: before a modern
 * `tools/call` reaches the handlers, the entry checks `Mcp-Param-*` headers against the
 * tool's `x-mcp-header` declarations (SEP-2243), which it reads from the McpServer's tools.
 * Ours live in the catalog, so the schema comes from there; nothing is registered on it.
 * Every transport connects it, so it is also where telemetry sees each request.
 */
export class CatalogMcpServer extends McpServer {
  /** The low-level server that carries the handlers, and lets task results through. */
  override readonly server: TaskAwareServer;
  private tracing?: { telemetry: McpTelemetry; connection: TracedConnection };

  constructor(
    info: ServerInfo,
    options: ServerOptions,
    private readonly inputSchemaOf: (toolName: string) => Record<string, unknown> | undefined,
  ) {
    // The McpServer's own server is made with no capability, so with no handler, and
    // replaced: everything the McpServer does goes through `this.server`.
    super(info);
    this.server = new TaskAwareServer(info, options);
  }

  override toolInputSchemaJson(name: string): Record<string, unknown> | undefined {
    return this.inputSchemaOf(name);
  }

  /** Gives each request of the connections this server makes a span and a measurement. */
  traceWith(telemetry: McpTelemetry, connection: TracedConnection): void {
    this.tracing = { telemetry, connection };
  }

  override async connect(transport: Transport): Promise<void> {
    if (this.tracing) {
      const trace = traceConnection(transport, this.tracing.telemetry, this.tracing.connection);
      const previous = this.server.onclose;
      // The SDK's Protocol reports closing through `onclose` only (it is not an EventTarget).
      // oxlint-disable-next-line unicorn/prefer-add-event-listener
      this.server.onclose = () => {
        trace.close();
        previous?.();
      };
    }
    await super.connect(transport);
  }
}

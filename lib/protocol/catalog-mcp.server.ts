import { McpServer, type ServerContext, type Transport } from '@modelcontextprotocol/server';
import { traceConnection, type TracedConnection } from '../telemetry/connection.tracer.js';
import type { McpTelemetry } from '../telemetry/mcp-telemetry.js';

/**
 * Marks a `tools/call` answer that is a task (`CreateTaskResult`), not a tool result: the
 * SDK's `tools/call` wrapper would add `content: []` and check it as a tool result.
 */
export const TASK_RESULT = Symbol('nestjs-mcp task result');

type Handler = (request: unknown, ctx: ServerContext) => Promise<unknown>;

/** What the low-level server lets subclasses wrap (`Protocol#_wrapHandler`, a documented hook). */
interface WrappingServer {
  _wrapHandler(method: string, handler: Handler): Handler;
}

/** Carries a task result past the SDK's result checks, which it must not go through. */
class TaskResultCarrier {
  constructor(readonly result: object) {}
}

/**
 * The SDK's `McpServer`, used only as the product the HTTP entry expects: before a modern
 * `tools/call` reaches the handlers, the entry checks `Mcp-Param-*` headers against the
 * tool's `x-mcp-header` declarations (SEP-2243), which it reads from the McpServer's tools.
 * Ours live in the catalog, so the schema comes from there; nothing is registered on it.
 * Every transport connects it, so it is also where telemetry sees each request.
 */
export class CatalogMcpServer extends McpServer {
  private tracing?: { telemetry: McpTelemetry; connection: TracedConnection };

  constructor(
    info: ConstructorParameters<typeof McpServer>[0],
    options: ConstructorParameters<typeof McpServer>[1],
    private readonly inputSchemaOf: (toolName: string) => Record<string, unknown> | undefined,
  ) {
    super(info, options);
    const server = this.server as unknown as WrappingServer;
    const wrap = server._wrapHandler.bind(server);
    // The SDK still validates the request; a task result skips its tool-result checks.
    server._wrapHandler = (method, handler) => {
      if (method !== 'tools/call') return wrap(method, handler);
      const wrapped = wrap(method, async (request, ctx) => {
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
          throw error;
        }
      };
    };
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

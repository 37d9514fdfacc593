import { McpServer, type Transport } from '@modelcontextprotocol/server';
import { traceConnection, type TracedConnection } from '../telemetry/connection.tracer.js';
import type { McpTelemetry } from '../telemetry/mcp-telemetry.js';

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

import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
  MessageExtraInfo,
  ProtocolEra,
  Transport,
} from '@modelcontextprotocol/server';
import type { Attributes } from '@opentelemetry/api';
import { McpOperation } from './mcp-operation.js';
import { ATTR, CANCELLED, CONNECTION_CLOSED } from './mcp-semantic-conventions.js';
import type { McpTelemetry } from './mcp-telemetry.js';
import { httpPeerOf, PIPE, type PeerFacts } from './peer-facts.js';

/** What the protocol layer tells the tracer about one connection of an SDK server. */
export interface TracedConnection {
  readonly era: ProtocolEra;
  /** A 2025 session (over HTTP or stdio): its length is `mcp.server.session.duration`. */
  readonly session: boolean;
  /** The platform request (Express, Fastify) that carried a message over HTTP. */
  readonly platformRequestOf: (extra: MessageExtraInfo | undefined) => unknown;
  /** The protocol revision of a message: negotiated, claimed by the 2026 era, or a header. */
  readonly protocolVersion: (extra: MessageExtraInfo | undefined) => string | undefined;
  /** Whether a `tools/call` or `prompts/get` names an entry that exists. */
  readonly knows: (method: string, name: unknown) => boolean;
}

/** Ends what the connection left open; called once it closes. */
export interface ConnectionTrace {
  close(): void;
}

type Deliver = NonNullable<Transport['onmessage']>;

/*
 * The kind of a message, from its keys. What a transport delivers has been parsed as a
 * JSON-RPC message already (the SDK's HTTP and stdio entries validate each one; the
 * in-memory pair carries what an SDK client built), and what the server sends is the SDK's
 * own: within that union, the keys decide. The SDK's
 * `isJSONRPCRequest` and its siblings would parse each message again with its schema,
 * params and result included.
 */
type Keyed = Partial<Record<'method' | 'id' | 'result' | 'error', unknown>>;
const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest =>
  typeof (message as Keyed).method === 'string' && (message as Keyed).id !== undefined;
const isNotification = (message: JSONRPCMessage): message is JSONRPCNotification =>
  typeof (message as Keyed).method === 'string' && (message as Keyed).id === undefined;
const isAnswer = (
  message: JSONRPCMessage,
): message is JSONRPCResultResponse | JSONRPCErrorResponse =>
  (message as Keyed).method === undefined &&
  ((message as Keyed).result !== undefined || (message as Keyed).error !== undefined);

/**
 * The one place every MCP request passes, whichever transport carried it and whoever
 * answers it (our handlers, or the SDK itself for `initialize`, `ping`, `server/discover`,
 * `logging/setLevel`, unknown methods, bad envelopes): the SDK server's transport. What
 * the server's protocol layer receives through `onmessage` starts an operation, and the
 * answer it gives through `send` ends it. Installed before the server connects, so the
 * first message is seen too.
 */
export function traceConnection(
  transport: Transport,
  telemetry: McpTelemetry,
  connection: TracedConnection,
): ConnectionTrace {
  const tracer = new ConnectionTracer(transport, telemetry, connection);
  const { start, send } = transport;
  // A transport's contract: its callbacks are set before `start()` (Protocol#connect sets
  // `onmessage`, then starts it), and it delivers nothing before. Wrapping the handler
  // there is a plain write, once per connection; a stateless 2026-07-28 request makes a
  // server and a transport for itself, so this runs for every such request.
  transport.start = function startTraced(this: Transport) {
    const deliver = transport.onmessage;
    if (deliver) {
      // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Transport has no addEventListener
      transport.onmessage = (message, extra) => tracer.receive(deliver, message, extra);
    }
    return start.call(transport);
  };
  transport.send = function sendTraced(this: Transport, message: JSONRPCMessage, options) {
    tracer.answered(message);
    return send.call(transport, message, options);
  };
  return tracer;
}

/** The operations of one connection: started by what it receives, ended by its answers. */
class ConnectionTracer implements ConnectionTrace {
  /** The operations awaiting an answer; most connections carry one request at a time. */
  private readonly pending = new Map<string | number, McpOperation>();
  private readonly openedAt = performance.now();
  private peer?: PeerFacts;

  constructor(
    private readonly transport: Transport,
    private readonly telemetry: McpTelemetry,
    private readonly connection: TracedConnection,
  ) {}

  receive(deliver: Deliver, message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    const request = isRequest(message);
    if (!request && !isNotification(message)) {
      deliver(message, extra);
      return;
    }
    const { telemetry } = this;
    // The tracer is looked up once per message, here (the meter where the operation records).
    const tracer = telemetry.currentTracer();
    if (!tracer && !telemetry.currentInstruments()) {
      deliver(message, extra);
      return;
    }
    const { connection } = this;
    const peer = extra?.request ? httpPeerOf(connection.platformRequestOf(extra)) : PIPE;
    this.peer = peer;
    const params = message.params as Record<string, unknown> | undefined;
    const operation = new McpOperation(
      telemetry,
      {
        method: message.method,
        id: request ? message.id : undefined,
        params,
        sessionId: connection.era === 'legacy' ? this.transport.sessionId : undefined,
        peer,
        knownTarget: connection.knows(message.method, params?.name),
        protocolVersion: () => connection.protocolVersion(extra),
      },
      tracer,
    );
    if (request) this.pending.set(message.id, operation);
    else if (message.method === 'notifications/cancelled') {
      const cancelled = params?.requestId as string | number | undefined;
      const abandoned = cancelled === undefined ? undefined : this.pending.get(cancelled);
      abandoned?.abandon(CANCELLED);
      if (abandoned) this.pending.delete(cancelled!);
    }
    operation.run(deliver, message, extra);
    if (!request) operation.end();
  }

  answered(message: JSONRPCMessage): void {
    if (!isAnswer(message) || message.id === undefined) return;
    const operation = this.pending.get(message.id);
    if (!operation) return;
    this.pending.delete(message.id);
    operation.end(message);
  }

  close(): void {
    for (const operation of this.pending.values()) operation.abandon(CONNECTION_CLOSED);
    this.pending.clear();
    const { peer } = this;
    if (!this.connection.session || !peer) return;
    const instruments = this.telemetry.currentInstruments();
    if (!instruments) return;
    const attributes: Attributes = { [ATTR.NETWORK_TRANSPORT]: peer.transport };
    if (peer.protocolName) attributes[ATTR.NETWORK_PROTOCOL_NAME] = peer.protocolName;
    if (peer.protocolVersion) attributes[ATTR.NETWORK_PROTOCOL_VERSION] = peer.protocolVersion;
    const version = this.connection.protocolVersion(undefined);
    if (version) attributes[ATTR.MCP_PROTOCOL_VERSION] = version;
    instruments.sessionDuration.record((performance.now() - this.openedAt) / 1000, attributes);
  }
}

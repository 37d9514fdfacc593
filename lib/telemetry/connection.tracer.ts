import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type ProtocolEra,
  type Transport,
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
  const pending = new Map<string | number, McpOperation>();
  const openedAt = performance.now();
  let peer: PeerFacts | undefined;
  let deliver: Deliver | undefined = transport.onmessage;

  const traced: Deliver = (message, extra) => {
    if (!deliver) return;
    const request = isJSONRPCRequest(message);
    if ((!request && !isJSONRPCNotification(message)) || !telemetry.recording) {
      deliver(message, extra);
      return;
    }
    peer = extra?.request ? httpPeerOf(connection.platformRequestOf(extra)) : PIPE;
    const params = message.params as Record<string, unknown> | undefined;
    const operation = new McpOperation(telemetry, {
      method: message.method,
      ...(request && { id: message.id }),
      params,
      sessionId: connection.era === 'legacy' ? transport.sessionId : undefined,
      peer,
      knownTarget: connection.knows(message.method, params?.name),
      protocolVersion: () => connection.protocolVersion(extra),
    });
    if (request) pending.set(message.id, operation);
    else if (message.method === 'notifications/cancelled') {
      const cancelled = params?.requestId as string | number | undefined;
      const abandoned = cancelled === undefined ? undefined : pending.get(cancelled);
      abandoned?.abandon(CANCELLED);
      if (abandoned) pending.delete(cancelled!);
    }
    operation.run(() => deliver!(message, extra));
    if (!request) operation.end();
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => deliver && traced,
    set: (value: Deliver | undefined) => {
      deliver = value;
    },
  });

  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const operation = message.id === undefined ? undefined : pending.get(message.id);
      if (operation) {
        pending.delete(message.id!);
        operation.end(message);
      }
    }
    return send(message, options);
  };

  return {
    close: () => {
      for (const operation of pending.values()) operation.abandon(CONNECTION_CLOSED);
      pending.clear();
      if (!connection.session || !peer) return;
      const instruments = telemetry.currentInstruments();
      if (!instruments) return;
      const attributes: Attributes = { [ATTR.NETWORK_TRANSPORT]: peer.transport };
      if (peer.protocolName) attributes[ATTR.NETWORK_PROTOCOL_NAME] = peer.protocolName;
      if (peer.protocolVersion) attributes[ATTR.NETWORK_PROTOCOL_VERSION] = peer.protocolVersion;
      const version = connection.protocolVersion(undefined);
      if (version) attributes[ATTR.MCP_PROTOCOL_VERSION] = version;
      instruments.sessionDuration.record((performance.now() - openedAt) / 1000, attributes);
    },
  };
}

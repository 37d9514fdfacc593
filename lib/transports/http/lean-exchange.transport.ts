import {
  PerRequestHTTPServerTransport,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
  type MessageExtraInfo,
  type ProtocolEra,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { LeanEventStream } from './lean-event.stream.js';
import { statusOf } from './lean-path.rules.js';

/**
 * The answer to one lean request: the JSON-RPC response and its HTTP status, or, when the
 * server sent a notification of the request before its response, the SSE stream that
 * carries them (status 200).
 */
export type LeanAnswer =
  | { readonly status: number; readonly message: JSONRPCMessage }
  | { readonly status: 200; readonly stream: ReadableStream<Uint8Array> };

/**
 * The classification the SDK's per-request transport is made with. A modern route brings
 * the one the SDK's classifier computed: connecting a server whose `supportedProtocolVersions`
 * lists its revision binds the server to it (`Server.connect`, the public way the SDK's own
 * entry makes a server modern). A 2025 route has none from the classifier; `{ era: 'legacy' }`
 * names no revision, so the server is left unbound, as the SDK's legacy transports leave it.
 */
const LEGACY: MessageClassification = { era: 'legacy' };

/**
 * A connected `Transport` for one lean exchange: it hands one JSON-RPC request to the
 * SDK's protocol layer and captures the response the layer sends, with the status the
 * SDK's own transport would give it (`statusOf`). No web `Request`/`Response` and no
 * stream is made for a request answered by one message, as the lean path's requests
 * mostly are (`lean-path.rules.ts` sends those that ask for progress or logs, tasks and
 * input-required flows to the SDK). A notification of the request sent before its response
 * (a 2025 server logs until `logging/setLevel`, a tool may notify of its own) turns the
 * answer into the SSE stream the SDK's transport makes (`LeanEventStream`): the
 * notification now, the response when it comes.
 *
 * It is the SDK's `PerRequestHTTPServerTransport` for what the server sees: connecting a
 * server to it binds the server to the route's modern revision. Its exchange is its own:
 * `dispatch` instead of `handleMessage` (which builds a web `Response`), and `send` and
 * `close` replace the base's (none of its private state is read or written here).
 */
export class LeanExchangeTransport extends PerRequestHTTPServerTransport {
  /** Settled by the response, or rejected when the exchange closes without one. */
  readonly answer: Promise<LeanAnswer>;
  private settle!: (answer: LeanAnswer) => void;
  private fail!: (error: Error) => void;
  private dispatched = false;
  private settled = false;
  private closed = false;
  /** True while the protocol layer takes the message in: its gates answer in that window. */
  private delivering = false;
  /** The answer's stream, once a notification came before the response. */
  private events?: LeanEventStream;

  /**
   * @param classification the SDK classifier's, for a modern route; none for a 2025 route
   */
  constructor(
    private readonly era: ProtocolEra,
    private readonly request: JSONRPCRequest,
    classification?: MessageClassification,
  ) {
    super({ classification: classification ?? LEGACY, responseMode: 'json' });
    this.answer = new Promise<LeanAnswer>((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
  }

  /** Not used on the lean path: the exchange is served by {@link dispatch}. */
  override handleMessage(): Promise<Response> {
    return Promise.reject(
      new Error('A lean exchange is served by dispatch(), not handleMessage()'),
    );
  }

  /**
   * Delivers the request to the connected server (the transport serves one exchange);
   * resolves with its answer.
   */
  dispatch(extra: MessageExtraInfo): Promise<LeanAnswer> {
    if (this.dispatched) throw new Error('A lean exchange serves exactly one request');
    if (this.onmessage === undefined) throw new Error('No server is connected to this exchange');
    this.dispatched = true;
    this.delivering = true;
    try {
      this.onmessage(this.request, extra);
    } finally {
      this.delivering = false;
    }
    return this.answer;
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) return;
    const isResponse = 'result' in message || 'error' in message;
    if (!isResponse) {
      // A server-to-client request fails at once rather than waiting for an answer that
      // cannot come (the lean path admits no request that asks for one).
      if ('id' in message) {
        throw new Error('A request answered on the lean HTTP path cannot carry a server request');
      }
      // As the SDK's per-request transport: only what relates to this request is streamed.
      if (options?.relatedRequestId === this.request.id) this.stream(message);
      return;
    }
    if (message.id !== this.request.id) {
      this.onerror?.(new Error(`Received a response for an unknown request id: ${message.id}`));
      return;
    }
    if (this.events) {
      this.events.end(message);
    } else if (!this.settled) {
      this.settled = true;
      const code = 'error' in message ? message.error.code : undefined;
      this.settle({ status: statusOf(this.era, code, this.delivering), message });
    } else {
      return;
    }
    // As the SDK's per-request transport: the server closes after its answer is out.
    queueMicrotask(() => void this.close());
  }

  /** Sends a notification on the answer's stream, which the first one opens. */
  private stream(message: JSONRPCMessage): void {
    if (!this.events) {
      if (this.settled) return;
      this.settled = true;
      // The client going away (the stream cancelled) cancels the call, as with the SDK.
      this.events = new LeanEventStream(() => void this.close());
      this.settle({ status: 200, stream: this.events.readable });
    }
    this.events.write(message);
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.events?.close();
    if (!this.settled) {
      this.settled = true;
      this.fail(
        new SdkError(
          SdkErrorCode.ConnectionClosed,
          'Connection closed before a response was produced',
        ),
      );
    }
    // The base's close ends its (unused) exchange and calls `onclose`: the server's teardown.
    await super.close();
  }
}

import {
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type ProtocolEra,
  type Transport,
} from '@modelcontextprotocol/server';
import { statusOf } from './lean-path.rules.js';

/** The answer to one lean request: the JSON-RPC response and its HTTP status. */
export interface LeanAnswer {
  readonly status: number;
  readonly message: JSONRPCMessage;
}

/**
 * A connected `Transport` for one lean exchange: it hands one JSON-RPC request to the
 * SDK's protocol layer and captures the response the layer sends, with the status the
 * SDK's own transport would give it (`statusOf`). No web `Request`/`Response` and no
 * stream is made. It serves what the lean path admits: requests answered by one message
 * (`lean-path.rules.ts` sends progress, logs, tasks and input-required flows to the SDK).
 */
export class LeanExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** Settled by the response, or rejected when the exchange closes without one. */
  readonly answer: Promise<LeanAnswer>;
  private settle!: (answer: LeanAnswer) => void;
  private fail!: (error: Error) => void;
  private settled = false;
  private closed = false;
  /** True while the protocol layer takes the message in: its gates answer in that window. */
  private delivering = false;

  constructor(
    private readonly era: ProtocolEra,
    private readonly request: JSONRPCRequest,
  ) {
    this.answer = new Promise<LeanAnswer>((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
  }

  async start(): Promise<void> {}

  /** Delivers the request to the connected server; resolves with its answer. */
  dispatch(extra: MessageExtraInfo): Promise<LeanAnswer> {
    this.delivering = true;
    try {
      this.onmessage?.(this.request, extra);
    } finally {
      this.delivering = false;
    }
    return this.answer;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.settled) return;
    const isResponse = 'result' in message || 'error' in message;
    if (!isResponse) {
      // A related message before the answer: the SDK would stream it (SSE). The lean path
      // admits no request that asks for one; a server-to-client request fails at once
      // rather than waiting for an answer that cannot come.
      if ('id' in message) {
        throw new Error('A request answered on the lean HTTP path cannot carry a server request');
      }
      return;
    }
    if (message.id !== this.request.id) {
      this.onerror?.(new Error(`Received a response for an unknown request id: ${message.id}`));
      return;
    }
    this.settled = true;
    const code = 'error' in message ? message.error.code : undefined;
    this.settle({ status: statusOf(this.era, code, this.delivering), message });
    // As the SDK's per-request transport: the server closes after its answer is out.
    queueMicrotask(() => void this.close());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.settled) {
      this.settled = true;
      this.fail(
        new SdkError(
          SdkErrorCode.ConnectionClosed,
          'Connection closed before a response was produced',
        ),
      );
    }
    this.onclose?.();
  }
}

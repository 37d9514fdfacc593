import {
  PerRequestHTTPServerTransport,
  ProtocolErrorCode,
  Server,
  type JSONRPCErrorResponse,
  type ProtocolEra,
  type Result,
} from '@modelcontextprotocol/server';
import { MODERN_REVISION } from './protocol-revisions.js';

type ServerInfo = ConstructorParameters<typeof Server>[0];
type ServerOptions = ConstructorParameters<typeof Server>[1];

/** The JSON-RPC error object of an answer. */
export type WireError = JSONRPCErrorResponse['error'];

/**
 * The SDK's encoding of answers, for the requests the fast path serves without an SDK
 * server of their own (issue 28, docs/performance.md): one `Server` per era and edition,
 * made once and never handed a message, whose wire codec (`_wireCodec()`, the SDK's
 * documented accessor for role subclasses) encodes each result exactly as the SDK's
 * protocol layer would: on 2026-07-28 the `resultType`, the cache fields of cacheable
 * results and the server's identity in `_meta`; on 2025-11-25 the `tools/list` output
 * schemas of non-object roots. So those rules stay the SDK's, in one place.
 */
export class WireEncoder extends Server {
  private constructor(info: ServerInfo, options: ServerOptions) {
    super(info, options);
  }

  /**
   * An encoder of `era`. A modern one is bound to the revision as the SDK's own entry binds
   * a per-request server: connected to a per-request transport classified so (it is never
   * sent anything).
   */
  static async of(
    era: ProtocolEra,
    info: ServerInfo,
    options: ServerOptions,
  ): Promise<WireEncoder> {
    const encoder = new WireEncoder(info, options);
    if (era === 'modern') {
      await encoder.connect(
        new PerRequestHTTPServerTransport({
          classification: { era: 'modern', revision: MODERN_REVISION },
          responseMode: 'json',
        }),
      );
    }
    return encoder;
  }

  /** The result of `method` as the SDK's protocol layer sends it (`Protocol._onrequest`). */
  encodeResult(method: string, result: Result): Result {
    return this._wireCodec().encodeResult(method, result, this._outboundServerInfo()) as Result;
  }

  /**
   * The error object of a handler's failure, as `Protocol._onrequest` builds it: the
   * error's own safe-integer `code` (else -32603), mapped by the era's codec, its message
   * (else "Internal error") and its `data` when it has one.
   */
  encodeError(error: unknown): WireError {
    const { code, message, data } = (error ?? {}) as {
      code?: unknown;
      message?: unknown;
      data?: unknown;
    };
    const thrown = Number.isSafeInteger(code) ? (code as number) : ProtocolErrorCode.InternalError;
    return {
      code: this._wireCodec().encodeErrorCode(thrown),
      message: (message ?? 'Internal error') as string,
      ...(data !== undefined && { data }),
    };
  }
}

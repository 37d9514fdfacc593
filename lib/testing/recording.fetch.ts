import type { McpTestHttpResponse } from './mcp-test-answer.js';

/**
 * A request header that ties an HTTP exchange to the kit's request that caused it. The
 * recording fetch removes it before the request leaves, so the app never sees it.
 */
export const EXCHANGE_HEADER = 'x-nestjs-mcp-testing-exchange';

/** An HTTP answer as the kit saw it; the body only when the status is an error. */
export interface RecordedExchange extends McpTestHttpResponse {
  readonly body?: string;
}

/**
 * The `fetch` given to the SDK's HTTP client transport: the real `fetch`, which records
 * the status and headers of each answer (and the body of a refusal, which the SDK reads
 * into an error without keeping the status) for the kit's request that sent it.
 */
export class RecordingFetch {
  private readonly byExchange = new Map<string, RecordedExchange>();
  /** The last answer of a request that no kit request tagged (the handshake, a retry leg). */
  last?: RecordedExchange;

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const exchange = headers.get(EXCHANGE_HEADER);
    headers.delete(EXCHANGE_HEADER);
    const response = await fetch(input, { ...init, headers });
    const record: RecordedExchange = {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      ...(!response.ok && {
        body: await response
          .clone()
          .text()
          .catch(() => undefined),
      }),
    };
    if (exchange === null) this.last = record;
    else this.byExchange.set(exchange, record);
    return response;
  };

  /** The answer recorded for a tagged request, forgotten once taken. */
  take(exchange: string): RecordedExchange | undefined {
    const record = this.byExchange.get(exchange);
    this.byExchange.delete(exchange);
    return record;
  }
}

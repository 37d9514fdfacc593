import { Agent, request, type IncomingHttpHeaders } from 'node:http';

/** One HTTP request of the soak. */
export interface SoakRequest {
  readonly method: 'POST' | 'DELETE';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** A whole answer: its status, headers and JSON-RPC messages (one JSON body or SSE events). */
export interface SoakAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  messages: Array<Record<string, any>>;
}

/** How a request ended when it got no whole answer. */
export type SoakTransportFailure = 'timeout' | 'reset' | 'aborted-by-client';

export interface SendOptions {
  /** Called with each SSE message as it arrives; `abort()` closes the response stream. */
  onMessage?: (message: Record<string, any>, abort: () => void) => void;
  /** Aborts the request from outside (a 2025 stream the client drops). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

export class SoakTransportError extends Error {
  constructor(
    readonly failure: SoakTransportFailure,
    detail: string,
  ) {
    super(`${failure}: ${detail}`);
  }
}

/** Parses the `data:` lines of complete SSE events, keeping the incomplete tail. */
function takeEvents(buffer: string, found: Array<Record<string, any>>): string {
  let end = buffer.indexOf('\n\n');
  while (end >= 0) {
    const data = buffer
      .slice(0, end)
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data) found.push(JSON.parse(data));
    buffer = buffer.slice(end + 2);
    end = buffer.indexOf('\n\n');
  }
  return buffer;
}

/**
 * The soak driver's HTTP client: keep-alive connections (node:http's Agent, at most
 * `maxSockets`), answers read whole or event by event, every failure typed.
 */
export class SoakHttp {
  private readonly agent: Agent;

  constructor(
    private readonly port: number,
    maxSockets: number,
  ) {
    // Idle connections are closed after 4 s, before the server's 5 s keep-alive timeout, so
    // that a request is never written to a connection the server is closing (ECONNRESET).
    this.agent = new Agent({
      keepAlive: true,
      maxSockets,
      maxFreeSockets: maxSockets,
      timeout: 4_000,
    });
  }

  send(message: SoakRequest, options: SendOptions = {}): Promise<SoakAnswer> {
    const { onMessage, signal, timeoutMs = 20_000 } = options;
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...message.headers };
      if (message.body !== undefined) headers['content-length'] = Buffer.byteLength(message.body);
      const outgoing = request({
        agent: this.agent,
        host: '127.0.0.1',
        port: this.port,
        method: message.method,
        path: message.path,
        headers,
      });
      let settled = false;
      const fail = (failure: SoakTransportFailure, detail: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        outgoing.destroy();
        reject(new SoakTransportError(failure, detail));
      };
      const timer = setTimeout(
        () => fail('timeout', `no whole answer in ${timeoutMs} ms`),
        timeoutMs,
      );
      const onAbort = () => fail('aborted-by-client', 'the client closed the stream');
      signal?.addEventListener('abort', onAbort, { once: true });
      outgoing.on('error', (error) => fail('reset', error.message));
      outgoing.on('response', (response) => {
        response.setEncoding('utf8');
        const sse = response.headers['content-type']?.startsWith('text/event-stream') ?? false;
        const messages: Array<Record<string, any>> = [];
        let text = '';
        let pending = '';
        response.on('data', (chunk: string) => {
          text += chunk;
          if (!sse) return;
          const before = messages.length;
          pending = takeEvents(pending + chunk, messages);
          for (const event of messages.slice(before)) onMessage?.(event, onAbort);
        });
        response.on('error', (error) => fail('reset', error.message));
        response.on('aborted', () => fail('reset', 'the server closed the answer before its end'));
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          if (!sse && text) {
            try {
              messages.push(JSON.parse(text));
            } catch {
              // Not JSON (an HTML error page): the check of the answer reports it.
            }
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, messages });
        });
      });
      outgoing.end(message.body);
    });
  }

  /** Closes every kept-alive connection (the server's descriptors are compared after). */
  close(): void {
    this.agent.destroy();
  }
}

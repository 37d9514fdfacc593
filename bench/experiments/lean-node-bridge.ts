import type { McpHttpHandler } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * An experiment, not used by the measured variants (a)-(f): a leaner replacement for
 * `toNodeHandler` of `@modelcontextprotocol/node`, to size proposal 1 of bench/README.md.
 *
 * - The body the platform already parsed goes to the SDK as `parsedBody` only; the web
 *   `Request` carries no copy of it (`toNodeHandler` re-serialises it with
 *   `JSON.stringify`, encodes it and wraps it in a stream that the SDK never reads).
 * - A JSON answer is written with one `res.end(buffer)` and a Content-Length, instead of
 *   async-iterating the web stream into `res.write()` with chunked encoding. SSE answers
 *   keep streaming.
 */
export function toLeanNodeHandler(handler: McpHttpHandler) {
  return async (
    req: IncomingMessage & { body?: unknown },
    res: ServerResponse,
    parsedBody: unknown,
  ): Promise<void> => {
    const abort = new AbortController();
    let finished = false;
    res.on('close', () => {
      if (!finished) abort.abort();
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name.startsWith(':')) continue;
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (name !== 'content-length') headers.set(name, value);
    }
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'POST',
      headers,
      signal: abort.signal,
    });
    const response = await handler.fetch(request, { parsedBody });
    const outgoing: Record<string, string> = {};
    for (const [name, value] of response.headers) outgoing[name] = value;
    if (response.body === null) {
      finished = true;
      res.writeHead(response.status, outgoing).end();
      return;
    }
    if (outgoing['content-type']?.startsWith('application/json')) {
      const body = Buffer.from(await response.arrayBuffer());
      outgoing['content-length'] = String(body.byteLength);
      finished = true;
      res.writeHead(response.status, outgoing).end(body);
      return;
    }
    res.writeHead(response.status, outgoing);
    for await (const chunk of response.body) {
      if (abort.signal.aborted) break;
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    finished = true;
    res.end();
  };
}

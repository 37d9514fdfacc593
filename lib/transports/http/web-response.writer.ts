import type { ServerResponse } from 'node:http';

/** What a stream may hold for a client that stops reading (`http.maxStreamBufferBytes`). */
export const DEFAULT_MAX_STREAM_BUFFER_BYTES = 1024 * 1024;

/** How much a stream may hold for its client, and who hears of a stream closed for it. */
export interface StreamBufferBound {
  readonly maxBufferBytes: number;
  /** Called once for a stream closed because `queuedBytes` waited for its client. */
  readonly onOverflow?: (queuedBytes: number) => void;
}

const DEFAULT_BOUND: StreamBufferBound = { maxBufferBytes: DEFAULT_MAX_STREAM_BUFFER_BYTES };

/**
 * Writes the SDK's web `Response` to the Node response, as `toNodeHandler` of
 * `@modelcontextprotocol/node` does: a JSON answer in one write with its length, a stream
 * (SSE) chunk by chunk, until the client goes away.
 *
 * A stream is read as fast as it is written, whether the client reads or not: the SDK's
 * streams are pushed to (a notification is enqueued for every listener), so waiting for
 * `drain` only moved the bytes into the stream's own queue, which has no bound (a paused
 * listen reader made the server grow by about 450 MB under 300,000 notifications). Here
 * they wait in the response, where they are counted: once more than `maxBufferBytes` wait
 * for the client, beside the largest message since the client last caught up (so that one
 * message larger than the bound still goes out whole), the stream is cancelled (the SDK
 * tears its subscription or call down) and the connection destroyed, which frees them.
 */
export async function writeWebResponse(
  response: Response,
  res: ServerResponse,
  clientGone: AbortSignal,
  { maxBufferBytes, onOverflow }: StreamBufferBound = DEFAULT_BOUND,
): Promise<void> {
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  if (response.body === null) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (headers['content-type']?.startsWith('application/json')) {
    const body = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, headers).end(body);
    return;
  }
  // The head goes at once: a stream's first event may come much later (a 2025 session's
  // GET stream sends nothing until a notification or its keep-alive, 15 s later).
  res.writeHead(response.status, headers).flushHeaders();
  const reader = response.body.getReader();
  // A client that closes the stream cancels the call (2026-07-28: closing the response
  // stream is how a client cancels): cancelling the body closes the SDK's transport,
  // which aborts the handler's signal. One listener for the whole stream.
  const cancel = () => void reader.cancel('The client closed the connection').catch(() => {});
  clientGone.addEventListener('abort', cancel, { once: true });
  let largest = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || clientGone.aborted) break;
      // Below the high-water mark the client keeps up: what waits is in flight, not piling.
      if (!res.writableNeedDrain) largest = 0;
      if (value.byteLength > largest) largest = value.byteLength;
      res.write(value);
      const queued = res.writableLength;
      if (queued - largest > maxBufferBytes) {
        onOverflow?.(queued);
        void reader.cancel('The client stopped reading').catch(() => {});
        res.destroy();
        return;
      }
    }
  } catch {
    // The stream failed or the client left: end what was sent.
  } finally {
    clientGone.removeEventListener('abort', cancel);
  }
  res.end();
}

import type { ServerResponse } from 'node:http';

/**
 * Writes the SDK's web `Response` to the Node response, as `toNodeHandler` of
 * `@modelcontextprotocol/node` does: a JSON answer in one write with its length, a stream
 * (SSE) chunk by chunk with back-pressure, until the client goes away.
 */
export async function writeWebResponse(
  response: Response,
  res: ServerResponse,
  clientGone: AbortSignal,
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
  res.writeHead(response.status, headers);
  const reader = response.body.getReader();
  // A client that closes the stream cancels the call (2026-07-28: closing the response
  // stream is how a client cancels): cancelling the body closes the SDK's transport,
  // which aborts the handler's signal.
  const cancel = () => void reader.cancel('The client closed the connection').catch(() => {});
  clientGone.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || clientGone.aborted) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          clientGone.addEventListener('abort', () => resolve(), { once: true });
        });
      }
    }
  } catch {
    // The stream failed or the client left: end what was sent.
  } finally {
    clientGone.removeEventListener('abort', cancel);
  }
  res.end();
}

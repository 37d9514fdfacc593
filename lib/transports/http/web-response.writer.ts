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
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
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
  const gone = new Promise<void>((resolve) =>
    clientGone.addEventListener('abort', () => resolve(), { once: true }),
  );
  try {
    for await (const chunk of response.body) {
      if (clientGone.aborted) break;
      if (!res.write(chunk)) {
        await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone]);
      }
    }
  } catch {
    // The stream failed or the client left: end what was sent.
  }
  res.end();
}

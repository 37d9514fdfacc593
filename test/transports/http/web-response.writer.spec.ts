// The writer of the SDK's web responses, on a real Node server and client: what a stream
// holds for a client that stops reading, and what it leaves on the exchange's signal.
import { getEventListeners } from 'node:events';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { writeWebResponse } from '../../../lib/transports/http/web-response.writer.js';

const BOUND = 64 * 1024;
const encoder = new TextEncoder();
const MESSAGE = encoder.encode(`event: message\ndata: ${'x'.repeat(200)}\n\n`);

/** A stream the test pushes to, as the SDK's listen router does, and how it was cancelled. */
function pushedStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const cancelled: unknown[] = [];
  const readable = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: (reason) => void cancelled.push(reason),
  });
  return {
    response: new Response(readable, { headers: { 'content-type': 'text/event-stream' } }),
    push: (bytes: Uint8Array) => controller.enqueue(bytes),
    end: () => controller.close(),
    cancelled,
  };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Serves one exchange with `write`, and returns the client's response once its head came. */
async function exchange(write: (res: ServerResponse) => void) {
  server = createServer((_req, res) => write(res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
}

describe('writeWebResponse', () => {
  it('closes a stream once more than the bound waits for a client that stopped reading', async () => {
    const stream = pushedStream();
    const gone = new AbortController();
    const overflows: number[] = [];
    let written: Promise<void> | undefined;
    const response = await exchange((res) => {
      written = writeWebResponse(stream.response, res, gone.signal, {
        maxBufferBytes: BOUND,
        onOverflow: (queued) => overflows.push(queued),
      });
    });
    response.pause();
    response.socket.pause();
    const ended = new Promise((resolve) => response.once('close', resolve));
    response.on('error', () => undefined);

    while (overflows.length === 0) {
      for (let i = 0; i < 1000; i++) stream.push(MESSAGE);
      await nextTurn();
    }
    await written;
    expect(overflows).toHaveLength(1);
    expect(overflows[0]).toBeGreaterThan(BOUND);
    expect(getEventListeners(gone.signal, 'abort')).toHaveLength(0);
    expect(stream.cancelled).toEqual(['The client stopped reading']);
    response.socket.resume();
    response.resume();
    await ended;
  });

  it('keeps one abort listener for a client that reads slowly, however often it falls behind', async () => {
    const stream = pushedStream();
    const gone = new AbortController();
    const response = await exchange((res) => {
      void writeWebResponse(stream.response, res, gone.signal, { maxBufferBytes: 1 << 30 });
    });
    let received = 0;
    response.on('data', (chunk: Buffer) => (received += chunk.byteLength));
    let most = 0;
    // The client reads in bursts: every burst lets the server's buffer drain.
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 200; i++) stream.push(MESSAGE);
      response.socket.pause();
      await nextTurn();
      most = Math.max(most, getEventListeners(gone.signal, 'abort').length);
      response.socket.resume();
      await nextTurn();
    }
    stream.end();
    await new Promise((resolve) => response.once('end', resolve));
    expect(received).toBe(200 * 200 * MESSAGE.byteLength);
    // One for the whole stream (it was one more for every wait for `drain`).
    expect(most).toBe(1);
    expect(getEventListeners(gone.signal, 'abort')).toHaveLength(0);
  });

  it('writes one message larger than the bound whole, to a client that reads', async () => {
    const stream = pushedStream();
    const overflows: number[] = [];
    const response = await exchange((res) => {
      void writeWebResponse(stream.response, res, new AbortController().signal, {
        maxBufferBytes: BOUND,
        onOverflow: (queued) => overflows.push(queued),
      });
    });
    const big = encoder.encode(`data: ${'y'.repeat(16 * BOUND)}\n\n`);
    stream.push(big);
    stream.push(encoder.encode('data: after\n\n'));
    stream.end();
    let text = '';
    response.setEncoding('utf8');
    for await (const chunk of response) text += chunk;
    expect(text).toBe(`data: ${'y'.repeat(16 * BOUND)}\n\ndata: after\n\n`);
    expect(overflows).toEqual([]);
  });

  it('cancels the stream when its client goes away, and leaves no listener', async () => {
    const stream = pushedStream();
    const gone = new AbortController();
    let written: Promise<void> | undefined;
    const response = await exchange((res) => {
      res.on('close', () => gone.abort());
      written = writeWebResponse(stream.response, res, gone.signal);
    });
    stream.push(encoder.encode('data: one\n\n'));
    response.destroy();
    await written;
    expect(stream.cancelled).toEqual(['The client closed the connection']);
    expect(getEventListeners(gone.signal, 'abort')).toHaveLength(0);
  });
});

import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { applyHeadersTimeout } from '../../../lib/transports/http/server-timeouts.js';

type CheckedServer = Server & { connectionsCheckingInterval: number };

let server: CheckedServer | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server?.listening ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const newServer = (options: { requestTimeout?: number } = {}) =>
  (server = createServer(options) as CheckedServer);

describe('applyHeadersTimeout (http.headersTimeoutMs)', () => {
  it('sets headersTimeout, and checks connections every quarter of it from listen() on', () => {
    const http = newServer();
    applyHeadersTimeout(http, 2_000);
    expect(http.headersTimeout).toBe(2_000);
    expect(http.connectionsCheckingInterval).toBe(500);
    // Node's default (5 minutes) is above it: unchanged.
    expect(http.requestTimeout).toBe(300_000);
  });

  it('raises a lower requestTimeout to it (Node requires headersTimeout <= requestTimeout), and leaves 0 off', () => {
    const low = newServer({ requestTimeout: 1_000 });
    applyHeadersTimeout(low, 2_000);
    expect(low.requestTimeout).toBe(2_000);
    const off = createServer({ requestTimeout: 0 });
    applyHeadersTimeout(off, 2_000);
    expect(off.requestTimeout).toBe(0);
  });

  it('keeps the smallest of several registrations’ bounds', () => {
    const http = newServer();
    applyHeadersTimeout(http, 1_000);
    applyHeadersTimeout(http, 8_000);
    expect(http.headersTimeout).toBe(1_000);
    expect(http.connectionsCheckingInterval).toBe(250);
  });

  it('leaves the interval of a server that listens already, which Node read at listen()', async () => {
    const http = newServer();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    applyHeadersTimeout(http, 2_000);
    expect(http.headersTimeout).toBe(2_000);
    expect(http.connectionsCheckingInterval).toBe(30_000);
  });

  it('leaves a server of another kind as it is', () => {
    const other = { headersTimeout: 'n/a' };
    applyHeadersTimeout(other, 2_000);
    expect(other).toEqual({ headersTimeout: 'n/a' });
    expect(() => applyHeadersTimeout(undefined, 2_000)).not.toThrow();
  });
});

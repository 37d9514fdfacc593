import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_HTTP_PATH } from '../mcp.constants.js';
import type { McpProtocolRuntime } from '../protocol/protocol-runtime.interface.js';

/** The app's HTTP server the kit reaches, and how to let go of it. */
export interface ReachedListener {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Closes the listener the kit opened; a no-op when the app was listening already. */
  release(): Promise<void>;
}

/** The app's HTTP server, or `undefined` for an application context without HTTP. */
export function httpServerOf(app: INestApplicationContext): Server | undefined {
  const candidate = app as Partial<INestApplication>;
  if (typeof candidate.getHttpServer !== 'function') return undefined;
  try {
    return candidate.getHttpServer() as Server | undefined;
  } catch {
    return undefined;
  }
}

/**
 * The path of a server's endpoint: the app's global prefix, then its `http.path`, the way
 * the endpoint's route is registered (`mcp-http.providers.ts`); `undefined` with
 * `http: false`.
 */
export function endpointPath(
  app: INestApplicationContext,
  server: Pick<McpProtocolRuntime, 'options'>,
): string | undefined {
  const { http } = server.options;
  if (http === false) return undefined;
  let prefix = '';
  try {
    prefix = app.get(ApplicationConfig, { strict: false }).getGlobalPrefix();
  } catch {
    // A context without an ApplicationConfig has no global prefix.
  }
  const segments = [prefix, http?.path ?? DEFAULT_HTTP_PATH].join('/').split('/').filter(Boolean);
  return `/${segments.join('/')}`;
}

/**
 * Reaches the app's server the way supertest does: a server that is listening already is
 * used where it listens (and left open); otherwise it listens on 127.0.0.1 with a free port
 * until {@link ReachedListener.release}. Fastify answers only once it is ready, which
 * `app.init()` does not wait for.
 */
export async function reachServer(app: INestApplication, server: Server): Promise<ReachedListener> {
  const adapter = app.getHttpAdapter?.();
  if (adapter?.getType?.() === 'fastify') {
    await (adapter.getInstance() as { ready(): PromiseLike<unknown> }).ready();
  }
  if (server.listening) return { origin: originOf(server), release: async () => {} };
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', failed);
      resolve();
    });
  });
  return {
    origin: originOf(server),
    release: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        // Keep-alive connections of the client would hold the close open.
        server.closeAllConnections?.();
      }),
  };
}

function originOf(server: Server): string {
  const address = server.address() as AddressInfo | string | null;
  if (address === null || typeof address === 'string') {
    throw new Error(
      'McpTestClient drives HTTP over TCP, and this app listens on a pipe or socket file: ' +
        'listen on a port, or create the app without HTTP to be driven in memory.',
    );
  }
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}`;
}

// A real redis-server for one test file, on a free loopback port, with nothing on disk.
// The tests of the Redis integration (docs/scale-out.md) start one in beforeAll and stop
// it in afterAll; `restart()` keeps the port, for the tests of a lost connection.
import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the server (SIGTERM, then SIGKILL); the data is gone. */
  stop(): Promise<void>;
  /** Stops it and starts a new, empty one on the same port. */
  restart(): Promise<void>;
}

/** A port the system has just given out and taken back: free, as far as anyone can tell. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

function launch(port: number): ChildProcess {
  const child = spawn(
    'redis-server',
    // No persistence, loopback only, no protected-mode surprises; the log stays quiet.
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.once('error', () => undefined);
  return child;
}

async function waitUntilReady(child: ChildProcess, port: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`redis-server exited with ${child.exitCode}: ${stderr}`);
    }
    if (await answersPing(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${port} within 15 s: ${stderr}`);
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts redis-server (the Debian package `redis-server`; `npm test` and `.ci/run` install
 * it when missing) and resolves once it answers PING.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child = launch(port);
  await waitUntilReady(child, port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () => terminate(child),
    async restart() {
      await terminate(child);
      child = launch(port);
      await waitUntilReady(child, port);
    },
  };
}

/** Polls `condition` every 20 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A redis-server for the file, an admin client, and clients standing for app instances. */
export interface RedisHarness {
  readonly server: RedisServer;
  readonly admin: Redis;
  /**
   * A client for one instance, disconnected after the test. Its connection name (which the
   * connections duplicated from it inherit) lets `admin` kill that instance's connections.
   */
  clientOf(name: string, url?: string): Redis;
  /** The ids of the connections whose name is `name`, as CLIENT LIST reports them. */
  connectionsOf(name: string): Promise<string[]>;
  /** Kills the client's and the reader's connection of `name`, once both are open. */
  killConnectionsOf(name: string): Promise<void>;
}

/** Starts redis-server in beforeAll and stops it in afterAll; clients end after each test. */
export function useRedisServer(): RedisHarness {
  let server: RedisServer | undefined;
  let admin: Redis | undefined;
  const clients: Redis[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url, { maxRetriesPerRequest: null });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.stop();
  });
  return {
    get server() {
      return server!;
    },
    get admin() {
      return admin!;
    },
    clientOf(name, url = server!.url) {
      const client = new Redis(url, { maxRetriesPerRequest: null, connectionName: name });
      // The connections these tests kill would otherwise be reported on the console.
      client.on('error', () => undefined);
      clients.push(client);
      return client;
    },
    connectionsOf,
    async killConnectionsOf(name) {
      await waitUntil(async () => (await connectionsOf(name)).length === 2, `${name} is connected`);
      for (const id of await connectionsOf(name)) await admin!.client('KILL', 'ID', id);
    },
  };

  async function connectionsOf(name: string): Promise<string[]> {
    const list = (await admin!.client('LIST')) as string;
    return list
      .split('\n')
      .filter((line) => line.includes(` name=${name} `))
      .map((line) => /id=(\d+)/.exec(line)![1]!);
  }
}

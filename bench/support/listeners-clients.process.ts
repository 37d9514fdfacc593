import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { answerCommands } from './listeners-child.js';
import {
  BROADCAST_MARKER,
  nowMs,
  PLAIN_EVENTS_PATH,
  TICKER_URI,
  type ListenersScenario,
  type OpenReading,
  type RoundReading,
} from './listeners-ipc.js';
import { LEGACY_VERSION, MCP_PATH, MODERN_VERSION } from './wire.js';

// The clients of the listeners bench, in a process of their own so that the server's memory
// is the server's alone. A stream is a bare socket that writes its request by hand and only
// looks for the broadcast in what it reads: cheap, so that the 10,000 of them disturb the
// measured server as little as possible.

const { scenario } = JSON.parse(process.argv[2] ?? '{}') as { scenario: ListenersScenario };
const OPEN_TIMEOUT_MS = 30_000;

const sockets = new Set<Socket>();
/** When each stream received its first, second, ... broadcast: `arrivals[round - 1]`. */
const arrivals: number[][] = [];
/** Streams the server ended after they opened (a limit, an error). */
let dropped = 0;

/**
 * Opens one stream: `head` resolves once the response head says 200; then it counts every
 * broadcast it reads (a marker split across two reads is found in the tail kept from the
 * first). `sent` resolves once the request is written.
 */
function openStream(port: number, request: string): { sent: Promise<void>; head: Promise<void> } {
  let sent!: Promise<void>;
  const head = new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sent = new Promise((written) => socket.write(request, () => written()));
    let opened = false;
    let pending = '';
    let seen = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no response head in ${OPEN_TIMEOUT_MS} ms`));
    }, OPEN_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      let text = pending + chunk.toString('latin1');
      if (!opened) {
        const end = text.indexOf('\r\n\r\n');
        if (end === -1) {
          pending = text;
          return;
        }
        clearTimeout(timer);
        if (!text.startsWith('HTTP/1.1 200')) {
          socket.destroy();
          reject(new Error(text.slice(0, 400)));
          return;
        }
        opened = true;
        sockets.add(socket);
        resolve();
        text = text.slice(end + 4);
      }
      for (let at = text.indexOf(BROADCAST_MARKER); at !== -1;) {
        (arrivals[seen] ??= []).push(nowMs());
        seen += 1;
        at = text.indexOf(BROADCAST_MARKER, at + BROADCAST_MARKER.length);
      }
      pending = text.slice(-(BROADCAST_MARKER.length - 1));
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (!opened) reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (!opened) reject(new Error('closed before its response head'));
      else if (sockets.delete(socket)) dropped += 1;
    });
  });
  return { sent, head };
}

/**
 * The heads of 2025 GET streams, awaited once all are open: the server sends a GET
 * stream's head with its first event, the SSE keep-alive 15 s later (see bench/README.md).
 */
const heads: Array<Promise<void>> = [];

const requestHead = (
  method: 'GET' | 'POST',
  port: number,
  path: string,
  headers: Record<string, string>,
  body = '',
) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  (method === 'POST' ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : '') +
  `\r\n${body}`;

const LISTEN_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'subscriptions/listen',
  params: {
    notifications: { resourceSubscriptions: [TICKER_URI] },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'listeners-bench', version: '1' },
    },
  },
});

/** One POST of a 2025 session's setup, answered (its SSE or JSON body read whole). */
function post(agent: Agent, port: number, headers: Record<string, string>, body: unknown) {
  return new Promise<{ status: number; sessionId?: string; text: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port,
        path: MCP_PATH,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (part: string) => (text += part));
        res.on('end', () => {
          const sessionId = res.headers['mcp-session-id'];
          resolve({
            status: res.statusCode ?? 0,
            text,
            ...(typeof sessionId === 'string' && { sessionId }),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A 2025 session: initialize, initialized, `resources/subscribe`, then its GET stream. */
async function openSession(agent: Agent, port: number): Promise<void> {
  const initialized = await post(
    agent,
    port,
    {},
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: { name: 'listeners-bench', version: '1' },
      },
    },
  );
  const sessionId = initialized.sessionId;
  if (initialized.status !== 200 || !sessionId) {
    throw new Error(`initialize: HTTP ${initialized.status} ${initialized.text.slice(0, 300)}`);
  }
  const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_VERSION };
  const notified = await post(agent, port, session, {
    jsonrpc: '2.0',
    method: 'notifications/initialized',
  });
  if (notified.status !== 202) throw new Error(`initialized: HTTP ${notified.status}`);
  const subscribed = await post(agent, port, session, {
    jsonrpc: '2.0',
    id: 2,
    method: 'resources/subscribe',
    params: { uri: TICKER_URI },
  });
  if (subscribed.status !== 200 || !subscribed.text.includes('"result"')) {
    throw new Error(`resources/subscribe: HTTP ${subscribed.status} ${subscribed.text}`);
  }
  const stream = openStream(
    port,
    requestHead('GET', port, MCP_PATH, { Accept: 'text/event-stream', ...session }),
  );
  heads.push(stream.head);
  await stream.sent;
}

function openOne(port: number, agent: Agent): Promise<void> {
  switch (scenario) {
    case 'plain':
      return openStream(
        port,
        requestHead('GET', port, PLAIN_EVENTS_PATH, { Accept: 'text/event-stream' }),
      ).head;
    case 'listen-2026':
      return openStream(
        port,
        requestHead(
          'POST',
          port,
          MCP_PATH,
          {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'MCP-Protocol-Version': MODERN_VERSION,
            'Mcp-Method': 'subscriptions/listen',
          },
          LISTEN_BODY,
        ),
      ).head;
    case 'sessions-2025':
      return openSession(agent, port);
  }
}

/** Opens `count` streams, `batch` at a time (within the server's accept backlog, 511). */
async function open(port: number, count: number, batch: number): Promise<OpenReading> {
  const started = nowMs();
  // The setup POSTs of 2025 sessions reuse a few connections, closed before measuring.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let failed = 0;
  let firstError: string | undefined;
  const tally = (outcomes: PromiseSettledResult<void>[]) => {
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      failed += 1;
      firstError ??= String((outcome.reason as Error)?.message ?? outcome.reason);
    }
  };
  for (let done = 0; done < count; done += batch) {
    const size = Math.min(batch, count - done);
    const outcomes = await Promise.allSettled(
      Array.from({ length: size }, () => openOne(port, agent)),
    );
    tally(outcomes);
  }
  agent.destroy();
  tally(await Promise.allSettled(heads.splice(0)));
  return {
    opened: sockets.size,
    failed,
    ms: nowMs() - started,
    ...(firstError !== undefined && { firstError }),
  };
}

/** Waits until every open stream has its `round`-th broadcast, or the timeout. */
async function roundOf(round: number, timeoutMs: number): Promise<RoundReading> {
  const deadline = nowMs() + timeoutMs;
  while ((arrivals[round - 1]?.length ?? 0) < sockets.size && nowMs() < deadline) {
    await sleep(5);
  }
  const times = (arrivals[round - 1] ?? []).toSorted((a, b) => a - b);
  return {
    received: times.length,
    firstAt: times[0] ?? Number.NaN,
    medianAt: times[Math.floor(times.length / 2)] ?? Number.NaN,
    lastAt: times.at(-1) ?? Number.NaN,
    dropped,
  };
}

answerCommands(async (command) => {
  switch (command.command) {
    case 'open':
      return { open: await open(command.port, command.count, command.batch) };
    case 'round':
      return { round: await roundOf(command.round, command.timeoutMs) };
    case 'close':
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      return {};
    default:
      throw new Error(`the listeners clients do not answer "${command.command}"`);
  }
});
process.send?.({ type: 'ready' });

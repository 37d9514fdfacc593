import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ClosableStdioTransport } from '../../../lib/transports/stdio/closable-stdio.transport.js';

const line = (message: object) => `${JSON.stringify(message)}\n`;
const request = (id: number) => line({ jsonrpc: '2.0', id, method: 'tools/list' });
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { tools: [] } });

/** A transport on test streams, started as `serveStdio` starts it, recording what happens. */
async function started() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: JSONRPCMessage[] = [];
  const events: string[] = [];
  const transport = new ClosableStdioTransport(stdin, stdout, () => events.push('wire closed'));
  // The SDK's Transport has callbacks, not addEventListener: serveStdio sets them so.
  // oxlint-disable-next-line unicorn/prefer-add-event-listener
  transport.onmessage = (message) => received.push(message);
  // oxlint-disable-next-line unicorn/prefer-add-event-listener
  transport.onclose = () => events.push('closed');
  // oxlint-disable-next-line unicorn/prefer-add-event-listener
  transport.onerror = (error) => events.push(`error: ${error.message}`);
  await transport.start();
  return { stdin, stdout, transport, received, events };
}

/** Lets streams and timers of this turn run. */
async function settle(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await nextTurn();
}

describe('ClosableStdioTransport', () => {
  it('reads the messages of stdin and closes once it ends, when nothing is in flight', async () => {
    const { stdin, received, events } = await started();
    stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await settle();
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    stdin.end();
    await settle();
    expect(events).toEqual(['closed', 'wire closed']);
  });

  it('answers the requests in flight when stdin ends, then closes', async () => {
    const { stdin, transport, received, events } = await started();
    stdin.write(request(1));
    stdin.write(request(2));
    await settle();
    expect(received).toHaveLength(2);
    stdin.end();
    await settle();
    expect(events).toEqual([]);
    await transport.send(answer(1));
    await settle();
    expect(events).toEqual([]);
    await transport.send(answer(2));
    await settle();
    expect(events).toEqual(['closed', 'wire closed']);
  });

  it('counts a request that comes with the end of stdin', async () => {
    const { stdin, transport, received, events } = await started();
    stdin.end(request(7));
    await settle();
    expect(received).toHaveLength(1);
    expect(events).toEqual([]);
    await transport.send(answer(7));
    await settle();
    expect(events).toEqual(['closed', 'wire closed']);
  });

  it('answers what stdin held before the transport started, then closes', async () => {
    const stdin = new PassThrough();
    stdin.write(request(1));
    stdin.end(request(2));
    const events: string[] = [];
    const received: JSONRPCMessage[] = [];
    const transport = new ClosableStdioTransport(stdin, new PassThrough(), () =>
      events.push('wire closed'),
    );
    // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Transport callback
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await settle();
    expect(received).toHaveLength(2);
    expect(events).toEqual([]);
    await transport.send(answer(1));
    await transport.send(answer(2));
    await settle();
    expect(events).toEqual(['wire closed']);
  });

  it('closes on close(), once, and stops reading stdin', async () => {
    const { stdin, transport, received, events } = await started();
    stdin.write(request(1));
    await settle();
    await transport.close();
    await transport.close();
    expect(events).toEqual(['closed', 'wire closed']);
    expect(stdin.listenerCount('data')).toBe(0);
    expect(stdin.isPaused()).toBe(true);
    stdin.write(request(2));
    stdin.end();
    await settle();
    expect(received).toHaveLength(1);
    expect(events).toEqual(['closed', 'wire closed']);
  });

  it('closes at start when stdin has already ended', async () => {
    const stdin = new PassThrough();
    stdin.resume();
    stdin.end();
    await settle();
    expect(stdin.readableEnded).toBe(true);
    const events: string[] = [];
    const transport = new ClosableStdioTransport(stdin, new PassThrough(), () =>
      events.push('wire closed'),
    );
    await transport.start();
    await settle();
    expect(events).toEqual(['wire closed']);
  });

  it('reports an error of stdin', async () => {
    const { stdin, events } = await started();
    stdin.emit('error', new Error('broken pipe'));
    expect(events).toEqual(['error: broken pipe']);
  });

  it('writes what it sends to stdout, one line per message', async () => {
    const { stdout, transport } = await started();
    let written = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => (written += chunk));
    await transport.send(answer(3));
    await settle();
    expect(written).toBe(line(answer(3)));
  });
});

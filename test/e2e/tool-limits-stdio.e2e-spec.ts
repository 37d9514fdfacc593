/**
 * Tool limits over stdio (issue 33, item 4): the fixture of tool-limits.e2e-spec.ts served by
 * `bootstrapStdio()` in a process of its own, spawned by the SDK clients of both revisions
 * as hosts spawn stdio servers. A call past its `timeoutMs` is answered with the timeout
 * error and its method sees `ctx.signal` abort; calls beyond `concurrency` wait, then are
 * refused with the retryable error.
 */
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { buildFixture } from '../support/fixture-build.js';
import { requireBuilt, ROOT } from '../transports/stdio/stdio-process.js';

captureLogs();

/** The compiled entry (test/fixtures/tool-limits-stdio.app.ts), set in beforeAll. */
let entry: string;

beforeAll(() => {
  requireBuilt('dist/index.js', 'dist/transports/stdio/index.js');
  buildFixture('test/fixtures/slow.tools.ts');
  buildFixture('test/fixtures/tool-limits.fixture.ts');
  entry = buildFixture('test/fixtures/tool-limits-stdio.app.ts');
});

interface StdioLimitsClient {
  call(name: string): Promise<Record<string, any>>;
  /** What the server wrote to stderr so far (its logs). */
  readonly stderr: () => string;
  close(): Promise<void>;
}

const serverParameters = () => ({
  command: process.execPath,
  args: [entry],
  cwd: ROOT,
  stderr: 'pipe' as const,
});

/** Collects a piped stderr, so a failing test can show what the server logged. */
function collect(stream: Readable | null): () => string {
  let text = '';
  stream?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return () => text;
}

const ERAS = [
  {
    era: '2025-11-25 (v1 client)',
    async connect(): Promise<StdioLimitsClient> {
      const client = new LegacyClient({ name: 'limits-stdio-v1', version: '1.0.0' });
      const transport = new LegacyStdioTransport(serverParameters());
      const stderr = collect(transport.stderr as Readable | null);
      await client.connect(transport);
      return {
        call: (name) => client.callTool({ name, arguments: {} }) as Promise<Record<string, any>>,
        stderr,
        close: () => client.close(),
      };
    },
  },
  {
    era: '2026-07-28 (v2 client)',
    async connect(): Promise<StdioLimitsClient> {
      const client = new ModernClient(
        { name: 'limits-stdio-v2', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      const transport = new ModernStdioTransport(serverParameters());
      const stderr = collect(transport.stderr as Readable | null);
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe('modern');
      return {
        call: (name) => client.callTool({ name, arguments: {} }) as Promise<Record<string, any>>,
        stderr,
        close: () => client.close(),
      };
    },
  },
] as const;

const textOf = (result: Record<string, any>): string => result.content?.[0]?.text;

// One server process per revision, for both tests: spawning one is the slow part.
describe.each(ERAS)('tool limits over stdio, $era', ({ connect }) => {
  let client: StdioLimitsClient;

  beforeAll(async () => {
    client = await connect();
  });

  afterAll(async () => {
    await client?.close();
  });

  it('stops a call past its timeoutMs and aborts its method', async () => {
    const result = await client.call('stuck');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Tool "stuck" timed out after 100 ms and was stopped; it may have done part of its work. ' +
        'Check its effects before calling it again, or ask for less at once.',
    );
    expect(JSON.parse(textOf(await client.call('seen_aborts')))).toEqual([
      { tool: 'stuck', name: 'ToolTimeoutError', message: 'Tool "stuck" timed out after 100 ms.' },
    ]);
    expect(client.stderr()).not.toContain('ERROR');
  });

  it('runs two calls of a max-2 tool, queues one and refuses the fourth', async () => {
    const calls = [1, 2, 3, 4].map(() => client.call('pooled'));
    const refused = await Promise.race(calls);
    expect(textOf(refused)).toBe(
      'Tool "pooled" is busy: 2 calls running (concurrency.max 2) and 1 waiting ' +
        '(concurrency.queue 1); retry shortly. Retry after 1 seconds.',
    );
    expect(textOf(await client.call('open_gate'))).toBe('opened');
    const results = await Promise.all(calls);
    expect(results.map(textOf).filter((text) => text === 'pooled done')).toHaveLength(3);
  });
});

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';
import { requireBuilt, ROOT } from '../transports/stdio/stdio-process.js';

// The built sample with `SAMPLE_OTEL=console`, spawned as `npm start` runs it (npm test
// builds it first): the spans the SDK's console exporter prints, for calls of real clients.

const HTTP_SAMPLE = 'dist-sample/main.js';
const STDIO_SAMPLE = 'dist-sample/main-stdio.js';

/**
 * The objects the console exporters print (`console.dir`): from a line `{` to a line `}`.
 * Only those that carry a span name are kept.
 */
function printedSpans(output: string, name: string): string[] {
  const spans: string[] = [];
  let current: string[] | undefined;
  for (const line of output.split('\n')) {
    if (line === '{') current = [];
    if (current) current.push(line);
    if (line === '}' && current) {
      const text = current.join('\n');
      if (text.includes(`  name: '${name}',`)) spans.push(text);
      current = undefined;
    }
  }
  return spans;
}

/** Resolves once `read()` holds what `found` looks for, checked whenever output arrives. */
function waitFor<T>(
  stream: NodeJS.ReadableStream,
  read: () => string,
  found: (text: string) => T | undefined,
): Promise<T> {
  return new Promise((resolve) => {
    const check = () => {
      const value = found(read());
      if (value === undefined) return;
      stream.off('data', check);
      resolve(value);
    };
    stream.on('data', check);
    check();
  });
}

const SEARCH = 'tools/call search_products';

/**
 * Preloaded in the spawned sample: names on stderr every `@opentelemetry/*` package that is
 * required. Each SDK package requires `@opentelemetry/core`, whether the sample imports it
 * or requires it; the library itself requires only `@opentelemetry/api`.
 */
const PROBE = `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request.startsWith('@opentelemetry/')) process.stderr.write('[otel-probe] ' + request + '\\n');
  return load.call(this, request, ...rest);
};
`;
let probe: string;

/** The HTTP sample, preloaded with the probe; resolves with its MCP endpoint once it listens. */
async function startHttpSample(env: Record<string, string>) {
  const sample = spawn(process.execPath, ['--require', probe, HTTP_SAMPLE], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
  });
  const output = { stdout: '', stderr: '' };
  sample.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  sample.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const url = new URL(
    await waitFor(
      sample.stdout,
      () => output.stdout,
      (text) => /MCP endpoint: (\S+)/.exec(text)?.[1],
    ),
  );
  return { sample, output, url };
}

async function stop(sample: ChildProcessWithoutNullStreams): Promise<void> {
  if (sample.exitCode !== null || sample.signalCode !== null) return;
  const exited = new Promise((resolve) => sample.once('exit', resolve));
  sample.kill('SIGTERM');
  await exited;
}

const required = (stderr: string) =>
  [...stderr.matchAll(/^\[otel-probe\] (\S+)$/gm)].map((match) => match[1]);

beforeAll(() => {
  requireBuilt(HTTP_SAMPLE, STDIO_SAMPLE, 'dist/index.js');
  probe = join(mkdtempSync(join(tmpdir(), 'sample-otel-')), 'otel-probe.cjs');
  writeFileSync(probe, PROBE);
});

afterAll(() => rmSync(dirname(probe), { recursive: true, force: true }));

describe('the sample without SAMPLE_OTEL', () => {
  it('loads no part of the OpenTelemetry SDK', async () => {
    const { sample, output } = await startHttpSample({});
    await stop(sample);
    expect(required(output.stderr).filter((name) => name !== '@opentelemetry/api')).toEqual([]);
  });
});

describe('the sample with SAMPLE_OTEL=console, over HTTP', () => {
  let running: Awaited<ReturnType<typeof startHttpSample>>;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    running = await startHttpSample({ SAMPLE_OTEL: 'console' });
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    if (running) await stop(running.sample);
  });

  it('loads the SDK (which the probe of the test without SAMPLE_OTEL sees)', () => {
    expect(required(running.output.stderr)).toContain('@opentelemetry/core');
  });

  it('prints one SERVER span per tool call, named and attributed by the MCP conventions', async () => {
    for (const { connect } of CLIENTS) {
      const client = await connect(running.url, SAMPLE_DEFAULTS.readerToken);
      clients.push(client);
      const result = await client.callTool('search_products', { category: 'books', limit: 1 });
      expect(result.isError).toBeFalsy();
    }
    const spans = await waitFor(
      running.sample.stdout,
      () => running.output.stdout,
      (text) => {
        const found = printedSpans(text, SEARCH);
        return found.length >= CLIENTS.length ? found : undefined;
      },
    );
    expect(spans).toHaveLength(CLIENTS.length);
    for (const span of spans) {
      expect(span).toContain("'mcp.method.name': 'tools/call'");
      expect(span).toContain("'gen_ai.tool.name': 'search_products'");
      expect(span).toContain("'gen_ai.operation.name': 'execute_tool'");
      expect(span).toContain("'network.transport': 'tcp'");
      // SpanKind.SERVER
      expect(span).toContain('  kind: 1,');
      // The arguments stay out unless the app opts in (telemetry.recordArguments).
      expect(span).not.toContain('gen_ai.tool.call.arguments');
    }
    // One span for each era's client.
    expect(spans.some((span) => span.includes("'mcp.protocol.version': '2025-11-25'"))).toBe(true);
    expect(spans.some((span) => span.includes("'mcp.protocol.version': '2026-07-28'"))).toBe(true);
  });
});

describe('the sample with SAMPLE_OTEL=console, over stdio', () => {
  it('prints its spans on stderr and keeps stdout to MCP', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STDIO_SAMPLE],
      cwd: ROOT,
      env: { SAMPLE_OTEL: 'console', SAMPLE_TOKEN: SAMPLE_DEFAULTS.readerToken },
      stderr: 'pipe',
    });
    // A PassThrough, there before the process starts (stderr: 'pipe').
    const serverStderr = transport.stderr as PassThrough;
    let stderr = '';
    serverStderr.setEncoding('utf8');
    serverStderr.on('data', (chunk: string) => (stderr += chunk));
    const client = new Client(
      { name: 'telemetry-e2e', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    // A line on stdout that is not JSON-RPC would reach the client as an error.
    const errors: Error[] = [];
    // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Client has none
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: 'search_products',
        arguments: { category: 'garden', limit: 1 },
      });
      expect(result.isError).toBeFalsy();
      const [span] = await waitFor<string[]>(
        serverStderr,
        () => stderr,
        (text) => {
          const found = printedSpans(text, SEARCH);
          return found.length > 0 ? found : undefined;
        },
      );
      expect(span).toContain("'mcp.method.name': 'tools/call'");
      expect(span).toContain("'network.transport': 'pipe'");
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('the sample with SAMPLE_OTEL set to an unknown exporter', () => {
  it('stops at start and says which values it takes', async () => {
    const sample = spawn(process.execPath, [HTTP_SAMPLE], {
      cwd: ROOT,
      env: { ...process.env, SAMPLE_OTEL: 'jaeger', PORT: '0' },
    });
    let stderr = '';
    sample.stdout.resume();
    sample.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => sample.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toContain('SAMPLE_OTEL must be console (or unset), not jaeger');
  });
});

// `nestjs-mcp serve` keeps stdout for MCP from before it imports the app (issue 31): an app
// module that logs with `console` at its top level is served by the built CLI, spawned as an
// MCP client spawns a server, and the client works while the log lines go to stderr.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  initializeRequest,
  requireBuilt,
  ROOT,
  StdioProcess,
} from '../transports/stdio/stdio-process.js';

const CLI = 'dist/cli/main.js';
const MODULE = 'test/cli/fixtures/noisy-fixture.module.mjs#NoisyFixtureModule';

beforeAll(() => requireBuilt(CLI));

describe('nestjs-mcp serve with an app that logs at its top level', () => {
  let spawned: StdioProcess | undefined;
  afterEach(() => spawned?.kill());

  it('serves a real MCP client, the log lines on stderr', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', MODULE],
      cwd: ROOT,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const errors: Error[] = [];
    const client = new Client({ name: 'noisy-e2e', version: '1.0.0' });
    // oxlint-disable-next-line unicorn/prefer-add-event-listener -- the SDK's Protocol has no addEventListener
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['greet']);
      const result = await client.callTool({ name: 'greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'hello from a noisy app' }]);
    } finally {
      await client.close();
    }
    // Nothing on stdout the client could not read as JSON-RPC.
    expect(errors).toEqual([]);
    expect(stderr).toContain('noisy fixture: configuration loaded');
    expect(stderr).toContain("noisy: 'an object, as console.info prints it'");
    expect(stderr).toContain('noisy fixture: a timer of the top level fired');
    expect(stderr).toContain('noisy fixture: greet was called');
  });

  it('writes nothing but JSON-RPC messages on stdout', async () => {
    spawned = new StdioProcess([CLI, 'serve', MODULE]);
    spawned.send(initializeRequest(1));
    expect((await spawned.response(1)).result.serverInfo.name).toBe('noisy');
    spawned.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    spawned.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet' } });
    expect((await spawned.response(2)).result.content[0].text).toBe('hello from a noisy app');
    await expect(spawned.closeStdin()).resolves.toBe(0);
    expect(spawned.stdoutLines.length).toBeGreaterThan(0);
    for (const line of spawned.stdoutLines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    expect(spawned.stderr).toContain('noisy fixture: configuration loaded');
  });
});

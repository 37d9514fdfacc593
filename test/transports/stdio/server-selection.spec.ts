import type { INestApplicationContext } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import type { ProtocolRuntime } from '../../../lib/protocol/protocol.runtime.js';
import { ProtocolRuntimes } from '../../../lib/protocol/protocol-runtimes.js';
import {
  listServers,
  selectServer,
  ServerSelectionError,
} from '../../../lib/transports/server.selector.js';

/** A server's run time as a registration registers it, without bootstrapping one. */
const server = (name: string) =>
  ({ options: { name, version: '1.0.0', http: false } }) as unknown as ProtocolRuntime;

/** An app whose McpModule registrations registered these run times. */
function appWith(...servers: ProtocolRuntime[]): INestApplicationContext {
  const runtimes = new ProtocolRuntimes();
  for (const registered of servers) runtimes.register(registered);
  return {
    get: (token: unknown) => {
      if (token === ProtocolRuntimes) return runtimes;
      throw new Error('not found');
    },
  } as unknown as INestApplicationContext;
}

// stdio, `nestjs-mcp serve` and `nestjs-mcp call` serve one server; these are the rules.
describe('choosing the MCP server to serve', () => {
  it('finds every McpModule registration, in order', () => {
    const [a, b] = [server('a'), server('b')];
    expect(listServers(appWith(a, b))).toEqual([a, b]);
  });

  it('finds none in a context without McpModule', () => {
    const app = {
      get: () => {
        throw new Error('not found');
      },
    } as unknown as INestApplicationContext;
    expect(listServers(app)).toEqual([]);
  });

  it('takes the only server, or the one named', () => {
    const [a, b] = [server('a'), server('b')];
    expect(selectServer(appWith(a))).toBe(a);
    expect(selectServer(appWith(a, b), 'b')).toBe(b);
  });

  it.each([
    { hosts: ['a', 'b'], name: undefined, kind: 'ambiguous', text: '2 MCP servers (a, b)' },
    {
      hosts: ['a'],
      name: 'z',
      kind: 'unknown',
      text: 'no MCP server named "z"; its servers are: a',
    },
    { hosts: [], name: undefined, kind: 'none', text: 'import McpModule.forRoot' },
  ])('says what to do when the choice fails ($kind)', ({ hosts, name, kind, text }) => {
    const app = appWith(...hosts.map(server));
    expect(() => selectServer(app, name)).toThrow(ServerSelectionError);
    try {
      selectServer(app, name);
    } catch (error) {
      expect((error as ServerSelectionError).kind).toBe(kind);
      expect((error as Error).message).toContain(text);
    }
  });
});

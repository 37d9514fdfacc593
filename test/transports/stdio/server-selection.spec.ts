import type { INestApplicationContext } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { McpServerHost } from '../../../lib/servers/mcp-server.host.js';
import {
  listServerHosts,
  selectServerHost,
  ServerSelectionError,
} from '../../../lib/transports/server-host.selector.js';

/** A host as Nest would hold it, without bootstrapping one. */
const host = (name: string): McpServerHost =>
  Object.assign(Object.create(McpServerHost.prototype), { options: { name, version: '1.0.0' } });

/** An app whose providers are these hosts (and something else), as DiscoveryService lists them. */
function appWith(...hosts: McpServerHost[]): INestApplicationContext {
  const providers = [{ instance: {} }, ...hosts.map((instance) => ({ instance }))];
  // The same host exported to another module is one instance, listed once.
  if (hosts[0]) providers.push({ instance: hosts[0] });
  return {
    get: (token: unknown) => {
      if (token === DiscoveryService) return { getProviders: () => providers };
      throw new Error('not found');
    },
  } as unknown as INestApplicationContext;
}

// stdio, `nestjs-mcp serve` and `nestjs-mcp call` serve one server; these are the rules.
describe('choosing the MCP server to serve', () => {
  it('finds every McpModule registration, once each', () => {
    const [a, b] = [host('a'), host('b')];
    expect(listServerHosts(appWith(a, b))).toEqual([a, b]);
  });

  it('takes the only server, or the one named', () => {
    const [a, b] = [host('a'), host('b')];
    expect(selectServerHost(appWith(a))).toBe(a);
    expect(selectServerHost(appWith(a, b), 'b')).toBe(b);
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
    const app = appWith(...hosts.map(host));
    expect(() => selectServerHost(app, name)).toThrow(ServerSelectionError);
    try {
      selectServerHost(app, name);
    } catch (error) {
      expect((error as ServerSelectionError).kind).toBe(kind);
      expect((error as Error).message).toContain(text);
    }
  });
});

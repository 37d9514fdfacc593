import type { DiscoveryService } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import { McpServerHost } from '../../lib/servers/mcp-server.host.js';
import { McpServers } from '../../lib/servers/mcp-servers.js';

/** A host as Nest would hold it, without bootstrapping one. */
const host = (name: string): McpServerHost =>
  Object.assign(Object.create(McpServerHost.prototype), { options: { name, version: '1.0.0' } });

/** The app's providers as DiscoveryService lists them: these hosts among other providers. */
function serversOf(...hosts: McpServerHost[]): McpServers {
  const providers = [{ instance: {} }, ...hosts.map((instance) => ({ instance }))];
  // The same host exported to another module is one instance, listed once.
  if (hosts[0]) providers.push({ instance: hosts[0] });
  return new McpServers({ getProviders: () => providers } as unknown as DiscoveryService);
}

describe('McpServers', () => {
  it('lists every McpModule registration once, in the order of the app', () => {
    const [a, b] = [host('a'), host('b')];
    const servers = serversOf(a, b);
    expect(servers.all()).toEqual([a, b]);
    expect(servers.names()).toEqual(['a', 'b']);
  });

  it('finds a server by name, and names the servers when there is none by that name', () => {
    const [a, b] = [host('a'), host('b')];
    const servers = serversOf(a, b);
    expect(servers.get('b')).toBe(b);
    expect(servers.has('a')).toBe(true);
    expect(servers.has('z')).toBe(false);
    expect(() => servers.get('z')).toThrow(McpConfigurationError);
    expect(() => servers.get('z')).toThrow(
      `There is no MCP server named "z"; the app's servers are: a, b.`,
    );
    expect(() => serversOf().get('z')).toThrow(
      'none (import McpModule.forRoot({ name, version }))',
    );
  });
});

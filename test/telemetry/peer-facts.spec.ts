import { describe, expect, it } from 'vitest';
import { httpPeerOf, PIPE } from '../../lib/telemetry/peer-facts.js';

describe('httpPeerOf', () => {
  it('reads an Express request: its ip, socket port and HTTP version', () => {
    const request = {
      ip: '10.1.2.80',
      httpVersion: '1.1',
      socket: { remoteAddress: '10.1.2.80', remotePort: 65123 },
    };
    expect(httpPeerOf(request)).toEqual({
      transport: 'tcp',
      protocolName: 'http',
      protocolVersion: '1.1',
      address: '10.1.2.80',
      port: 65123,
    });
  });

  it('reads a Fastify request through its Node.js request', () => {
    const request = {
      ip: '::1',
      raw: { httpVersion: '2.0', socket: { remoteAddress: '::1', remotePort: 40000 } },
    };
    expect(httpPeerOf(request)).toMatchObject({
      address: '::1',
      port: 40000,
      protocolVersion: '2.0',
    });
  });

  it('leaves the port out for a client behind a trusted proxy', () => {
    const request = {
      ip: '203.0.113.9',
      httpVersion: '1.1',
      socket: { remoteAddress: '10.0.0.2', remotePort: 51000 },
    };
    const peer = httpPeerOf(request);
    expect(peer.address).toBe('203.0.113.9');
    expect(peer).not.toHaveProperty('port');
  });

  it('knows only the transport of a request it cannot read', () => {
    expect(httpPeerOf(undefined)).toEqual({ transport: 'tcp', protocolName: 'http' });
    expect(PIPE).toEqual({ transport: 'pipe' });
  });
});

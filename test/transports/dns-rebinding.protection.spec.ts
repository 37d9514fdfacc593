import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DnsRebindingProtection } from '../../lib/transports/http/dns-rebinding.protection.js';

const request = (localAddress: string, headers: Record<string, string>, encrypted = false) =>
  ({ socket: { localAddress, encrypted }, headers }) as unknown as IncomingMessage;

async function statusOf(protection: DnsRebindingProtection, req: IncomingMessage) {
  const rejected = protection.check(req);
  return rejected
    ? { status: rejected.status, message: (await rejected.json()).error.message as string }
    : 'passes';
}

describe('DnsRebindingProtection', () => {
  const defaults = new DnsRebindingProtection({});

  it.each([
    ['127.0.0.1', { host: 'localhost:3000' }],
    ['::ffff:127.0.0.1', { host: '127.0.0.1:3000', origin: 'http://localhost:3000' }],
    ['127.0.0.1', { host: 'localhost:3000', origin: 'https://[::1]:3000' }],
    ['127.0.0.1', { host: 'localhost', origin: 'http://127.0.0.1:80' }],
    ['::1', { host: '[::1]:3000' }],
    ['10.0.0.5', { host: 'evil.example.com' }],
  ])('lets through a request on %s with %j', async (address, headers) => {
    expect(await statusOf(defaults, request(address, headers))).toBe('passes');
  });

  it.each([
    [{ host: 'evil.example.com' }, /evil\.example\.com.*http\.allowedHosts/],
    [{ host: 'localhost:3000', origin: 'http://evil.example.com' }, /http\.allowedOrigins/],
    [{ host: 'localhost:3000', origin: 'null' }, /Invalid Origin: null.*http\.allowedOrigins/],
    [
      { host: 'localhost:3000', origin: 'http://localhost:9999' },
      /from its own origin \(localhost names on its port\); list others/,
    ],
    [{ host: 'localhost:3000', origin: 'http://localhost:3000/path' }, /Invalid Origin/],
  ])(
    'refuses %j on a loopback connection with 403 saying what to configure',
    async (headers, message) => {
      const result = await statusOf(defaults, request('127.0.0.1', headers));
      expect(result).toMatchObject({ status: 403, message: expect.stringMatching(message) });
    },
  );

  it('remembers a Host it passed, never one it refused, and checks Origin every time', async () => {
    const protection = new DnsRebindingProtection({});
    const own = request('127.0.0.1', { host: 'localhost:3000' });
    expect(await statusOf(protection, own)).toBe('passes');
    expect(await statusOf(protection, own)).toBe('passes');
    for (let attempt = 0; attempt < 2; attempt++) {
      const evil = request('127.0.0.1', { host: 'evil.example.com' });
      expect(await statusOf(protection, evil)).toMatchObject({ status: 403 });
    }
    const page = request('127.0.0.1', {
      host: 'localhost:3000',
      origin: 'http://evil.example.com',
    });
    expect(await statusOf(protection, page)).toMatchObject({ status: 403 });
  });

  it('checks Origin on every connection: an unchecked Host proves nothing', async () => {
    const rebinding = request('10.0.0.5', {
      host: 'evil.example.com',
      origin: 'http://evil.example.com',
    });
    expect(await statusOf(defaults, rebinding)).toMatchObject({
      status: 403,
      message: expect.stringContaining('accepts browser requests from no origin'),
    });
  });

  it('applies configured lists to every connection, origins as scheme, host and port', async () => {
    const configured = new DnsRebindingProtection({
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://app.example.com', 'HTTP://Tools.Example.com:8080/'],
    });
    const on = (headers: Record<string, string>, encrypted = false) =>
      statusOf(configured, request('10.0.0.5', { host: 'mcp.example.com', ...headers }, encrypted));
    for (const origin of ['https://app.example.com', 'https://app.example.com:443']) {
      expect(await on({ origin })).toBe('passes');
    }
    expect(await on({ origin: 'http://tools.example.com:8080' })).toBe('passes');
    // Its own origin, the connection's scheme with the Host the Host check passed.
    expect(await on({ origin: 'http://mcp.example.com' })).toBe('passes');
    expect(await on({ origin: 'https://mcp.example.com' }, true)).toBe('passes');
    expect(await on({ origin: 'https://mcp.example.com' })).toMatchObject({ status: 403 });
    for (const origin of [
      'http://app.example.com',
      'https://app.example.com:8443',
      'https://evil.example.com',
      'http://localhost',
    ]) {
      expect(await on({ origin })).toMatchObject({ status: 403 });
    }
    expect(
      await statusOf(configured, request('10.0.0.5', { host: 'other.example.com' })),
    ).toMatchObject({ status: 403 });
  });

  it('can be turned off', async () => {
    const off = new DnsRebindingProtection({ dnsRebindingProtection: false });
    expect(
      await statusOf(
        off,
        request('127.0.0.1', { host: 'evil.example.com', origin: 'http://evil.example.com' }),
      ),
    ).toBe('passes');
  });
});

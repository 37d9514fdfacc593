import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DnsRebindingProtection } from '../../lib/transports/http/dns-rebinding.protection.js';

const request = (localAddress: string, headers: Record<string, string>) =>
  ({ socket: { localAddress }, headers }) as unknown as IncomingMessage;

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
    ['::ffff:127.0.0.1', { host: '127.0.0.1:3000', origin: 'http://localhost:5173' }],
    ['::1', { host: '[::1]:3000' }],
    ['10.0.0.5', { host: 'evil.example.com', origin: 'http://evil.example.com' }],
  ])('lets through a request on %s with %j', async (address, headers) => {
    expect(await statusOf(defaults, request(address, headers))).toBe('passes');
  });

  it.each([
    [{ host: 'evil.example.com' }, /evil\.example\.com.*http\.allowedHosts/],
    [{ host: 'localhost:3000', origin: 'http://evil.example.com' }, /http\.allowedOrigins/],
    [{ host: 'localhost:3000', origin: 'null' }, /http\.allowedOrigins/],
  ])(
    'refuses %j on a loopback connection with 403 saying what to configure',
    async (headers, message) => {
      const result = await statusOf(defaults, request('127.0.0.1', headers));
      expect(result).toMatchObject({ status: 403, message: expect.stringMatching(message) });
    },
  );

  it('applies configured lists to every connection', async () => {
    const configured = new DnsRebindingProtection({
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['app.example.com'],
    });
    expect(
      await statusOf(
        configured,
        request('10.0.0.5', { host: 'mcp.example.com', origin: 'https://app.example.com' }),
      ),
    ).toBe('passes');
    expect(
      await statusOf(configured, request('10.0.0.5', { host: 'other.example.com' })),
    ).toMatchObject({ status: 403 });
    expect(
      await statusOf(
        configured,
        request('10.0.0.5', { host: 'mcp.example.com', origin: 'https://evil.example.com' }),
      ),
    ).toMatchObject({ status: 403 });
  });

  it('can be turned off', async () => {
    const off = new DnsRebindingProtection({ dnsRebindingProtection: false });
    expect(await statusOf(off, request('127.0.0.1', { host: 'evil.example.com' }))).toBe('passes');
  });
});

import { type INestApplication, Injectable, Module } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { McpModule, type McpHttpOptions, McpTool } from 'nestjs-mcp';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, type HttpAdapterName } from '../../support/fixture-app.js';
import { MODERN_VERSION, modernMeta } from '../../support/mcp-post.js';

// The Origin and Host checks through a real server (MCP Streamable HTTP, "Security
// Warning": servers MUST validate Origin on all incoming connections), on loopback and on a
// network address (issue 31, finding 5).

@Injectable()
class PingTools {
  @McpTool({ description: 'Answers pong.' })
  ping() {
    return 'pong';
  }
}

/** A non-loopback IPv4 address of this machine, if it has one. */
const NETWORK_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((info) => info?.family === 'IPv4' && !info.internal)?.address;

interface Running {
  app: INestApplication;
  /** `http://<address>:<port>` */
  base: string;
  port: number;
}

async function startOn(
  adapter: HttpAdapterName,
  address: string,
  http: McpHttpOptions,
): Promise<Running> {
  @Module({
    imports: [McpModule.forRoot({ name: 'origins', version: '1.0.0', http })],
    providers: [PingTools],
  })
  class OriginsModule {}
  const moduleRef = await Test.createTestingModule({ imports: [OriginsModule] }).compile();
  const app = moduleRef.createNestApplication(
    adapter === 'fastify' ? new FastifyAdapter() : new ExpressAdapter(),
    { logger: ['error'] },
  );
  await app.listen(0, address);
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, base: `http://${address}:${port}`, port };
}

/** A 2026-07-28 `tools/list` with the given headers (`Host` and `Origin` among them). */
const list = (running: Running, headers: Record<string, string> = {}) => {
  const req = request(running.base)
    .post('/mcp')
    .set('Accept', 'application/json, text/event-stream')
    .set('Content-Type', 'application/json')
    .set('MCP-Protocol-Version', MODERN_VERSION)
    .set('Mcp-Method', 'tools/list');
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } });
};

const statusOf = async (running: Running, headers: Record<string, string>) =>
  (await list(running, headers)).status;

describe.each(ADAPTERS)('DNS rebinding protection on %s', (adapter) => {
  describe('on a loopback connection, by default', () => {
    let running: Running;
    beforeAll(async () => {
      running = await startOn(adapter, '127.0.0.1', {});
    });
    afterAll(() => running?.app.close());

    it('serves a request without Origin, and the localhost origins of its own port', async () => {
      expect(await statusOf(running, {})).toBe(200);
      for (const host of ['localhost', '127.0.0.1', '[::1]']) {
        expect(await statusOf(running, { Origin: `http://${host}:${running.port}` })).toBe(200);
      }
    });

    it('refuses a localhost origin on another port, and a foreign one, with 403 naming the option', async () => {
      for (const origin of ['http://localhost:9999', 'http://evil.example.com', 'null']) {
        const refused = await list(running, { Origin: origin });
        expect(refused.status).toBe(403);
        expect(refused.body.error.message).toContain(`Invalid Origin: ${origin}`);
        expect(refused.body.error.message).toContain('http.allowedOrigins');
      }
    });
  });

  describe('with http.allowedOrigins, compared as scheme, host and port', () => {
    let running: Running;
    beforeAll(async () => {
      running = await startOn(adapter, '127.0.0.1', {
        allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
      });
    });
    afterAll(() => running?.app.close());

    it('serves the listed origins and its own, and refuses another scheme or port', async () => {
      for (const origin of [
        'https://app.example.com',
        'http://localhost:5173',
        `http://127.0.0.1:${running.port}`,
      ]) {
        expect(await statusOf(running, { Origin: origin })).toBe(200);
      }
      for (const origin of [
        'http://app.example.com',
        'https://app.example.com:8443',
        'http://localhost:5174',
      ]) {
        expect(await statusOf(running, { Origin: origin })).toBe(403);
      }
    });
  });

  describe('turned off (http.dnsRebindingProtection: false)', () => {
    let running: Running;
    beforeAll(async () => {
      running = await startOn(adapter, '127.0.0.1', { dnsRebindingProtection: false });
    });
    afterAll(() => running?.app.close());

    it('checks neither Host nor Origin', async () => {
      expect(
        await statusOf(running, { Host: 'evil.example.com', Origin: 'http://evil.example.com' }),
      ).toBe(200);
    });
  });

  describe.skipIf(NETWORK_ADDRESS === undefined)(
    `on a network address (${NETWORK_ADDRESS})`,
    () => {
      let open: Running;
      let listed: Running;
      beforeAll(async () => {
        open = await startOn(adapter, NETWORK_ADDRESS!, {});
        listed = await startOn(adapter, NETWORK_ADDRESS!, { allowedHosts: [NETWORK_ADDRESS!] });
      });
      afterAll(async () => {
        await open?.app.close();
        await listed?.app.close();
      });

      it('serves a request without Origin (a non-browser client)', async () => {
        expect(await statusOf(open, {})).toBe(200);
      });

      it('refuses a rebinding page: its Origin matches the Host it sends, which nothing checked', async () => {
        const rebinding = { Host: 'evil.example.com', Origin: 'http://evil.example.com' };
        expect(await statusOf(open, rebinding)).toBe(403);
        expect(await statusOf(open, { Origin: open.base })).toBe(403);
      });

      it('serves its own origin once http.allowedHosts checks the Host, and no other', async () => {
        expect(await statusOf(listed, { Origin: listed.base })).toBe(200);
        expect(await statusOf(listed, { Origin: `http://localhost:${listed.port}` })).toBe(403);
        expect(await statusOf(listed, { Origin: 'http://evil.example.com' })).toBe(403);
      });
    },
  );
});

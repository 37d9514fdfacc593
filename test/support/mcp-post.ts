import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

export const MODERN_VERSION = '2026-07-28';

/** The `_meta` envelope a 2026-07-28 client puts on every request. */
export const modernMeta = (clientName = 'supertest') => ({
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: clientName, version: '1' },
});

/**
 * One 2026-07-28 JSON-RPC request, in-process (supertest), with the envelope and the
 * standard headers a modern client sends; `headers` add to them or override them (a wrong
 * `Mcp-Name`, say).
 */
export function modernRequest(
  app: INestApplication,
  path: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): request.Test {
  const req = request(app.getHttpServer())
    .post(path)
    .set('Accept', 'application/json, text/event-stream')
    .set('Content-Type', 'application/json')
    .set('MCP-Protocol-Version', MODERN_VERSION)
    .set('Mcp-Method', method);
  if (typeof params.name === 'string') req.set('Mcp-Name', params.name);
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req.send({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      // Keys given in `params._meta` (client capabilities, a log level) win.
      _meta: { ...modernMeta(), ...(params._meta as Record<string, unknown> | undefined) },
    },
  });
}

/** {@link modernRequest}, answered: the HTTP status and the JSON-RPC message. */
export async function postModern(
  ...args: Parameters<typeof modernRequest>
): Promise<{ status: number; message: Record<string, any> }> {
  const res = await modernRequest(...args);
  return { status: res.status, message: res.body };
}

/** The JSON-RPC message of a response, whether sent as JSON or as one SSE event. */
export function messageOf(res: request.Response): Record<string, any> {
  if (!res.headers['content-type']?.startsWith('text/event-stream')) return res.body;
  const data = res.text.split('\n').filter((line) => line.startsWith('data: '));
  return JSON.parse(data.at(-1)!.slice(6));
}

/** An answer of {@link eraRequest}: the HTTP status and headers, and the JSON-RPC message. */
export interface EraAnswer {
  status: number;
  headers: Record<string, string>;
  message: Record<string, any>;
}

/**
 * One request of either era: 2026-07-28 through {@link modernRequest}, or a stateless
 * 2025-era POST with its `MCP-Protocol-Version`; `headers` are added to either.
 */
export async function eraRequest(
  app: INestApplication,
  era: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<EraAnswer> {
  const res = await (era === MODERN_VERSION
    ? modernRequest(app, '/mcp', method, params, headers)
    : request(app.getHttpServer())
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Content-Type', 'application/json')
        .set('MCP-Protocol-Version', era)
        .set(headers)
        .send({ jsonrpc: '2.0', id: 1, method, params }));
  return {
    status: res.status,
    headers: res.headers as Record<string, string>,
    message: messageOf(res),
  };
}

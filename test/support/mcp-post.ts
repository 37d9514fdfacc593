import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

export const MODERN_VERSION = '2026-07-28';

/**
 * Posts one 2026-07-28 JSON-RPC request in-process (supertest), with the envelope and the
 * standard headers a modern client sends, and returns the JSON-RPC message.
 */
export async function postModern(
  app: INestApplication,
  path: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; message: Record<string, any> }> {
  const req = request(app.getHttpServer())
    .post(path)
    .set('Accept', 'application/json, text/event-stream')
    .set('Content-Type', 'application/json')
    .set('MCP-Protocol-Version', MODERN_VERSION)
    .set('Mcp-Method', method);
  if (typeof params.name === 'string') req.set('Mcp-Name', params.name);
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  const res = await req.send({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  return { status: res.status, message: res.body };
}

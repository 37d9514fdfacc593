import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';

/** What the e2e tests need of a client, whichever SDK it comes from. */
export interface TestClient {
  readonly label: string;
  listTools(): Promise<{ tools: Array<Record<string, any>> }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<Record<string, any>>;
  close(): Promise<void>;
  /** The SDK client itself, for prompts, resources, completions, progress and cancellation. */
  readonly sdk: any;
}

const headersFor = (token?: string): Record<string, string> =>
  token ? { Authorization: `Bearer ${token}` } : {};

/** The v1 SDK client (what most installed MCP clients run), on the 2025 wire. */
export async function connectLegacyClient(url: URL, token?: string): Promise<TestClient> {
  const client = new LegacyClient({ name: 'e2e-v1', version: '1.0.0' });
  await client.connect(new LegacyTransport(url, { requestInit: { headers: headersFor(token) } }));
  return {
    label: 'v1 client, 2025-11-25',
    listTools: () => client.listTools() as Promise<{ tools: Array<Record<string, any>> }>,
    callTool: (name, args) =>
      client.callTool({ name, arguments: args }) as Promise<Record<string, any>>,
    close: () => client.close(),
    sdk: client,
  };
}

/** The v2 SDK client pinned to protocol revision 2026-07-28. */
export async function connectModernClient(url: URL, token?: string): Promise<TestClient> {
  const client = new ModernClient(
    { name: 'e2e-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernTransport(url, { requestInit: { headers: headersFor(token) } }));
  if (client.getProtocolEra() !== 'modern')
    throw new Error(`expected the modern era, got ${client.getProtocolEra()}`);
  return {
    label: 'v2 client, 2026-07-28',
    listTools: () => client.listTools() as Promise<{ tools: Array<Record<string, any>> }>,
    callTool: (name, args) =>
      client.callTool({ name, arguments: args }) as Promise<Record<string, any>>,
    close: () => client.close(),
    sdk: client,
  };
}

export const CLIENTS = [
  { era: '2025-11-25 (v1 client)', connect: connectLegacyClient },
  { era: '2026-07-28 (v2 client)', connect: connectModernClient },
] as const;

/**
 * A result schema (Standard Schema) that takes any result as it is, for `client.request()`
 * of a method the SDK has no schema for (an extension's method).
 */
export const anyResultSchema = {
  '~standard': {
    version: 1 as const,
    vendor: 'test',
    types: undefined as unknown as { input: unknown; output: Record<string, any> },
    validate: (value: unknown) => ({ value: value as Record<string, any> }),
  },
};

/** A JSON-RPC error as the SDK clients reject a request with it. */
export interface RejectedRequest {
  code: number;
  message: string;
  data?: any;
}

/** The JSON-RPC error a request ends with; fails the test when it succeeds. */
export async function errorOf(request: Promise<unknown>): Promise<RejectedRequest> {
  const error = await request.then(
    () => undefined,
    (reason: unknown) => reason as RejectedRequest,
  );
  expect(error, 'the request should have failed').toBeDefined();
  return error!;
}

import type { CorpusRequest, CorpusServer } from './compare.js';

// The builders of the corpus's requests (corpus.ts): a 2026-07-28 request as a client of
// that revision sends it, a stateless 2025-era one, each with the changes a case asks for.

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';
const BOTH = 'application/json, text/event-stream';

export type Params = Record<string, unknown>;
/** A header value, or `null` to leave the header out. */
export type Headers = Record<string, string | null>;

export interface Options {
  /** The JSON-RPC id; `'none'` makes a notification. @default 1 */
  id?: unknown;
  headers?: Headers;
  /** Keys added to the `_meta` envelope (2026-07-28); `null` sends no envelope. */
  meta?: Params | null;
  server?: CorpusServer;
  stream?: boolean;
  wantsNotifications?: boolean;
  /** Sent inside a 2025 session (see `CorpusRequest.session`). */
  session?: boolean;
  /** A raw body in place of the JSON-RPC message. */
  body?: string;
  verb?: CorpusRequest['verb'];
}

export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'differential', version: '1' },
};

function finish(
  name: string,
  base: Record<string, string>,
  message: Params,
  options: Options,
): CorpusRequest {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...base, ...options.headers })) {
    if (value !== null) headers[key] = value;
  }
  const { id = 1 } = options;
  const body =
    options.body ?? JSON.stringify({ jsonrpc: '2.0', ...(id !== 'none' && { id }), ...message });
  return {
    name,
    headers,
    ...(!['GET', 'DELETE', 'HEAD', 'OPTIONS'].includes(options.verb ?? 'POST') && { body }),
    ...(options.verb && { verb: options.verb }),
    ...(options.server && { server: options.server }),
    ...(options.stream && { stream: true }),
    ...(options.wantsNotifications && { wantsNotifications: true }),
    ...(options.session && { session: true }),
  };
}

/** Names a request by what it sends, so that a mismatch report says what was asked. */
const label = (era: string, method: string, params: Params, options: Options) =>
  [
    options.server && `[${options.server}]`,
    options.session && '(in a session)',
    options.verb,
    era,
    method,
    params.name ?? params.uri ?? params.taskId ?? '',
    params.arguments ? JSON.stringify(params.arguments) : '',
    params.cursor !== undefined ? `cursor=${JSON.stringify(params.cursor)}` : '',
    options.id !== undefined ? `id=${JSON.stringify(options.id)}` : '',
    options.headers && Object.keys(options.headers).length
      ? `headers=${JSON.stringify(options.headers)}`
      : '',
    options.meta !== undefined ? `meta=${JSON.stringify(options.meta)}` : '',
  ]
    .filter(Boolean)
    .join(' ');

/**
 * A 2026-07-28 request: the envelope and the standard headers (Mcp-Method, and Mcp-Name
 * for the methods that name their target: a tool, prompt, resource or task).
 */
export function modern(method: string, params: Params = {}, options: Options = {}) {
  const name = params.name ?? params.uri ?? params.taskId;
  const base: Record<string, string> = {
    accept: BOTH,
    'content-type': 'application/json',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(typeof name === 'string' && { 'mcp-name': name }),
  };
  const withMeta =
    options.meta === null
      ? params
      : { ...params, _meta: { ...ENVELOPE, ...(params._meta as Params), ...options.meta } };
  return finish(
    label(MODERN, method, params, options),
    base,
    { method, params: withMeta },
    options,
  );
}

/** A 2025-era request: `MCP-Protocol-Version`, no envelope (and no session unless asked). */
export function legacy(
  method: string,
  params: Params | undefined = {},
  options: Options & { version?: string } = {},
) {
  const base = {
    accept: BOTH,
    'content-type': 'application/json',
    'mcp-protocol-version': options.version ?? LEGACY,
  };
  return finish(
    label(options.version ?? LEGACY, method, params ?? {}, options),
    base,
    { method, ...(params !== undefined && { params }) },
    options,
  );
}

/** A list cursor as the server issues them: the key the previous page ended with. */
export const cursor = (key: string) => Buffer.from(`k:${key}`, 'utf8').toString('base64url');

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { LEGACY } from './corpus-requests.js';

/** The servers of the app (fixture.ts): guarded, OAuth, with 2025 sessions, without guards. */
export type CorpusServer = 'main' | 'oauth' | 'sessions' | 'plain';

/** One request of the corpus, sent byte for byte as given. */
export interface CorpusRequest {
  /** What it tests, for the report of a mismatch. */
  name: string;
  /** @default 'main' */
  server?: CorpusServer;
  /** @default 'POST' */
  verb?: 'POST' | 'GET' | 'DELETE' | 'PUT' | 'OPTIONS' | 'HEAD';
  headers: Record<string, string>;
  /** The raw body (JSON text, or anything else; bytes for a compressed one). */
  body?: string | Buffer;
  /** A query string for the endpoint's URL (`?debug=1`). */
  query?: string;
  /**
   * The answer is a stream that stays open (`subscriptions/listen`, a 2025 GET stream):
   * only its status and headers are compared, and the connection is then closed.
   */
  stream?: boolean;
  /**
   * The client asked for notifications (a `progressToken`, a log level): the notifications
   * sent before the response must then be the same too.
   */
  wantsNotifications?: boolean;
  /**
   * Sent inside a 2025 session: each app opens its own (initialize, then
   * notifications/initialized) and the request carries that app's `Mcp-Session-Id`.
   */
  session?: boolean;
  /** Keeps the value of `Mcp-Session-Id` in the answer (opening a session). */
  sessionIdOut?: boolean;
}

/** The protocol-relevant parts of one answer. */
export interface Answer {
  status: number;
  headers: {
    /** The media type only: the charset and its spelling are the platform's. */
    contentType: string | undefined;
    contentLanguage: string | undefined;
    vary: string | undefined;
    sessionId: boolean;
    wwwAuthenticate: string | undefined;
    retryAfter: string | undefined;
  };
  /** The JSON-RPC response (or the JSON body), `undefined` for none. */
  message: unknown;
  /** The notifications an SSE stream carried before the response. */
  notifications: unknown[];
  /** A body that is neither JSON nor an SSE stream of JSON, as text. */
  text?: string;
  /** The session id itself, when the request asked to keep it (never compared). */
  sessionIdValue?: string;
}

/** A stream is read this long before it counts as one that stays open. */
const STREAM_WINDOW_MS = 300;
const TIMEOUT_MS = 5_000;

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** Sends one request of the corpus to `base` (`http://127.0.0.1:port`) and reads its answer. */
export function send(base: string, path: string, req: CorpusRequest): Promise<Answer> {
  const url = new URL(`${path}${req.query ?? ''}`, base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      method: req.verb ?? 'POST',
      headers: {
        ...(req.body !== undefined && { 'content-length': String(Buffer.byteLength(req.body)) }),
        ...req.headers,
      },
      timeout: TIMEOUT_MS,
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer in ${TIMEOUT_MS} ms`)));
    outgoing.on('error', reject);
    outgoing.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const headers: Answer['headers'] = {
        contentType: header(res.headers, 'content-type')?.split(';')[0].trim().toLowerCase(),
        contentLanguage: header(res.headers, 'content-language'),
        vary: header(res.headers, 'vary'),
        sessionId: res.headers['mcp-session-id'] !== undefined,
        wwwAuthenticate: header(res.headers, 'www-authenticate'),
        retryAfter: header(res.headers, 'retry-after'),
      };
      if (req.stream && headers.contentType === 'text/event-stream') {
        // Status and headers are all there is to compare of a stream that stays open.
        setTimeout(() => {
          res.destroy();
          resolve({ status, headers, message: undefined, notifications: [] });
        }, STREAM_WINDOW_MS);
        return;
      }
      const sessionId = header(res.headers, 'mcp-session-id');
      const kept = req.sessionIdOut && sessionId ? { sessionIdValue: sessionId } : {};
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          ...parseAnswer(status, headers, Buffer.concat(chunks).toString('utf8')),
          ...kept,
        }),
      );
    });
    outgoing.end(req.body);
  });
}

const isResponse = (m: Record<string, unknown>) => 'result' in m || 'error' in m;

function parseAnswer(status: number, headers: Answer['headers'], text: string): Answer {
  if (headers.contentType === 'text/event-stream') {
    // SSE framing aside: the JSON of each `data:` event, the response being the one with
    // an id and a result or an error.
    const events = text
      .split(/\r?\n\r?\n/)
      .map((event) =>
        event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n'),
      )
      .filter((data) => data.length > 0)
      .map((data) => JSON.parse(data) as Record<string, unknown>);
    return {
      status,
      headers,
      message: events.find(isResponse),
      notifications: events.filter((m) => !isResponse(m)),
    };
  }
  if (text.length === 0) return { status, headers, message: undefined, notifications: [] };
  try {
    return { status, headers, message: JSON.parse(text), notifications: [] };
  } catch {
    return { status, headers, message: undefined, notifications: [], text };
  }
}

/** The two framings of one JSON-RPC answer that Streamable HTTP lets a server choose. */
const FRAMINGS = new Set(['application/json', 'text/event-stream']);

const accepts = (req: CorpusRequest, type: string) =>
  Object.entries(req.headers).some(
    ([name, value]) => name.toLowerCase() === 'accept' && value.includes(type),
  );

/**
 * The differences between the lean path's answer and the SDK's, as readable lines; none
 * when they agree. Everything compared must be equal, with one allowance: a server may
 * answer a POST as `application/json` or as a `text/event-stream` carrying the response
 * (Streamable HTTP, "Sending Messages to the Server"), when the client's `Accept` takes
 * both; the lean path answers JSON where the SDK streams (issue 19). The response message
 * is compared either way, and the notifications of a stream too when the client asked for
 * some (a JSON answer cannot carry them, so such requests must stay on the SDK).
 */
export function differences(req: CorpusRequest, lean: Answer, sdk: Answer): string[] {
  const found: string[] = [];
  if (lean.status !== sdk.status) found.push(`status: lean ${lean.status}, sdk ${sdk.status}`);
  const { contentType: leanType, ...leanRest } = lean.headers;
  const { contentType: sdkType, ...sdkRest } = sdk.headers;
  const reframed =
    leanType !== sdkType &&
    FRAMINGS.has(leanType ?? '') &&
    FRAMINGS.has(sdkType ?? '') &&
    accepts(req, 'application/json') &&
    accepts(req, 'text/event-stream');
  if (leanType !== sdkType && !reframed) {
    found.push(`content-type: lean ${leanType}, sdk ${sdkType}`);
  }
  for (const key of Object.keys(sdkRest) as (keyof typeof sdkRest)[]) {
    if (leanRest[key] !== sdkRest[key]) {
      found.push(`header ${key}: lean ${String(leanRest[key])}, sdk ${String(sdkRest[key])}`);
    }
  }
  if (!isDeepStrictEqual(lean.message, sdk.message)) {
    found.push(...whereDifferent(lean.message, sdk.message, 'body').slice(0, 8));
  }
  if (lean.text !== sdk.text) found.push('body: the texts differ');
  if (
    (req.wantsNotifications || (leanType === sdkType && leanType === 'text/event-stream')) &&
    !isDeepStrictEqual(lean.notifications, sdk.notifications)
  ) {
    found.push('notifications differ');
  }
  return found;
}

const short = (value: unknown) => JSON.stringify(value)?.slice(0, 200) ?? 'undefined';

/** The paths at which two JSON values differ, with both values there. */
function whereDifferent(lean: unknown, sdk: unknown, path: string): string[] {
  if (isDeepStrictEqual(lean, sdk)) return [];
  const bothObjects =
    typeof lean === 'object' &&
    typeof sdk === 'object' &&
    lean !== null &&
    sdk !== null &&
    Array.isArray(lean) === Array.isArray(sdk);
  if (!bothObjects) {
    return [`${path}: lean ${short(lean)}, sdk ${short(sdk)}`];
  }
  const keys = new Set([...Object.keys(lean), ...Object.keys(sdk)]);
  return [...keys].flatMap((key) =>
    whereDifferent(
      (lean as Record<string, unknown>)[key],
      (sdk as Record<string, unknown>)[key],
      `${path}.${key}`,
    ),
  );
}

const shown = (value: unknown) => JSON.stringify(value, null, 2);

/** A mismatch, printed so that a reader sees the difference at once. */
export function report(req: CorpusRequest, lean: Answer, sdk: Answer, found: string[]): string {
  const text = Buffer.isBuffer(req.body) ? `<${req.body.byteLength} bytes>` : req.body;
  const body = text && text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
  return [
    `### ${req.name}`,
    `- ${found.join('\n- ')}`,
    '',
    `Request: ${req.verb ?? 'POST'}${req.query ? ` ${req.query}` : ''} to the ${req.server ?? 'main'} server${req.session ? ', in a session' : ''}`,
    '```',
    Object.entries(req.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
    '',
    body ?? '',
    '```',
    'Lean path (`http.leanPath: true`):',
    '```json',
    shown(lean),
    '```',
    'SDK path (`http.leanPath: false`):',
    '```json',
    shown(sdk),
    '```',
  ].join('\n');
}

/**
 * Opens a 2025 session on one app (initialize, then notifications/initialized, as a 2025
 * client does) and returns its id, for a request the corpus sends inside a session.
 */
export async function openSession(base: string, path: string): Promise<string> {
  const headers = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
  };
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: 'differential', version: '1' },
    },
  });
  const opened = await send(base, path, {
    name: 'initialize',
    headers,
    body: initialize,
    sessionIdOut: true,
  });
  if (!opened.sessionIdValue) throw new Error(`No session from ${path}: ${JSON.stringify(opened)}`);
  const initialized = await send(base, path, {
    name: 'initialized',
    headers: {
      ...headers,
      'mcp-protocol-version': LEGACY,
      'mcp-session-id': opened.sessionIdValue,
    },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  if (initialized.status !== 202) throw new Error(`initialized: ${JSON.stringify(initialized)}`);
  return opened.sessionIdValue;
}

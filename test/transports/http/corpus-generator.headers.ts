import type { CorpusServer } from './compare.js';
import { LEGACY, MODERN, type Headers } from './corpus-requests.js';
import type { Random } from './corpus-generator.random.js';

// The headers of the generated requests (corpus-generator.ts): the callers the fixture's
// guards and OAuth check tell apart, the languages of its i18n, and the standard headers of
// both wires as a client may get them wrong (SEP-2243 `Mcp-Name` above all).

/** Who calls, per server: the endpoint and admin guards (main), the OAuth tokens. */
export const CALLERS: Record<CorpusServer, Headers[]> = {
  main: [
    {},
    { authorization: 'Bearer reader' },
    { authorization: 'Bearer admin', 'x-scopes': 'notes.write' },
    { authorization: 'Bearer admin' },
    { authorization: 'Bearer intruder' },
    { authorization: 'Bearer banned' },
    { authorization: 'Bearer reader', 'x-scopes': 'notes.write other' },
    { authorization: 'Basic dXNlcjpwYXNz' },
  ],
  oauth: [
    {},
    { authorization: 'Bearer bad' },
    { authorization: 'Bearer good' },
    { authorization: 'Bearer good-catalog.read' },
    { authorization: 'bearer good-catalog.read' },
    { authorization: 'Bearer ' },
    { authorization: 'Basic dXNlcjpwYXNz' },
  ],
  sessions: [{}],
  plain: [{}, { authorization: 'Bearer whoever' }],
};

export const LANGUAGES = [
  'de',
  'de-CH, fr;q=0.5',
  'fr',
  '*',
  'de;q=0, en',
  'DE',
  'en',
  '',
  'xx-invalid;;',
];
const ACCEPTS = [
  'application/json',
  'text/event-stream',
  'text/event-stream, application/json',
  'application/json,text/event-stream',
  'application/jsonx, text/event-streamy',
  'text/event-stream;q=0.1, application/json',
  '*/*',
  'application/*, text/*',
  'APPLICATION/JSON, TEXT/EVENT-STREAM',
  'text/html',
  null,
];
const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'Application/JSON',
  'application/jsonx',
  'application/json-seq',
  'application/x-www-form-urlencoded',
  ' application/json ',
  null,
];
const LEGACY_VERSIONS = [
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '1999-01-01',
  MODERN,
  'garbage',
  ' 2025-11-25',
];
const MODERN_VERSIONS = [
  LEGACY,
  '2030-01-01',
  '2026-01-01',
  'garbage',
  ' 2026-07-28 ',
  '2026-07-28, 2026-07-28',
];

/** `=?base64?…?=`, the SEP-2243 encoding of a header value (for names outside ASCII). */
export const base64 = (value: string) => `=?base64?${Buffer.from(value).toString('base64')}?=`;

/** Whether a value can go in an HTTP header as it is (Node refuses the others). */
export const headerSafe = (value: string) => /^[\t\x20-\x7e]*$/.test(value);

/** The changes of a 2026-07-28 request's standard headers, `Mcp-Name` above all. */
export function modernHeaderChange(random: Random, method: string, name: unknown): Headers {
  const named = typeof name === 'string' ? name : undefined;
  return random.weighted<() => Headers>([
    [2, () => ({ 'mcp-name': random.pick(['add', 'other', 'diff://readme', '']) })],
    [2, () => ({ 'mcp-name': null })],
    [2, () => ({ 'mcp-name': base64(named ?? 'add') })],
    [1, () => ({ 'mcp-name': base64(`${named ?? ''}x`) })],
    [
      1,
      () => ({
        'mcp-name': random.pick([
          '=?base64?!!!?=',
          '=?BASE64?YWRk?=',
          '=?base64??=',
          '=?utf-8?q?add?=',
        ]),
      }),
    ],
    [1, () => ({ 'mcp-name': named && headerSafe(named) ? named.toUpperCase() : 'ADD' })],
    [
      1,
      () => ({
        'mcp-name':
          named && headerSafe(named) ? random.pick([` ${named}`, `${named} `, `\t${named}`]) : ' x',
      }),
    ],
    [
      2,
      () => ({
        'mcp-method': random.pick([
          null,
          'tools/list',
          method.toUpperCase(),
          ` ${method} `,
          'ping',
        ]),
      }),
    ],
    [2, () => ({ 'mcp-protocol-version': random.pick([null, ...MODERN_VERSIONS]) })],
    // A header sent twice (another spelling of its name is another line on the wire).
    [
      1,
      () =>
        random.pick([
          { 'Mcp-Name': named && headerSafe(named) ? named : 'add' } as Headers,
          { 'Mcp-Method': method },
          { 'MCP-Protocol-Version': MODERN },
        ]),
    ],
  ])();
}

/** Everything else a client may put in the headers, on either wire. */
export function commonHeaderChange(
  random: Random,
  server: CorpusServer,
  era: 'modern' | 'legacy',
): Headers {
  return random.weighted<() => Headers>([
    [3, () => ({ accept: random.pick(ACCEPTS) })],
    [3, () => ({ 'content-type': random.pick(CONTENT_TYPES) })],
    [3, () => ({ 'accept-language': random.pick(LANGUAGES) })],
    [4, () => random.pick(CALLERS[server])],
    [1, () => ({ 'mcp-session-id': random.pick(['no-such-session', '']) })],
    [1, () => ({ 'x-trace': 'abc' })],
    [
      era === 'legacy' ? 2 : 0,
      () => ({ 'mcp-protocol-version': random.pick([null, ...LEGACY_VERSIONS]) }),
    ],
    [
      era === 'legacy' ? 1 : 0,
      () => ({ 'mcp-method': random.pick(['tools/call', 'x']), 'mcp-name': 'add' }),
    ],
  ])();
}

/** Header names as a client may spell them (HTTP field names are case-insensitive). */
export function respell(random: Random, headers: Record<string, string>): Record<string, string> {
  if (!random.chance(0.15)) return headers;
  const spell = (name: string) =>
    random.pick([
      name.toUpperCase(),
      name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase()),
      name,
    ]);
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [spell(name), value]));
}

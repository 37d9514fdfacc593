import { gzipSync } from 'node:zlib';
import type { CorpusRequest } from './compare.js';
import {
  ENVELOPE,
  legacy,
  LEGACY,
  modern,
  MODERN,
  type Headers,
  type Params,
} from './corpus-requests.js';

// The corpus's edge cases (corpus.ts has the operations): the 2026-07-28 envelope, JSON-RPC
// ids, odd bodies, what only the SDK serves, and the OAuth and session servers.

export const CALL_ADD = { name: 'add', arguments: { a: 2, b: 3 } };

const rpc = (message: Params) => JSON.stringify({ jsonrpc: '2.0', id: 1, ...message });

const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** The `_meta` envelope of 2026-07-28: missing, partial, wrong, with progress or logging. */
export function envelopeCases(): CorpusRequest[] {
  const progress = { name: 'progress', arguments: {} };
  const confirm = { name: 'confirm', arguments: {} };
  const elicits = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  return [
    modern('tools/call', CALL_ADD, { meta: null }),
    modern('tools/list', {}, { meta: null }),
    modern('tools/call', CALL_ADD, { meta: { 'io.modelcontextprotocol/protocolVersion': LEGACY } }),
    modern('tools/call', CALL_ADD, { meta: { 'io.modelcontextprotocol/protocolVersion': 7 } }),
    // A revision the server does not serve, in the header and the envelope alike (-32022).
    ...['2030-01-01', '2026-01-01', LEGACY].map((version) =>
      modern('tools/call', CALL_ADD, {
        headers: { 'mcp-protocol-version': version },
        meta: { 'io.modelcontextprotocol/protocolVersion': version },
      }),
    ),
    modern('tools/call', CALL_ADD, { meta: { 'io.modelcontextprotocol/clientInfo': 'me' } }),
    modern('tools/call', CALL_ADD, {
      meta: { 'io.modelcontextprotocol/clientCapabilities': null },
    }),
    modern('tools/list', {}, { meta: { 'io.modelcontextprotocol/clientInfo': undefined } }),
    modern('tools/call', CALL_ADD, { meta: { 'x.example/trace': 'abc' } }),
    modern('tools/call', progress, { meta: { progressToken: 'p1' }, wantsNotifications: true }),
    modern('tools/call', progress, { meta: { progressToken: 7 }, wantsNotifications: true }),
    modern('tools/call', progress, {
      meta: { 'io.modelcontextprotocol/logLevel': 'debug' },
      wantsNotifications: true,
    }),
    modern('tools/call', progress, { meta: { 'io.modelcontextprotocol/logLevel': 'error' } }),
    modern('tools/call', progress, { meta: { 'io.modelcontextprotocol/logLevel': 'loud' } }),
    modern('tools/call', progress),
    modern('tools/call', CALL_ADD, { meta: { progressToken: 'p2' }, wantsNotifications: true }),
    modern('tools/list', {}, { meta: { progressToken: 'p3' }, wantsNotifications: true }),
    legacy(
      'tools/call',
      { ...progress, _meta: { progressToken: 'p4' } },
      { wantsNotifications: true },
    ),
    legacy(
      'tools/call',
      { ...CALL_ADD, _meta: { progressToken: 5 } },
      { wantsNotifications: true },
    ),
    legacy('tools/call', progress),
    // Without a progress token or a log level, what a tool sends is still sent: a 2025
    // server logs at every level until logging/setLevel, and a notification of the tool's own
    // goes to its request's stream on both wires (issue 31).
    legacy('tools/call', progress, { wantsNotifications: true }),
    legacy('tools/call', { name: 'announce', arguments: {} }, { wantsNotifications: true }),
    modern('tools/call', { name: 'announce', arguments: {} }, { wantsNotifications: true }),
    modern('tools/call', progress, { wantsNotifications: true }),
    modern('tools/call', confirm),
    modern('tools/call', confirm, { meta: elicits }),
    modern(
      'tools/call',
      { ...confirm, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } },
      { meta: elicits },
    ),
    modern(
      'tools/call',
      { ...confirm, inputResponses: { confirm: { action: 'decline' } } },
      { meta: elicits },
    ),
    modern('tools/call', { ...CALL_ADD, inputResponses: { stray: { action: 'cancel' } } }),
    modern('tools/call', { ...CALL_ADD, inputResponses: 'yes' }),
    modern('tools/call', { ...CALL_ADD, requestState: 'forged' }),
    modern('tools/call', { ...CALL_ADD, task: { ttl: 1000 } }),
    legacy('tools/call', confirm),
    modern('tools/call', CALL_ADD, { headers: { 'mcp-param-a': '2' } }),
  ];
}

/** JSON-RPC ids: strings, numbers, null, missing (a notification), and wrong types. */
export function idCases(): CorpusRequest[] {
  const ids: unknown[] = ['abc', '', 0, -1, 1.5, 2 ** 53 + 2, null, 'none', true, { a: 1 }, [1]];
  const cases: CorpusRequest[] = [];
  for (const id of ids) {
    cases.push(modern('tools/call', CALL_ADD, { id }), legacy('tools/call', CALL_ADD, { id }));
    cases.push(modern('tools/list', {}, { id }));
  }
  return cases;
}

/** Bodies that are not one well-formed request. */
export function bodyCases(): CorpusRequest[] {
  const cases: CorpusRequest[] = [];
  for (const era of [MODERN, LEGACY]) {
    // A 2026-07-28 body carries the envelope, so that what is odd is only what the case says.
    const p = (params: Params = {}) =>
      era === MODERN ? { ...params, _meta: { ...ENVELOPE, ...(params._meta as Params) } } : params;
    const list = rpc({ method: 'tools/list', params: p() });
    const echo = (args: Params) =>
      rpc({
        method: 'tools/call',
        params: p({ name: 'echo', arguments: { message: 'x', ...args } }),
      });
    const bodies: Array<[string, string]> = [
      ['malformed JSON', '{"jsonrpc": "2.0", '],
      ['empty body', ''],
      ['JSON null', 'null'],
      ['a number', '42'],
      ['a string', '"tools/list"'],
      ['an empty object', '{}'],
      ['no jsonrpc', JSON.stringify({ id: 1, method: 'tools/list', params: p() })],
      ['jsonrpc 1.0', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list', params: p() })],
      ['method not a string', rpc({ method: 7, params: p() })],
      ['params an array', rpc({ method: 'tools/list', params: [] })],
      ['params a string', rpc({ method: 'tools/list', params: 'all' })],
      ['params null', rpc({ method: 'tools/list', params: null })],
      ['no params', rpc({ method: 'tools/list' })],
      ['an extra top-level key', rpc({ method: 'tools/list', params: p(), extra: 1 })],
      ['an empty batch', '[]'],
      ['a batch of two', `[${list},${list.replace('"id":1', '"id":2')}]`],
      ['a response', JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })],
      [
        'an error response',
        JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }),
      ],
      [
        'duplicate keys',
        list.replace('"method":"tools/list"', '"method":"tools/call","method":"tools/list"'),
      ],
      ['a __proto__ key', list.replace('"params":{', '"params":{"__proto__":{"x":1},')],
      ['a constructor key', echo({ constructor: { prototype: 1 } })],
      ['too deep', echo({ deep: '$' }).replace('"$"', deep(200))],
      ['deep but allowed', echo({ deep: '$' }).replace('"$"', deep(40))],
      ['oversized', echo({ message: 'x'.repeat(70 * 1024) })],
      ['just under the limit', echo({ message: 'x'.repeat(60 * 1024) })],
      ['a BOM', `\uFEFF${list}`],
      ['whitespace around', `\n\t ${list} \n`],
      ['unicode escapes', echo({ message: '\u00fc\ud83d\ude00' })],
      ['a lone surrogate', echo({}).replace('"message":"x"', '"message":"\\ud800"')],
    ];
    for (const [what, body] of bodies) {
      // The standard headers name what the body asks for (a tools/call of echo, else tools/list).
      const [method, params] = body.includes('"name":"echo"')
        ? ['tools/call', { name: 'echo' }]
        : ['tools/list', {}];
      const req =
        era === MODERN ? modern(method, params, { body }) : legacy(method, params, { body });
      cases.push({ ...req, name: `${era} body: ${what}` });
    }
  }
  // A compressed body, an encoding nobody can read, and a query string on the URL.
  const list = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: { _meta: ENVELOPE },
  });
  const gzip = { 'content-encoding': 'gzip' };
  cases.push(
    {
      ...modern('tools/list', {}, { headers: gzip }),
      body: gzipSync(list),
      name: `${MODERN} gzip body`,
    },
    {
      ...modern('tools/list', {}, { headers: { 'content-encoding': 'br' } }),
      name: `${MODERN} br header, plain body`,
    },
    {
      ...legacy('tools/list', {}, { headers: gzip }),
      body: gzipSync(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
      name: `${LEGACY} gzip body`,
    },
    {
      ...modern('tools/call', { name: 'inspect', arguments: {} }),
      query: '?debug=1&x=%C3%BC',
      name: `${MODERN} inspect ?debug=1`,
    },
    {
      ...legacy('tools/call', { name: 'inspect', arguments: {} }),
      query: '?debug=1',
      name: `${LEGACY} inspect ?debug=1`,
    },
    { ...modern('tools/list'), query: '?', name: `${MODERN} tools/list ?` },
  );
  // Batches exist up to 2025-03-26 (a missing MCP-Protocol-Version means that revision).
  const batch = JSON.stringify([
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 1 } },
    },
  ]);
  cases.push(
    {
      ...legacy('tools/list', {}, { body: batch, version: '2025-03-26' }),
      name: '2025-03-26 body: a batch',
    },
    {
      ...legacy('tools/list', {}, { body: batch, headers: { 'mcp-protocol-version': null } }),
      name: 'no version header, body: a batch',
    },
  );
  return cases;
}

const initializeParams = (version: string) => ({
  protocolVersion: version,
  capabilities: {},
  clientInfo: { name: 'differential', version: '1' },
});

/** What only the SDK serves: handshakes, notifications, streams, other verbs. */
export function sdkOnlyCases(): CorpusRequest[] {
  return [
    legacy('initialize', initializeParams(LEGACY)),
    legacy('initialize', initializeParams('2025-03-26'), {
      headers: { 'mcp-protocol-version': null },
    }),
    legacy('initialize', initializeParams('2025-06-18'), { version: '2025-06-18' }),
    legacy('initialize', initializeParams('1999-01-01'), {
      headers: { 'mcp-protocol-version': null },
    }),
    legacy('initialize', {}),
    modern('initialize', initializeParams(MODERN)),
    legacy('notifications/initialized', undefined, { id: 'none' }),
    legacy('notifications/cancelled', { requestId: 1 }, { id: 'none' }),
    modern('notifications/cancelled', { requestId: 1 }, { id: 'none' }),
    modern('notifications/initialized', {}, { id: 'none' }),
    modern('tools/list', {}, { id: 'none' }),
    legacy('tools/call', CALL_ADD, { id: 'none' }),
    modern('subscriptions/listen', { notifications: { toolsListChanged: true } }, { stream: true }),
    modern('subscriptions/listen', { notifications: 'all' }, { stream: true }),
    legacy(
      'tools/list',
      {},
      { verb: 'GET', headers: { accept: 'text/event-stream' }, stream: true },
    ),
    modern(
      'tools/list',
      {},
      { verb: 'GET', headers: { accept: 'text/event-stream' }, stream: true },
    ),
    legacy('tools/list', {}, { verb: 'DELETE' }),
    modern('tools/list', {}, { verb: 'PUT' }),
    modern('tools/list', {}, { verb: 'OPTIONS', headers: { origin: 'http://localhost:5173' } }),
    modern('tools/list', {}, { verb: 'HEAD' }),
    modern('tools/call', CALL_ADD, { headers: { host: 'evil.example.com' } }),
  ];
}

/** The OAuth server: 401 and 403 challenges (WWW-Authenticate) or a verified caller. */
export function oauthCases(): CorpusRequest[] {
  const tokens: Headers[] = [
    {},
    { authorization: 'Bearer bad' },
    { authorization: 'Bearer good' },
    { authorization: 'Bearer good-catalog.read' },
    { authorization: 'Basic dXNlcjpwYXNz' },
  ];
  const cases: CorpusRequest[] = [];
  for (const headers of tokens) {
    for (const [method, params] of [
      ['tools/list', {}],
      ['tools/call', { name: 'read_catalog', arguments: {} }],
      ['tools/call', { name: 'hello', arguments: {} }],
      ['server/discover', {}],
    ] as Array<[string, Params]>) {
      cases.push(modern(method, params, { headers, server: 'oauth' }));
      cases.push(legacy(method, params, { headers, server: 'oauth' }));
    }
  }
  return cases;
}

/**
 * The server that keeps 2025 sessions (`http.legacySessions`): 2025 requests without a
 * session are refused there, and those in a session are the SDK's; 2026-07-28 requests are
 * stateless on it as anywhere.
 */
export function sessionCases(): CorpusRequest[] {
  const server = 'sessions';
  const operations: Array<[string, Params]> = [
    ['tools/list', {}],
    ['tools/call', CALL_ADD],
    ['tools/call', { name: 'add', arguments: { a: -1, b: 0 } }],
    ['tools/call', { name: 'era', arguments: {} }],
    ['tools/call', { name: 'nope', arguments: {} }],
    ['prompts/list', {}],
    ['prompts/get', { name: 'hello' }],
    ['resources/list', {}],
    ['resources/read', { uri: 'sessions://notes' }],
    ['resources/read', { uri: 'sessions://none' }],
    ['server/discover', {}],
    ['ping', {}],
  ];
  const cases: CorpusRequest[] = [];
  for (const [method, params] of operations) {
    cases.push(
      modern(method, params, { server }),
      legacy(method, params, { server }),
      legacy(method, params, { server, session: true }),
      legacy(method, params, { server, headers: { 'mcp-session-id': 'no-such-session' } }),
    );
  }
  const init = {
    protocolVersion: LEGACY,
    capabilities: {},
    clientInfo: { name: 'd', version: '1' },
  };
  cases.push(
    legacy('initialize', init, { server }),
    legacy('tools/call', CALL_ADD, { server, session: true, id: 'none' }),
    legacy('notifications/initialized', undefined, { server, id: 'none' }),
    legacy('logging/setLevel', { level: 'debug' }, { server, session: true }),
    legacy('tools/list', {}, { server, session: true, headers: { authorization: 'Bearer other' } }),
    legacy('tools/list', {}, { server, session: true, verb: 'DELETE' }),
  );
  return cases;
}

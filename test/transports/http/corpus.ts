import type { CorpusRequest } from './compare.js';
import {
  cursor,
  legacy,
  LEGACY,
  modern,
  MODERN,
  type Headers,
  type Params,
} from './corpus-requests.js';
import {
  bodyCases,
  CALL_ADD,
  envelopeCases,
  idCases,
  oauthCases,
  sdkOnlyCases,
  sessionCases,
} from './corpus-edges.js';
import { plainCases } from './corpus-plain.js';

// The corpus of the differential test: requests the lean path claims (the lists,
// tools/call, prompts/get, resources/read, server/discover, on both wires) and requests it
// must leave to the SDK (initialize, ping, completion, logging, tasks, subscriptions,
// notifications, sessions, batches), valid and invalid, with the callers the guards accept
// and refuse. Each is sent as raw bytes, so that odd headers and bodies stay odd.

/** Who calls: the endpoint guard refuses `banned`; the admin guard passes `admin` only. */
const CALLERS: Record<string, Headers> = {
  anonymous: {},
  reader: { authorization: 'Bearer reader' },
  admin: { authorization: 'Bearer admin', 'x-scopes': 'notes.write' },
  intruder: { authorization: 'Bearer intruder' },
  banned: { authorization: 'Bearer banned' },
};

/** The operations of both eras, each valid or invalid in a way the oracle decides. */
const OPERATIONS: Array<[string, Params]> = [
  ['tools/list', {}],
  ['tools/list', { cursor: cursor('d') }],
  ['tools/list', { cursor: cursor('purge') }],
  ['tools/list', { cursor: cursor('zzz') }],
  ['tools/list', { cursor: 'not-a-cursor' }],
  ['tools/list', { cursor: 42 }],
  ['tools/call', { name: 'add', arguments: { a: 1, b: 2 } }],
  ['tools/call', { name: 'add', arguments: { a: 1, b: 5000 } }],
  ['tools/call', { name: 'add', arguments: { a: '1', b: 2 } }],
  ['tools/call', { name: 'add', arguments: {} }],
  ['tools/call', { name: 'add' }],
  ['tools/call', { name: 'add', arguments: { a: 1, b: 2, extra: true } }],
  ['tools/call', { name: 'add', arguments: 'a=1' }],
  ['tools/call', { name: 'echo', arguments: { message: 'hi' } }],
  ['tools/call', { name: 'echo', arguments: { message: 'hi', note: { text: 'short' } } }],
  ['tools/call', { name: 'echo', arguments: { message: 'hi', note: { text: '' } } }],
  ['tools/call', { name: 'echo', arguments: { message: 'ü€😀\u0000' } }],
  ['tools/call', { name: 'describe_item', arguments: { id: 4 } }],
  ['tools/call', { name: 'describe_item', arguments: { id: 500 } }],
  ['tools/call', { name: 'describe_item', arguments: { id: 0 } }],
  ['tools/call', { name: 'tags', arguments: {} }],
  ['tools/call', { name: 'broken_output', arguments: {} }],
  ['tools/call', { name: 'nothing', arguments: {} }],
  ['tools/call', { name: 'blocks', arguments: {} }],
  ['tools/call', { name: 'explode', arguments: {} }],
  ['tools/call', { name: 'refuse', arguments: {} }],
  ['tools/call', { name: 'forbidden', arguments: {} }],
  ['tools/call', { name: 'purge', arguments: {} }],
  ['tools/call', { name: 'write_note', arguments: {} }],
  ['tools/call', { name: 'progress', arguments: {} }],
  ['tools/call', { name: 'sign_in', arguments: {} }],
  ['tools/call', { name: 'gone', arguments: {} }],
  ['tools/call', { name: 'inspect', arguments: {} }],
  ['tools/call', { name: 'limited', arguments: {} }],
  ['tools/call', { name: 'wrapped', arguments: {} }],
  ['tools/call', { name: 'nope', arguments: {} }],
  ['tools/call', { arguments: {} }],
  ['tools/call', { name: 42 }],
  ['prompts/list', {}],
  ['prompts/list', { cursor: cursor('c') }],
  ['prompts/list', { cursor: 'bogus' }],
  ['prompts/get', { name: 'summarize', arguments: { category: 'books' } }],
  ['prompts/get', { name: 'summarize', arguments: { category: 'books', topic: 'maps' } }],
  ['prompts/get', { name: 'summarize', arguments: { category: 'cars' } }],
  ['prompts/get', { name: 'summarize', arguments: {} }],
  ['prompts/get', { name: 'summarize', arguments: { category: 3 } }],
  ['prompts/get', { name: 'greeting' }],
  ['prompts/get', { name: 'briefing' }],
  ['prompts/get', { name: 'broken_prompt' }],
  ['prompts/get', { name: 'nope' }],
  ['prompts/get', {}],
  ['resources/list', {}],
  ['resources/list', { cursor: cursor('diff://c') }],
  ['resources/list', { cursor: '%%%' }],
  ['resources/templates/list', {}],
  ['resources/read', { uri: 'diff://readme' }],
  ['resources/read', { uri: 'diff://config' }],
  ['resources/read', { uri: 'diff://blob' }],
  ['resources/read', { uri: 'diff://secret' }],
  ['resources/read', { uri: 'diff://failing' }],
  ['resources/read', { uri: 'diff://items/7' }],
  ['resources/read', { uri: 'diff://items/700' }],
  ['resources/read', { uri: 'diff://items/abc' }],
  ['resources/read', { uri: 'diff://nowhere' }],
  ['resources/read', { uri: 'not a uri' }],
  ['resources/read', {}],
  ['server/discover', {}],
  ['ping', {}],
  [
    'completion/complete',
    { ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'topic', value: 'h' } },
  ],
  [
    'completion/complete',
    { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } },
  ],
  ['logging/setLevel', { level: 'debug' }],
  ['tasks/get', { taskId: 'no-such-task' }],
  ['tasks/list', {}],
  ['tasks/cancel', { taskId: 'no-such-task' }],
  ['resources/subscribe', { uri: 'diff://readme' }],
  ['no/such/method', {}],
];

/** Header changes on a 2026-07-28 request that the SDK checks (SEP-2243 and transport). */
const MODERN_HEADER_CASES: Headers[] = [
  { 'mcp-method': 'tools/list' },
  { 'mcp-method': null },
  { 'mcp-name': 'other' },
  { 'mcp-name': null },
  { 'mcp-name': 'ADD' },
  { 'mcp-protocol-version': null },
  { 'mcp-protocol-version': '2030-01-01' },
  { 'mcp-protocol-version': LEGACY },
  { accept: 'application/json' },
  { accept: 'text/event-stream' },
  { accept: '*/*' },
  { accept: null },
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/json; charset=utf-8' },
  { 'content-type': 'Application/JSON' },
  { 'content-type': 'application/jsonx' },
  { 'content-type': 'application/json-seq' },
  { 'content-type': null },
  { 'mcp-session-id': 'no-such-session' },
  { 'mcp-method': 'TOOLS/CALL' },
  { accept: 'application/jsonx, text/event-streamy' },
  { accept: 'text/event-stream;q=0.1, application/json' },
  { 'accept-language': 'de' },
  { 'accept-language': 'de-CH, fr;q=0.5' },
  { 'accept-language': 'fr' },
  { 'accept-language': '*' },
  { 'accept-language': 'de;q=0, en' },
  { 'accept-language': 'DE' },
  { origin: 'http://evil.example.com' },
  { origin: 'http://localhost:5173' },
];

/** Header changes on a stateless 2025 request. */
const LEGACY_HEADER_CASES: Headers[] = [
  { 'mcp-protocol-version': null },
  { 'mcp-protocol-version': '2025-06-18' },
  { 'mcp-protocol-version': '2025-03-26' },
  { 'mcp-protocol-version': '1999-01-01' },
  { 'mcp-protocol-version': '2024-11-05' },
  { 'mcp-protocol-version': '2024-10-07' },
  { 'mcp-protocol-version': '2026-07-28' },
  { accept: 'application/json' },
  { accept: 'text/event-stream' },
  { accept: 'text/event-stream, application/json' },
  { accept: 'application/json,text/event-stream' },
  { accept: 'application/jsonx, text/event-streamy' },
  { accept: '*/*' },
  { accept: null },
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/json; charset=latin1' },
  { 'content-type': 'application/jsonx' },
  { 'mcp-session-id': 'no-such-session' },
  { 'accept-language': 'de' },
  { 'mcp-method': 'tools/call' },
];

const READ = { uri: 'diff://readme' };
const GET_PROMPT = { name: 'summarize', arguments: { category: 'bikes' } };
const HEADER_TARGETS: Array<[string, Params]> = [
  ['tools/call', CALL_ADD],
  ['tools/list', {}],
  ['resources/read', READ],
  ['prompts/get', GET_PROMPT],
  ['server/discover', {}],
];

/** The whole corpus. */
export function buildCorpus(): CorpusRequest[] {
  const corpus: CorpusRequest[] = [];
  for (const [method, params] of OPERATIONS) {
    corpus.push(modern(method, params), legacy(method, params));
    corpus.push(modern(method, params, { headers: CALLERS.admin }));
  }
  // Every caller on the operations whose answers depend on the caller.
  for (const headers of Object.values(CALLERS)) {
    for (const [method, params] of [
      ['tools/list', {}],
      ['tools/list', { cursor: cursor('nothing') }],
      ['tools/call', { name: 'purge', arguments: {} }],
      ['tools/call', { name: 'write_note', arguments: {} }],
      ['prompts/list', {}],
      ['prompts/get', { name: 'briefing' }],
      ['resources/list', {}],
      ['resources/read', { uri: 'diff://secret' }],
    ] as Array<[string, Params]>) {
      corpus.push(modern(method, params, { headers }), legacy(method, params, { headers }));
    }
    corpus.push(modern('tools/call', CALL_ADD, { headers: { ...headers, 'x-scopes': 'other' } }));
    // What a tool sees of its call (context, the web request, the platform request).
    const inspect = { name: 'inspect', arguments: {} };
    const traced = { ...headers, 'x-trace': 'abc' };
    corpus.push(
      modern('tools/call', inspect, { headers: traced }),
      legacy('tools/call', inspect, { headers: traced }),
      modern('tools/call', inspect, {
        headers: traced,
        meta: {
          'x.example/trace': 't',
          'io.modelcontextprotocol/clientCapabilities': { roots: {}, elicitation: {} },
        },
      }),
      legacy('tools/call', { ...inspect, _meta: { 'x.example/trace': 't' } }, { headers: traced }),
    );
  }
  for (const [method, params] of HEADER_TARGETS) {
    // SEP-2243 lets a client send `Mcp-Name` base64-encoded (`=?base64?...?=`).
    const name = params.name ?? params.uri;
    if (typeof name === 'string') {
      const encoded = `=?base64?${Buffer.from(name).toString('base64')}?=`;
      corpus.push(modern(method, params, { headers: { 'mcp-name': encoded } }));
    }
    // A 2025 request whose body claims 2026-07-28, and one with a `_meta` that is no object.
    corpus.push(
      legacy(method, { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } }),
      legacy(method, { ...params, _meta: 'x' }),
      modern(method, { ...params, _meta: 'x' }, { meta: null }),
    );
    for (const headers of MODERN_HEADER_CASES) corpus.push(modern(method, params, { headers }));
    for (const headers of LEGACY_HEADER_CASES) corpus.push(legacy(method, params, { headers }));
  }
  corpus.push(
    ...envelopeCases(),
    ...idCases(),
    ...bodyCases(),
    ...sdkOnlyCases(),
    ...oauthCases(),
    ...sessionCases(),
    ...plainCases(),
  );
  return corpus;
}

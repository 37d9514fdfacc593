import type { CorpusRequest } from './compare.js';
import { cursor, legacy, modern, type Headers, type Params } from './corpus-requests.js';

// The server without guards or sessions (fixture-servers.ts, PlainTools): its lists are the
// same for every caller, so the lean path may answer them from text it keeps per era,
// locale and method. Each list is asked twice in a row (the second answer may come from
// that text) and in every language and capability set that could change it.

const server = 'plain';
const TASKS = {
  'io.modelcontextprotocol/clientCapabilities': {
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};
const LANGUAGES: Headers[] = [
  {},
  { 'accept-language': 'de' },
  { 'accept-language': 'fr, de;q=0.1' },
];

const LISTS: Array<[string, Params]> = [
  ['tools/list', {}],
  ['tools/list', { cursor: cursor('export_all') }],
  ['prompts/list', {}],
  ['resources/list', {}],
  ['resources/templates/list', {}],
];

/** The lists, asked twice, in every language, on both wires, with and without tasks. */
export function listCases(ids: unknown[] = [1, 'second']): CorpusRequest[] {
  const cases: CorpusRequest[] = [];
  for (const headers of LANGUAGES) {
    for (const [method, params] of LISTS) {
      for (const id of ids) {
        cases.push(
          modern(method, params, { server, headers, id }),
          legacy(method, params, { server, headers, id }),
        );
      }
      // Lists answered per 2025 revision (a kept list must not serve another revision).
      for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) {
        cases.push(legacy(method, params, { server, headers, version }));
      }
      cases.push(modern(method, params, { server, headers, meta: TASKS }));
      cases.push(modern(method, params, { server, headers, meta: { progressToken: 'p' } }));
    }
  }
  return cases;
}

/** The rest of what the server answers. */
export function plainCases(): CorpusRequest[] {
  const cases = listCases();
  const calls: Params[] = [
    { name: 'add', arguments: { a: 20, b: 22 } },
    { name: 'add', arguments: { a: 20 } },
    { name: 'whoami', arguments: {} },
    // Task tools: 'optional' runs inline unless the client asks for a task (2025:
    // `params.task`), 'required' is refused to a client that cannot take one.
    { name: 'report', arguments: {} },
    { name: 'export_all', arguments: {} },
    { name: 'report', arguments: {}, task: { ttl: 1000 } },
    { name: 'export_all', arguments: {}, task: { ttl: 1000 } },
    { name: 'spare', arguments: {} },
  ];
  for (const headers of LANGUAGES.slice(0, 2)) {
    for (const params of calls) {
      cases.push(
        modern('tools/call', params, { server, headers }),
        legacy('tools/call', params, { server, headers }),
      );
    }
    // 2026-07-28 clients ask for tasks with the extension in their capabilities.
    for (const name of ['report', 'export_all']) {
      cases.push(modern('tools/call', { name, arguments: {} }, { server, headers, meta: TASKS }));
    }
    for (const [method, params] of [
      ['prompts/get', { name: 'greeting' }],
      ['resources/read', { uri: 'plain://readme' }],
      ['resources/read', { uri: 'plain://items/3' }],
      ['server/discover', {}],
    ] as Array<[string, Params]>) {
      cases.push(
        modern(method, params, { server, headers }),
        legacy(method, params, { server, headers }),
      );
    }
  }
  return cases;
}

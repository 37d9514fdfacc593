import type { CorpusServer } from './compare.js';
import { cursor, LEGACY, MODERN, type Params } from './corpus-requests.js';
import type { Random } from './corpus-generator.random.js';

// The params of the generated requests (corpus-generator.ts): for each method, what the
// differential app's servers (fixture.ts, fixture-servers.ts) accept, and the near misses
// of it that the lean path must refuse as the SDK does (wrong types, missing and extra
// fields, arguments that break the DTOs of fixture.dto.ts, unknown names).

/** Strings that trip parsers and comparisons: empty, unicode, controls, long. */
const ODD_STRINGS = [
  '',
  ' ',
  'ü',
  '😀',
  'e\u0301',
  '\u0000',
  '\ud800',
  'a"b\\c',
  '<script>',
  'x'.repeat(300),
];

/** A string, mostly plain, sometimes odd. */
export function text(random: Random): string {
  return random.chance(0.7)
    ? random.pick(['hi', 'hello world', 'Grüße', '你好', 'emoji 😀', 'tab\there', 'line\nbreak'])
    : random.pick(ODD_STRINGS);
}

/** Any JSON value, nested at most `depth` deep. */
export function junk(random: Random, depth = 2): unknown {
  const kind = random.int(depth > 0 ? 8 : 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick([0, -1, 1.5, 1e21, 2 ** 53 + 2, -0.0001, 7]);
    case 3:
    case 4:
      return text(random);
    case 5:
      return random.int(1000);
    case 6:
      return Array.from({ length: random.int(3) }, () => junk(random, depth - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: random.int(3) }, () => [
          random.pick(['a', 'b', 'x', '__proto__', 'constructor', 'ü']),
          junk(random, depth - 1),
        ]),
      );
  }
}

/** A value of the wrong type for a string field. */
const notAString = (random: Random) =>
  random.pick([42, 0, null, true, {}, ['add'], { name: 'add' }, 1.5]);

type Args = (random: Random) => unknown;

/** `AddArgs`: two whole numbers in [0, 1000]. */
const addArgs: Args = (random) =>
  random.weighted<() => unknown>([
    [5, () => ({ a: random.int(1001), b: random.int(1001) })],
    [1, () => ({ a: random.pick([-1, 1001, 5000, 1.5, 2 ** 53 + 2]), b: 1 })],
    [1, () => ({ a: random.pick(['1', null, true, [1], { n: 1 }]), b: 2 })],
    [1, () => random.pick([{}, { a: 1 }, { b: 1 }])],
    [1, () => ({ a: 1, b: 2, [random.pick(['extra', 'c', '__proto__'])]: junk(random) })],
  ])();

/** `EchoArgs`: a message, and a note of 1 to 20 characters. */
const echoArgs: Args = (random) =>
  random.weighted<() => unknown>([
    [4, () => ({ message: text(random) })],
    [
      2,
      () => ({
        message: text(random),
        note: { text: random.pick(['ok', '', 'x'.repeat(21), 'ü'.repeat(20)]) },
      }),
    ],
    [1, () => ({ message: text(random), note: random.pick([null, 'note', [], { text: 5 }]) })],
    [1, () => ({ message: notAString(random) })],
    [1, () => ({})],
  ])();

/** `ItemArgs`: a whole id of at least 1 (above 100: not found). */
const itemArgs: Args = (random) =>
  random.chance(0.7)
    ? { id: random.pick([1, 4, 7, 100, 101, 500]) }
    : { id: random.pick([0, -3, 2.5, '4', null, 2 ** 53 + 2]) };

const noArgs: Args = (random) =>
  random.weighted<() => unknown>([
    [6, () => ({})],
    [1, () => ({ [random.pick(['extra', 'x'])]: junk(random) })],
  ])();

/** The main server's tools that take no arguments (fixture.ts). */
const NO_ARGS_TOOLS = (
  'tags broken_output nothing blocks explode refuse sign_in gone forbidden purge write_note ' +
  'progress announce confirm inspect limited wrapped'
).split(' ');

/** The tools of each server, with what their arguments look like. */
const TOOLS: Record<CorpusServer, Record<string, Args>> = {
  main: {
    add: addArgs,
    plus: addArgs,
    echo: echoArgs,
    describe_item: itemArgs,
    ...Object.fromEntries(NO_ARGS_TOOLS.map((name) => [name, noArgs])),
  },
  plain: {
    add: addArgs,
    sum: addArgs,
    whoami: noArgs,
    report: noArgs,
    export_all: noArgs,
    spare: noArgs,
  },
  oauth: { read_catalog: noArgs, hello: noArgs },
  sessions: { add: addArgs, era: noArgs },
};

/** Names no server has, or has in another spelling. */
const UNKNOWN_NAMES = [
  'nope',
  'ADD',
  'add ',
  ' add',
  'Add',
  '',
  'über',
  '😀',
  'a'.repeat(200),
  'add\u0000',
  'tools/call',
];

/** Prompt arguments are strings: `SummarizeArgs` takes a category of three. */
const summarizeArgs: Args = (random) =>
  random.weighted<() => unknown>([
    [4, () => ({ category: random.pick(['books', 'bikes', 'games']) })],
    [2, () => ({ category: 'books', topic: random.pick(['maps', 'ü', '']) })],
    [1, () => ({ category: random.pick(['cars', 'BOOKS', '', 3, null]) })],
    [1, () => ({ category: 'bikes', topic: random.pick([3, null, ['x']]) })],
    [1, () => random.pick([{}, { topic: 'maps' }, { category: 'games', extra: 'x' }])],
  ])();

const PROMPTS: Record<CorpusServer, Record<string, Args>> = {
  main: { summarize: summarizeArgs, greeting: noArgs, briefing: noArgs, broken_prompt: noArgs },
  plain: { brief: noArgs, greeting: noArgs },
  oauth: {},
  sessions: { hello: noArgs },
};

const ITEM_IDS = [
  '1',
  '7',
  '100',
  '101',
  '700',
  '0',
  '-1',
  '1.5',
  'abc',
  '',
  '%20',
  '1e3',
  '007',
  'ü',
];

const RESOURCES: Record<CorpusServer, string[]> = {
  main: ['diff://readme', 'diff://config', 'diff://blob', 'diff://secret', 'diff://failing'],
  plain: ['plain://readme', 'plain://spare'],
  oauth: [],
  sessions: ['sessions://notes'],
};
const TEMPLATES: Partial<Record<CorpusServer, string>> = {
  main: 'diff://items/',
  plain: 'plain://items/',
};
const UNKNOWN_URIS = [
  'diff://nowhere',
  'not a uri',
  '',
  'DIFF://readme',
  'diff://readme/',
  'diff://readme?x=1',
  'diff://readme#top',
  'diff://ü',
  'plain://readme',
  'https://example.com/',
];

/** A name the server knows (most of the time), an unknown one, or none of the right type. */
function nameOf(random: Random, known: string[]): unknown {
  return random.weighted<() => unknown>([
    [known.length ? 8 : 0, () => random.pick(known)],
    [1, () => random.pick(UNKNOWN_NAMES)],
    [0.5, () => notAString(random)],
  ])();
}

/** Adds a field or two the method does not define (ignored by the schema, or not). */
function withExtras(random: Random, params: Params): Params {
  if (!random.chance(0.1)) return params;
  return {
    ...params,
    [random.pick(['extra', 'x-custom', 'cursor', 'name', 'arguments'])]: junk(random),
  };
}

/**
 * What turns a call into more than one exchange: a task (2025 `params.task`), the answers
 * to an input request and the state of the round (2026-07-28 multi round-trip requests).
 */
function callExtras(random: Random): Params {
  return random.weighted<() => Params>([
    [20, () => ({})],
    [1, () => ({ task: random.pick([{ ttl: 1000 }, {}, { ttl: 'soon' }, true]) })],
    [
      1,
      () => ({
        inputResponses: random.pick([
          { confirm: { action: 'accept', content: { ok: random.chance(0.5) } } },
          { confirm: { action: 'decline' } },
          { stray: { action: 'cancel' } },
          'yes',
        ]),
      }),
    ],
    [0.5, () => ({ requestState: random.pick(['forged', '', 7]) })],
  ])();
}

/** The `arguments` of a call or prompt: its own shape mostly, else missing or no object. */
function argumentsOf(random: Random, args: Args | undefined): Params {
  return random.weighted<() => Params>([
    [8, () => ({ arguments: (args ?? noArgs)(random) })],
    [1, () => ({})],
    [1, () => ({ arguments: random.pick(['a=1', 7, null, [1, 2], true]) })],
  ])();
}

const cursorKeys: Record<string, string[]> = {
  'tools/list': ['d', 'purge', 'export_all', 'add', 'zzz', ''],
  'prompts/list': ['c', 'greeting', 'zzz'],
  'resources/list': ['diff://c', 'plain://readme', 'zzz'],
  'resources/templates/list': ['diff://items/{id}', 'a'],
};

/** The params of a list: none, a cursor the server issues, or a bogus one. */
function listParams(random: Random, method: string): Params | undefined {
  return random.weighted<() => Params | undefined>([
    [5, () => ({})],
    [1, () => undefined],
    [3, () => ({ cursor: cursor(random.pick(cursorKeys[method] ?? ['a'])) })],
    [1, () => ({ cursor: random.pick(['not-a-cursor', '%%%', '', 'ü', 'k:add']) })],
    [1, () => ({ cursor: random.pick([42, null, {}, true]) })],
  ])();
}

const initialize = (random: Random): Params =>
  random.weighted<() => Params>([
    [
      5,
      () => ({
        protocolVersion: random.pick([
          LEGACY,
          '2025-06-18',
          '2025-03-26',
          '2024-11-05',
          MODERN,
          '1999-01-01',
        ]),
        capabilities: random.pick([{}, { roots: { listChanged: true } }, { elicitation: {} }]),
        clientInfo: { name: random.pick(['differential', 'ü client']), version: '1' },
      }),
    ],
    [1, () => ({ protocolVersion: LEGACY, capabilities: {} })],
    [
      1,
      () => ({
        protocolVersion: 20251125,
        capabilities: {},
        clientInfo: { name: 'd', version: '1' },
      }),
    ],
    [1, () => ({ protocolVersion: LEGACY, capabilities: 'all', clientInfo: 'me' })],
    [1, () => ({})],
  ])();

/** The methods the lean path claims, and some it leaves to the SDK, by weight. */
export const METHODS: ReadonlyArray<readonly [number, string]> = [
  [30, 'tools/call'],
  [10, 'tools/list'],
  [10, 'prompts/get'],
  [6, 'prompts/list'],
  [10, 'resources/read'],
  [6, 'resources/list'],
  [4, 'resources/templates/list'],
  [5, 'server/discover'],
  [5, 'ping'],
  [5, 'initialize'],
  ...(
    [
      'completion/complete',
      'logging/setLevel',
      'tasks/get',
      'tasks/list',
      'tasks/cancel',
      'resources/subscribe',
      'notifications/cancelled',
      'notifications/initialized',
      'sampling/createMessage',
      'no/such/method',
      'Tools/List',
      'tools/list/',
    ] as const
  ).map((method) => [0.75, method] as const),
];

/** The params of `method` on `server`: `undefined` sends none. */
export function paramsOf(random: Random, method: string, server: CorpusServer): Params | undefined {
  switch (method) {
    case 'tools/call': {
      const name = nameOf(random, Object.keys(TOOLS[server]));
      const args = typeof name === 'string' ? TOOLS[server][name] : undefined;
      const named = random.chance(0.97) ? { name } : {};
      return withExtras(random, { ...named, ...argumentsOf(random, args), ...callExtras(random) });
    }
    case 'prompts/get': {
      const name = nameOf(random, Object.keys(PROMPTS[server]));
      const args = typeof name === 'string' ? PROMPTS[server][name] : undefined;
      const named = random.chance(0.97) ? { name } : {};
      const withArgs = random.chance(args === noArgs ? 0.3 : 0.9) ? argumentsOf(random, args) : {};
      return withExtras(random, { ...named, ...withArgs });
    }
    case 'resources/read': {
      const template = TEMPLATES[server];
      const uri = random.weighted<() => unknown>([
        [RESOURCES[server].length ? 6 : 0, () => random.pick(RESOURCES[server])],
        [template ? 4 : 0, () => `${template}${random.pick(ITEM_IDS)}`],
        [2, () => random.pick(UNKNOWN_URIS)],
        [0.5, () => notAString(random)],
        [0.5, () => undefined],
      ])();
      return withExtras(random, uri === undefined ? {} : { uri });
    }
    case 'tools/list':
    case 'prompts/list':
    case 'resources/list':
    case 'resources/templates/list': {
      const params = listParams(random, method);
      return params && withExtras(random, params);
    }
    case 'initialize':
      return initialize(random);
    case 'completion/complete':
      return {
        ref: { type: 'ref/prompt', name: random.pick(['summarize', 'nope']) },
        argument: { name: random.pick(['topic', 'category']), value: random.pick(['h', '', 'ü']) },
      };
    case 'logging/setLevel':
      return { level: random.pick(['debug', 'error', 'loud']) };
    case 'tasks/get':
    case 'tasks/cancel':
      return { taskId: random.pick(['no-such-task', '', 42]) };
    case 'resources/subscribe':
      return { uri: random.pick(RESOURCES.main) };
    case 'notifications/cancelled':
      return { requestId: random.pick([1, 'a']) };
    default:
      return random.chance(0.8) ? withExtras(random, {}) : undefined;
  }
}

import type { CorpusRequest, CorpusServer } from './compare.js';
import {
  ENVELOPE,
  legacy,
  LEGACY,
  modern,
  MODERN,
  type Headers,
  type Params,
} from './corpus-requests.js';
import {
  base64,
  CALLERS,
  commonHeaderChange,
  headerSafe,
  LANGUAGES,
  modernHeaderChange,
  respell,
} from './corpus-generator.headers.js';
import { junk, METHODS, paramsOf, text } from './corpus-generator.params.js';
import { Random } from './corpus-generator.random.js';

// The generated corpus of the differential test (differential.generated.e2e-spec.ts):
// random requests, valid and subtly invalid, on both wires, to every server of the app, each
// a pure function of (seed, index) so that a mismatch is reproduced from those two numbers.
// The hand-written corpus (corpus.ts) names the cases someone thought of; this one mixes
// their ingredients (methods, params, _meta, ids, headers, callers, bodies) in combinations
// nobody wrote down, weighted towards what the lean path claims.

/** A JSON-RPC id, as a value, as raw JSON text (`raw`), or `'none'` for a notification. */
function idOf(random: Random): { id: unknown } | { raw: string } {
  return random.weighted<() => { id: unknown } | { raw: string }>([
    [10, () => ({ id: random.int(1000) })],
    [2, () => ({ id: random.pick([0, -1, 2 ** 31, 2 ** 53 - 1, 2 ** 53 + 2, 1.5, -0.25, 1e21]) })],
    [
      1,
      () => ({
        raw: random.pick(['1e400', '-0', '1.0', '123456789012345678901234567890', '1E2', '0.1e1']),
      }),
    ],
    [
      3,
      () => ({
        id: random.chance(0.5) ? random.pick(['abc', '1', ' 1', 'id-ü-😀']) : text(random),
      }),
    ],
    [1, () => ({ id: null })],
    [1, () => ({ id: random.pick([true, false, {}, { a: 1 }, [1], []]) })],
    [1, () => ({ id: 'none' })],
  ])();
}

/** The `_meta` keys a request adds (2026-07-28: to the envelope; 2025: its only `_meta`). */
function metaOf(random: Random, era: 'modern' | 'legacy'): Params | null | undefined {
  return random.weighted<() => Params | null | undefined>([
    [12, () => undefined],
    [2, () => ({ progressToken: random.pick(['p1', 7, 0, 1.5, '', null, {}, true]) })],
    [
      2,
      () => ({
        [random.pick(['x.example/trace', 'io.modelcontextprotocol/unknown', 'foo'])]: junk(
          random,
          1,
        ),
      }),
    ],
    [
      era === 'modern' ? 1 : 0,
      () => ({ 'io.modelcontextprotocol/logLevel': random.pick(['debug', 'error', 'loud', 3]) }),
    ],
    [
      era === 'modern' ? 2 : 0,
      () => ({
        'io.modelcontextprotocol/clientCapabilities': random.pick([
          { extensions: { 'io.modelcontextprotocol/tasks': {} } },
          { elicitation: {} },
          { roots: {}, sampling: {} },
        ]),
      }),
    ],
    [
      era === 'modern' ? 3 : 0,
      () => ({
        [random.pick(Object.keys(ENVELOPE))]: random.pick([
          undefined,
          null,
          'x',
          7,
          LEGACY,
          '2030-01-01',
          {},
          { name: 'd' },
          { extensions: { 'io.modelcontextprotocol/tasks': {} } },
          { elicitation: {}, roots: {} },
        ]),
      }),
    ],
    // No envelope at all on 2026-07-28; on 2025, a `_meta` that claims 2026-07-28.
    [1, () => (era === 'modern' ? null : { 'io.modelcontextprotocol/protocolVersion': MODERN })],
  ])();
}

/** The `_meta` of a well-formed request: the envelope as it is, or a key of the client's. */
const wellFormedMeta = (random: Random): Params | undefined =>
  random.chance(0.2) ? { 'x.example/trace': text(random) } : undefined;

const RAW_ID = '__generated_raw_id__';

/** Changes of the body as a whole: the JSON-RPC frame, `params`, the bytes around it. */
function reshapeBody(random: Random, body: string): string {
  const message = JSON.parse(body) as Params;
  const change = random.int(11);
  switch (change) {
    case 0:
      return JSON.stringify({ ...message, jsonrpc: random.pick([undefined, '1.0', 2, '2.0 ']) });
    case 1:
      return JSON.stringify({
        ...message,
        [random.pick(['extra', 'result', 'error'])]: junk(random, 1),
      });
    case 2:
      return JSON.stringify({ ...message, params: random.pick([[], 'all', null, 7, undefined]) });
    case 3:
      return JSON.stringify({
        ...message,
        method: random.pick([7, null, ['tools/list'], undefined]),
      });
    case 4:
      return `\uFEFF${body}`;
    case 5:
      return `\n\t ${JSON.stringify(message, null, 2)} \n`;
    case 6:
      return body.replace('"method":', '"method":"ping","method":');
    case 7:
      return `[${body}]`;
    case 8:
      return `[${body},${body}]`;
    case 9:
      return body.slice(0, random.int(body.length));
    default:
      return random.pick(['', 'null', '{}', '42', '"x"', '[]']);
  }
}

/** The request number `index` of the corpus generated from `seed`. */
export function generatedRequest(seed: number, index: number): CorpusRequest {
  const random = new Random(seed, index);
  const drawn = random.weighted<CorpusServer>([
    [60, 'main'],
    [25, 'plain'],
    [8, 'oauth'],
    [7, 'sessions'],
  ]);
  const era = random.weighted<'modern' | 'legacy'>([
    [52, 'modern'],
    [48, 'legacy'],
  ]);
  const method = random.weighted(METHODS);
  // The plain server's task list holds the tasks of the requests in flight, which each app
  // may have created or not yet: asked there, it would differ by timing, not by path.
  const server = method === 'tasks/list' && drawn === 'plain' ? 'main' : drawn;
  // Just over half the requests are well-formed but for their params (which may still break
  // a DTO or name nothing): those the lean path serves itself, so that most of what is
  // compared is its own answer; the others are odd in their frame, headers or `_meta` too.
  const wellFormed = random.chance(0.55);
  let params = paramsOf(random, method, server);
  let meta = wellFormed ? wellFormedMeta(random) : metaOf(random, era);
  if (era === 'legacy' && meta && params !== undefined) params = { ...params, _meta: meta };
  if (!wellFormed && era === 'modern' && random.chance(0.03)) {
    // A `_meta` that is no object, in place of the envelope.
    params = { ...params, _meta: random.pick(['x', 7, [], null]) };
    meta = null;
  }
  const idChoice = wellFormed
    ? { id: random.pick([random.int(1000), 'abc', 'id-ü-😀']) }
    : idOf(random);
  const notification = method.startsWith('notifications/');
  const id = notification ? 'none' : 'raw' in idChoice ? RAW_ID : idChoice.id;

  const headers: Headers = { ...(random.chance(0.4) && random.pick(CALLERS[server])) };
  if (wellFormed && random.chance(0.3)) headers['accept-language'] = random.pick(LANGUAGES);
  const changes = wellFormed
    ? 0
    : random.weighted([
        [20, 0],
        [50, 1],
        [30, 2],
      ]);
  for (let n = 0; n < changes; n++) {
    const name = params?.name ?? params?.uri;
    Object.assign(
      headers,
      era === 'modern' && random.chance(0.5)
        ? modernHeaderChange(random, method, name)
        : commonHeaderChange(random, server, era),
    );
  }
  // `modern()` names the target in `Mcp-Name`; a name no header can carry goes base64.
  const name = params?.name ?? params?.uri;
  if (
    era === 'modern' &&
    typeof name === 'string' &&
    !headerSafe(name) &&
    !('mcp-name' in headers)
  ) {
    headers['mcp-name'] = base64(name);
  }
  const session = server === 'sessions' && era === 'legacy' && random.chance(0.3);
  const options = {
    id,
    headers,
    server,
    session,
    // What a tool sends before its answer (progress, logs, its own notifications) must
    // reach the client alike, asked for or not: the 2025 wire logs at every level.
    wantsNotifications: true,
    ...(era === 'modern' && meta !== undefined && { meta }),
  };
  const built =
    era === 'modern' ? modern(method, params, options) : legacy(method, params, options);
  let body = built.body as string;
  if ('raw' in idChoice) body = body.replace(`"${RAW_ID}"`, idChoice.raw);
  if (!wellFormed && random.chance(0.1)) body = reshapeBody(random, body);
  const shown = 'raw' in idChoice ? built.name.replace(RAW_ID, idChoice.raw) : built.name;
  return {
    ...built,
    name: `seed ${seed} #${index}: ${shown}`,
    headers: respell(random, built.headers),
    body,
  };
}

/** The first `count` requests generated from `seed`. */
export function generatedCorpus(seed: number, count: number): CorpusRequest[] {
  return Array.from({ length: count }, (_, index) => generatedRequest(seed, index));
}

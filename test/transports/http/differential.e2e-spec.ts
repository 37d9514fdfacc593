import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectServing } from '../../../lib/protocol/direct-serving.js';
import { LeanPath } from '../../../lib/transports/http/lean-path.js';
import { CapturedLogs } from '../../support/captured-logs.js';
import { ADAPTERS } from '../../support/fixture-app.js';
import type { CorpusRequest } from './compare.js';
import { buildCorpus } from './corpus.js';
import { modern, MODERN } from './corpus-requests.js';
import { listCases } from './corpus-plain.js';
import {
  CATALOG_CHANGES,
  changeCatalog,
  mismatchReport,
  sendToBoth,
  startDifferentialApps,
  type DifferentialApps,
} from './differential-apps.js';

// The SDK as the oracle of the lean path (issue 19): every request of the corpus goes to
// the same app twice, once with `http.leanPath: true` (the default) and once with
// `http.leanPath: false` (every request through the SDK's web-standard entry), and the two
// answers must agree in status, protocol headers and JSON body (compare.ts says what is
// compared). A mismatch prints the request and both answers; with LEAN_PATH_DIFF_REPORT
// set to a file path, the reports are also appended there.

const corpus = buildCorpus();

/**
 * Which methods the lean path answered itself, per era ("modern tools/call"): the
 * comparison means something only for requests it did not hand to the SDK, so the spec
 * checks that it served every method it claims. (Read by wrapping `LeanPath#serve`: the
 * wire shows no difference, which is the point.)
 */
const servedLean = new Set<string>();
/** The same for the fast path (`DirectServing#serve`: no SDK server per request). */
const servedFast = new Set<string>();
const serve = LeanPath.prototype.serve;
const serveDirect = DirectServing.prototype.serve;
beforeAll(() => {
  DirectServing.prototype.serve = function (this: DirectServing, request) {
    const era = request.envelope ? 'modern' : 'legacy';
    servedFast.add(`${era} ${request.message.method}`);
    return serveDirect.call(this, request);
  };
  LeanPath.prototype.serve = async function (this: LeanPath, exchange, body, ...rest) {
    const reply = await serve.call(this, exchange, body, ...rest);
    if (reply) {
      const era = exchange.request.headers['mcp-protocol-version'] === MODERN ? 'modern' : 'legacy';
      servedLean.add(`${era} ${(body as { method: string }).method}`);
    }
    return reply;
  };
});
afterAll(() => {
  LeanPath.prototype.serve = serve;
  DirectServing.prototype.serve = serveDirect;
});

// The fixture fails on purpose (a tool that throws, a broken prompt): what the two apps
// log is not compared, so it is captured (one logger per process) and left unchecked.
const logs = new CapturedLogs();

describe.each(ADAPTERS)('the lean path answers as the SDK does, on %s', (adapter) => {
  let apps: DifferentialApps;

  beforeAll(async () => {
    servedLean.clear();
    servedFast.clear();
    apps = await startDifferentialApps(adapter, logs);
  }, 30_000);

  afterAll(async () => {
    await apps?.close();
  });

  /** Sends one request to both apps: the differences, as a report, or `undefined`. */
  async function compared(req: CorpusRequest): Promise<string | undefined> {
    const answers = await sendToBoth(apps, req);
    return answers.found.length ? mismatchReport(apps, req, answers) : undefined;
  }

  const fail = (texts: string[]) =>
    expect.fail(
      `The lean path and the SDK answer differently on ${adapter}:\n${texts.join('\n\n')}`,
    );

  it('has a corpus of at least 300 requests', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
  });

  it.each(corpus.map((req, index) => ({ req, index })))('#$index $req.name', async ({ req }) => {
    const text = await compared(req);
    if (text) fail([text]);
  });

  // Runs after the corpus, which filled whatever the lean path keeps of the lists.
  it('agrees after the catalog changes at run time', async () => {
    const texts: string[] = [];
    for (const change of CATALOG_CHANGES) {
      changeCatalog(apps, change);
      const after = [
        ...listCases([change]),
        modern('tools/call', { name: 'spare' }, { server: 'plain' }),
      ];
      for (const req of after) {
        const text = await compared({ ...req, name: `after "${change}": ${req.name}` });
        if (text) texts.push(text);
      }
    }
    if (texts.length) fail(texts);
    // Some 400 requests in one test: the default 5 s is too short on a loaded machine.
  }, 60_000);

  it('served every method the lean path claims on the lean path, on both wires', () => {
    const methods = ['tools/call', 'tools/list', 'prompts/list', 'prompts/get'];
    methods.push('resources/list', 'resources/read', 'resources/templates/list');
    expect([...servedLean].toSorted()).toEqual(
      [
        ...[...methods, 'ping'].map((method) => `legacy ${method}`),
        ...[...methods, 'server/discover'].map((method) => `modern ${method}`),
      ].toSorted(),
    );
    // Of them, the fast path (no SDK server) answered all but `server/discover`.
    expect([...servedFast].toSorted()).toEqual(
      [
        ...[...methods, 'ping'].map((method) => `legacy ${method}`),
        ...methods.map((method) => `modern ${method}`),
      ].toSorted(),
    );
  });
});

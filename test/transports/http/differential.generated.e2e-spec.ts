import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturedLogs } from '../../support/captured-logs.js';
import { ADAPTERS } from '../../support/fixture-app.js';
import { MODERN } from './corpus-requests.js';
import { generatedCorpus, generatedRequest } from './corpus-generator.js';
import {
  CATALOG_CHANGES,
  changeCatalog,
  mismatchReport,
  sendToBoth,
  startDifferentialApps,
  type DifferentialApps,
} from './differential-apps.js';

// The SDK as the oracle of the lean path, on requests nobody wrote (issue 28): the
// generator (corpus-generator.ts) makes DIFF_COUNT requests from DIFF_SEED, valid and
// subtly invalid, and each goes to the app with `http.leanPath: true` and with `false`;
// the answers must agree as in the hand-written corpus (differential.e2e-spec.ts,
// compare.ts). The last fifth is sent after the plain server's catalog changed at run time.
// A mismatch prints the seed, the index, the request, both answers and the command that
// sends that request alone again (DIFF_ONLY, a comma-separated list of indices).

/** A whole number of 32 bits, from the environment; anything else stops the run. */
function integer(name: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value >= 2 ** 32) {
    throw new Error(`${name}: "${text}" is not a whole number from 0 to 2^32 - 1`);
  }
  return value;
}

const SEED = integer('DIFF_SEED', process.env.DIFF_SEED ?? '282026');
const COUNT = integer('DIFF_COUNT', process.env.DIFF_COUNT ?? '5000');
/** Only these indices (comma-separated), to send the requests of a report again. */
const ONLY = process.env.DIFF_ONLY?.split(',').map((index) => integer('DIFF_ONLY', index));
/** Requests in flight at once, per platform: the apps never wait for the client, and no request waits long. */
const IN_FLIGHT = 8;
/** From this index on, requests are sent after the catalog changes (CATALOG_CHANGES). */
const CHANGED_FROM = Math.floor(COUNT * 0.8);
/** The full reports a failure shows; the others are listed by index and first difference. */
const SHOWN = 10;

/** What the lean path claims, on each wire: the generator must ask each of them often. */
const CLAIMED = {
  [MODERN]: [
    'tools/call',
    'tools/list',
    'prompts/get',
    'prompts/list',
    'resources/read',
    'resources/list',
    'resources/templates/list',
    'server/discover',
    'ping',
  ],
  legacy: [
    'tools/call',
    'tools/list',
    'prompts/get',
    'prompts/list',
    'resources/read',
    'resources/list',
    'resources/templates/list',
    'ping',
    'initialize',
  ],
};

// The fixture fails on purpose (a tool that throws, a broken prompt): what the two apps
// log is not compared, so it is captured (one logger per process) and left unchecked.
const logs = new CapturedLogs();

/** Runs `task` on each item, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

describe('the generated corpus', () => {
  it(`asks every method the lean path claims, on both wires (seed ${SEED})`, () => {
    const asked = new Map<string, number>();
    for (const req of generatedCorpus(SEED, COUNT)) {
      const wire = req.headers['mcp-protocol-version'] === MODERN ? MODERN : 'legacy';
      const method = /"method":"([^"]*)"/.exec(String(req.body))?.[1];
      asked.set(`${wire} ${method}`, (asked.get(`${wire} ${method}`) ?? 0) + 1);
    }
    const rare = Object.entries(CLAIMED)
      .flatMap(([wire, methods]) => methods.map((method) => `${wire} ${method}`))
      .filter((key) => (asked.get(key) ?? 0) < COUNT / 200);
    expect(rare, 'asked fewer than once in 200 requests').toEqual([]);
  });

  it('is the same for the same seed and index', () => {
    expect(generatedRequest(SEED, 123)).toEqual(generatedRequest(SEED, 123));
    expect(generatedRequest(SEED, 123)).not.toEqual(generatedRequest(SEED + 1, 123));
  });
});

describe.each(ADAPTERS)(
  'the lean path answers generated requests as the SDK does, on %s',
  (adapter) => {
    let apps: DifferentialApps;

    beforeAll(async () => {
      apps = await startDifferentialApps(adapter, logs);
    }, 30_000);

    afterAll(async () => {
      await apps?.close();
    });

    it(`agrees on ${ONLY ? `requests ${ONLY.join(', ')}` : `${COUNT} requests`} of seed ${SEED}`, async () => {
      const indices = ONLY ?? Array.from({ length: COUNT }, (_, index) => index);
      const mismatches: Array<{ index: number; summary: string; text: string }> = [];
      const reproduce = (index: number) =>
        `Reproduce: DIFF_SEED=${SEED} DIFF_COUNT=${COUNT} DIFF_ONLY=${index} npx vitest run ` +
        `test/transports/http/differential.generated.e2e-spec.ts -t ${adapter}` +
        (index >= CHANGED_FROM ? ' (sent after the catalog changes)' : '') +
        '\n';
      const check = async (index: number) => {
        const req = generatedRequest(SEED, index);
        try {
          const answers = await sendToBoth(apps, req);
          if (!answers.found.length) return;
          const text = mismatchReport(apps, req, answers, reproduce(index));
          mismatches.push({ index, summary: answers.found[0], text });
        } catch (error) {
          const text = `${reproduce(index)}### ${req.name}\nNo answer: ${String(error)}\n${JSON.stringify(req, null, 2)}`;
          mismatches.push({ index, summary: `no answer: ${String(error)}`, text });
        }
      };
      await eachLimited(
        indices.filter((index) => index < CHANGED_FROM),
        IN_FLIGHT,
        check,
      );
      for (const change of CATALOG_CHANGES) changeCatalog(apps, change);
      await eachLimited(
        indices.filter((index) => index >= CHANGED_FROM),
        IN_FLIGHT,
        check,
      );
      if (!mismatches.length) return;
      mismatches.sort((a, b) => a.index - b.index);
      expect.fail(
        [
          `The lean path and the SDK answer ${mismatches.length} of ${indices.length} generated requests differently on ${adapter} (seed ${SEED}):`,
          ...mismatches.map(({ index, summary }) => `- #${index}: ${summary}`),
          '',
          ...mismatches.slice(0, SHOWN).map(({ text }) => text),
        ].join('\n'),
      );
      // Thousands of requests in one test: the default 20 s is for one exchange.
    }, 300_000);
  },
);

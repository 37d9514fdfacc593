import { Test } from '@nestjs/testing';
import { McpServers, type McpServerHost } from 'nestjs-mcp';
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeanPath } from '../../../lib/transports/http/lean-path.js';
import { CapturedLogs } from '../../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../../support/fixture-app.js';
import {
  differences,
  openSession,
  report,
  send,
  type Answer,
  type CorpusRequest,
} from './compare.js';
import { buildCorpus } from './corpus.js';
import { modern, MODERN } from './corpus-requests.js';
import { listCases } from './corpus-plain.js';
import { differentialModule, SERVER_PATHS } from './fixture.js';
import { PlainTools } from './fixture-servers.js';

// The SDK as the oracle of the lean path (issue 19): every request of the corpus goes to
// the same app twice, once with `http.leanPath: true` (the default) and once with
// `http.leanPath: false` (every request through the SDK's web-standard entry), and the two
// answers must agree in status, protocol headers and JSON body (compare.ts says what is
// compared). A mismatch prints the request and both answers; with LEAN_PATH_DIFF_REPORT
// set to a file path, the reports are also appended there.

const corpus = buildCorpus();

/**
 * The fields two instances of the app may legitimately answer differently, each made of
 * randomness or the clock of the moment, so replaced by a placeholder in both answers (a
 * field present in one answer only still differs):
 * - the log reference an unexpected error is quoted with ("reference 1a2b3c4d"), random
 *   per error (unexpected-error.reporter.ts);
 * - a task's `taskId` (a random UUID) and its `createdAt` and `lastUpdatedAt` (clock times).
 */
const strip = (value: unknown): unknown =>
  value === undefined
    ? undefined
    : JSON.parse(
        JSON.stringify(value).replace(/\breference [0-9a-f]{8}\b/g, 'reference <ref>'),
        (key, field: unknown) =>
          typeof field === 'string' && ['taskId', 'createdAt', 'lastUpdatedAt'].includes(key)
            ? `<${key}>`
            : field,
      );

function withoutRandomness(answer: Answer): Answer {
  return {
    ...answer,
    message: strip(answer.message),
    notifications: answer.notifications.map(strip),
  };
}

/**
 * Which methods the lean path answered itself, per era ("modern tools/call"): the
 * comparison means something only for requests it did not hand to the SDK, so the spec
 * checks that it served every method it claims. (Read by wrapping `LeanPath#serve`: the
 * wire shows no difference, which is the point.)
 */
const servedLean = new Set<string>();
const serve = LeanPath.prototype.serve;
beforeAll(() => {
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
});

// The fixture fails on purpose (a tool that throws, a broken prompt): what the two apps
// log is not compared, so it is captured (one logger per process) and left unchecked.
const logs = new CapturedLogs();

describe.each(ADAPTERS)('the lean path answers as the SDK does, on %s', (adapter) => {
  let lean: RunningApp;
  let sdk: RunningApp;

  const start = async (leanPath: boolean) => {
    const moduleRef = await Test.createTestingModule({ imports: [differentialModule(leanPath)] })
      .setLogger(logs)
      .compile();
    return startApp(moduleRef, { adapter, logger: logs });
  };

  beforeAll(async () => {
    servedLean.clear();
    [lean, sdk] = await Promise.all([start(true), start(false)]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([lean?.close(), sdk?.close()]);
  });

  /** Sends one request to both apps: the differences, as a report, or `undefined`. */
  async function compared(req: CorpusRequest): Promise<string | undefined> {
    const path = `/${SERVER_PATHS[req.server ?? 'main']}`;
    const target = async (app: RunningApp) => {
      const sent: CorpusRequest = req.session
        ? {
            ...req,
            headers: { 'mcp-session-id': await openSession(app.url.origin, path), ...req.headers },
          }
        : req;
      return send(app.url.origin, path, sent);
    };
    const [leanAnswer, sdkAnswer] = (await Promise.all([target(lean), target(sdk)])).map(
      withoutRandomness,
    );
    const found = differences(req, leanAnswer, sdkAnswer);
    if (!found.length) return undefined;
    const text = report(req, leanAnswer, sdkAnswer, found);
    if (process.env.LEAN_PATH_DIFF_REPORT) {
      appendFileSync(process.env.LEAN_PATH_DIFF_REPORT, `\n${adapter}: ${text}\n`);
    }
    return text;
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
    const changes: Array<[string, (host: McpServerHost, tools: PlainTools) => void]> = [
      ['added', (host, tools) => host.addTool(tools, 'spare', { description: 'A spare tool.' })],
      ['removed', (host) => host.removeTool('add')],
      ['prompt removed', (host) => host.removePrompt('greeting')],
      [
        'resource added',
        (host, tools) => host.addResource(tools, 'spare', { uri: 'plain://spare' }),
      ],
    ];
    const texts: string[] = [];
    for (const [change, apply] of changes) {
      for (const running of [lean, sdk]) {
        apply(running.app.get(McpServers).get('differential-plain'), running.app.get(PlainTools));
      }
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
    methods.push('resources/list', 'resources/read');
    expect([...servedLean].toSorted()).toEqual(
      [
        ...methods.map((method) => `legacy ${method}`),
        ...[...methods, 'server/discover'].map((method) => `modern ${method}`),
      ].toSorted(),
    );
  });
});

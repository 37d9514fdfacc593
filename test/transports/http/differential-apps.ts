import { Test } from '@nestjs/testing';
import { McpServers, type McpServerHost } from 'nestjs-mcp';
import { appendFileSync } from 'node:fs';
import type { CapturedLogs } from '../../support/captured-logs.js';
import { startApp, type HttpAdapterName, type RunningApp } from '../../support/fixture-app.js';
import {
  differences,
  openSession,
  report,
  send,
  type Answer,
  type CorpusRequest,
} from './compare.js';
import { differentialModule, SERVER_PATHS } from './fixture.js';
import { PlainTools } from './fixture-servers.js';

// The two instances of the differential app (fixture.ts) that the differential specs
// compare, and how one request is sent to both: the hand-written corpus
// (differential.e2e-spec.ts) and the generated one (differential.generated.e2e-spec.ts)
// share them, so that both compare the same way.

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

/** The app with the lean path (`http.leanPath: true`) and the one without, on one platform. */
export interface DifferentialApps {
  readonly adapter: HttpAdapterName;
  readonly lean: RunningApp;
  readonly sdk: RunningApp;
  close(): Promise<void>;
}

/**
 * Starts both apps on `adapter`. The fixture fails on purpose (a tool that throws, a broken
 * prompt): what the apps log is not compared, so it goes to `logs` (one logger per process).
 */
export async function startDifferentialApps(
  adapter: HttpAdapterName,
  logs: CapturedLogs,
): Promise<DifferentialApps> {
  const start = async (leanPath: boolean) => {
    const moduleRef = await Test.createTestingModule({ imports: [differentialModule(leanPath)] })
      .setLogger(logs)
      .compile();
    return startApp(moduleRef, { adapter, logger: logs });
  };
  const [lean, sdk] = await Promise.all([start(true), start(false)]);
  return {
    adapter,
    lean,
    sdk,
    close: async () => void (await Promise.all([lean.close(), sdk.close()])),
  };
}

/** Both answers to one request, without their randomness, and where they differ. */
export interface Compared {
  lean: Answer;
  sdk: Answer;
  found: string[];
}

/** Sends one request to both apps at once (each in a session of its own if it asks for one). */
export async function sendToBoth(apps: DifferentialApps, req: CorpusRequest): Promise<Compared> {
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
  const [lean, sdk] = (await Promise.all([target(apps.lean), target(apps.sdk)])).map(
    withoutRandomness,
  );
  return { lean, sdk, found: differences(req, lean, sdk) };
}

/**
 * The report of a mismatch (`compare.ts`), `heading` first; with LEAN_PATH_DIFF_REPORT set
 * to a file path, also appended there.
 */
export function mismatchReport(
  apps: DifferentialApps,
  req: CorpusRequest,
  { lean, sdk, found }: Compared,
  heading = '',
): string {
  const text = `${heading}${report(req, lean, sdk, found)}`;
  if (process.env.LEAN_PATH_DIFF_REPORT) {
    appendFileSync(process.env.LEAN_PATH_DIFF_REPORT, `\n${apps.adapter}: ${text}\n`);
  }
  return text;
}

/** Changes of the plain server's catalog at run time (McpServerHost), by name. */
const CHANGES: Record<string, (host: McpServerHost, tools: PlainTools) => void> = {
  added: (host, tools) => host.addTool(tools, 'spare', { description: 'A spare tool.' }),
  removed: (host) => host.removeTool('add'),
  'prompt removed': (host) => host.removePrompt('greeting'),
  'resource added': (host, tools) => host.addResource(tools, 'spare', { uri: 'plain://spare' }),
};

/** The run-time changes the specs apply, in order (each applies once per app). */
export const CATALOG_CHANGES = Object.keys(CHANGES);

/** Applies one change of {@link CATALOG_CHANGES} to both apps alike. */
export function changeCatalog(apps: DifferentialApps, change: string): void {
  for (const running of [apps.lean, apps.sdk]) {
    CHANGES[change](
      running.app.get(McpServers).get('differential-plain'),
      running.app.get(PlainTools),
    );
  }
}

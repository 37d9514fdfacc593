import type { AuthInfo } from '@modelcontextprotocol/server';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAppModule, MethodRuns } from '../fixtures/caller-identity.fixture.js';
import { freePort } from '../fixtures/oauth.fixture.js';
import { TaskGates, tasksAppModule } from '../fixtures/tasks.fixture.js';
import { captureLogs } from '../support/captured-logs.js';
import {
  ADAPTERS,
  type HttpAdapterName,
  startApp,
  type RunningApp,
} from '../support/fixture-app.js';
import { postModern } from '../support/mcp-post.js';
import {
  connectLegacyTaskClient,
  connectModernTaskClient,
  expectWellFormedWires,
  type LegacyTaskClient,
  type ModernTaskClient,
} from '../support/task-clients.js';

// Issue 31: request state and tasks are bound to the caller that made them (its identity)
// and request state to the tool that minted it; another caller, or another tool, gets the
// answer of a state or a task that does not exist.

// Every app of this file logs here; an error no test expects fails that test.
const logs = captureLogs();

/** A 2026-07-28 client that can answer elicitations. */
const ELICITATION = {
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
const CONFIRMED = { confirm: { action: 'accept', content: { confirm: true } } };

describe.each(ADAPTERS)('request state bound to its caller and its tool (%s)', (adapter) => {
  let running: RunningApp;
  let runs: MethodRuns;

  beforeAll(async () => {
    running = await startApp(apiKeyAppModule(), { adapter, logger: logs });
    runs = running.app.get(MethodRuns);
  });

  afterAll(async () => {
    await running?.close();
  });

  /** One stateless 2026-07-28 round of `name`, as the caller holding `key`. */
  const round = (key: string, name: string, extra: Record<string, unknown> = {}) =>
    postModern(
      running.app,
      '/mcp',
      'tools/call',
      { name, arguments: {}, _meta: ELICITATION, ...extra },
      { 'X-Api-Key': key },
    );

  it('refuses a tool’s state sent to another tool, or by another caller, as a forged one; the rightful round still works', async () => {
    const first = await round('key-ada', 'transfer_funds');
    expect(first.message.result).toMatchObject({ resultType: 'input_required' });
    const { requestState } = first.message.result;
    expect(requestState).toEqual(expect.any(String));
    const forged = await round('key-ada', 'transfer_funds', {
      inputResponses: CONFIRMED,
      requestState: `${requestState.slice(0, -2)}xx`,
    });
    expect(forged.message.error).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
    const transfers = runs.of('transfer_funds');

    // The same caller sends the transfer's state with a call of another tool.
    const otherTool = await round('key-ada', 'delete_account', {
      inputResponses: CONFIRMED,
      requestState,
    });
    expect(otherTool.message.error).toEqual(forged.message.error);
    expect(runs.of('delete_account')).toBe(0);

    // Another caller replays the transfer's state to the transfer.
    const otherCaller = await round('key-bob', 'transfer_funds', {
      inputResponses: CONFIRMED,
      requestState,
    });
    expect(otherCaller.message.error).toEqual(forged.message.error);
    expect(runs.of('transfer_funds')).toBe(transfers);

    const rightful = await round('key-ada', 'transfer_funds', {
      inputResponses: CONFIRMED,
      requestState,
    });
    expect(rightful.message.result.content).toEqual([
      { type: 'text', text: 'Transferred 100 to savings' },
    ]);
  });
});

/** Two authorization servers that both have a user whose subject is "ada". */
const ISSUER_ONE = 'https://login.one.example';
const ISSUER_TWO = 'https://login.two.example';
const TOKENS: Record<string, { iss: string; sub: string }> = {
  'ada-at-one': { iss: ISSUER_ONE, sub: 'ada' },
  'ada-at-two': { iss: ISSUER_TWO, sub: 'ada' },
};

/** The app's `auth.verifyToken`: each token names its issuer and its subject. */
async function verifyToken(token: string): Promise<AuthInfo> {
  const claims = TOKENS[token];
  if (!claims) throw new Error('unknown token');
  return { token, clientId: 'shared-client', scopes: [], extra: { claims } };
}

/** The task app behind `auth`, on a port chosen first so that `auth.resource` names it. */
async function startTasksBehindAuth(adapter: HttpAdapterName): Promise<RunningApp> {
  const port = await freePort();
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const moduleRef = await Test.createTestingModule({
    imports: [
      tasksAppModule({
        auth: { authorizationServers: [ISSUER_ONE, ISSUER_TWO], resource: url.href, verifyToken },
      }),
    ],
  })
    .setLogger(logs)
    .compile();
  const app = moduleRef.createNestApplication(
    adapter === 'fastify' ? new FastifyAdapter() : new ExpressAdapter(),
    { logger: logs },
  );
  await app.listen(port, '127.0.0.1');
  return { app, url, close: () => app.close() };
}

let gateCount = 0;
const newGate = () => `issuer-gate-${++gateCount}`;

/** The "unknown task" error for `taskId`, from an id that never existed. */
const unknownTaskError = async (
  caller: { request: (method: string, params: Record<string, any>) => Promise<any> },
  taskId: string,
) => {
  const { message } = await caller.request('tasks/get', { taskId: 'no-such-task' });
  expect(message.error?.code).toBe(-32602);
  return JSON.parse(JSON.stringify(message.error).replaceAll('no-such-task', taskId));
};

describe.each(ADAPTERS)('a task owned by its issuer and subject (%s)', (adapter) => {
  let running: RunningApp;
  let gates: TaskGates;

  beforeAll(async () => {
    running = await startTasksBehindAuth(adapter);
    gates = running.app.get(TaskGates);
  });

  afterAll(async () => {
    await running?.close();
  });

  describe('2026-07-28', () => {
    let adaOne: ModernTaskClient;
    let adaTwo: ModernTaskClient;

    beforeAll(async () => {
      adaOne = await connectModernTaskClient(running.url, { token: 'ada-at-one' });
      adaTwo = await connectModernTaskClient(running.url, { token: 'ada-at-two' });
    });

    afterEach(async () => {
      await expectWellFormedWires([adaOne, adaTwo]);
    });

    afterAll(async () => {
      await adaOne?.close();
      await adaTwo?.close();
    });

    it('answers the same subject at another issuer as for an unknown task; its owner reads it', async () => {
      const gate = newGate();
      const execution = await adaOne.session.callTool<Record<string, any>>(
        'report',
        { gate },
        { task: { preference: 'require' } },
      );
      if (execution.kind !== 'task') throw new Error('report did not become a task');
      const { taskId } = execution.handle;
      await gates.started(gate);
      const stranger = await adaTwo.request('tasks/get', { taskId });
      expect(stranger.message.error).toEqual(await unknownTaskError(adaTwo, taskId));
      const own = await adaOne.request('tasks/get', { taskId });
      expect(own.message.result).toMatchObject({ taskId, status: 'working' });
      gates.open(gate);
      expect((await execution.settle()).outcome).toMatchObject({ status: 'completed' });
    });
  });

  describe('2025-11-25', () => {
    let adaOne: LegacyTaskClient;
    let adaTwo: LegacyTaskClient;

    beforeAll(async () => {
      adaOne = await connectLegacyTaskClient(running.url, 'ada-at-one');
      adaTwo = await connectLegacyTaskClient(running.url, 'ada-at-two');
    });

    afterEach(async () => {
      await expectWellFormedWires([adaOne, adaTwo]);
    });

    afterAll(async () => {
      await adaOne?.close();
      await adaTwo?.close();
    });

    it('answers the same subject at another issuer as for an unknown task; its owner reads it', async () => {
      const gate = newGate();
      const { task } = await adaOne.client.request(
        { method: 'tools/call', params: { name: 'report', arguments: { gate } } },
        CreateTaskResultSchema,
        { task: {} },
      );
      await gates.started(gate);
      const stranger = await adaTwo.request('tasks/get', { taskId: task.taskId });
      expect(stranger.message.error).toEqual(await unknownTaskError(adaTwo, task.taskId));
      const own = await adaOne.request('tasks/get', { taskId: task.taskId });
      expect(own.message.result).toMatchObject({ taskId: task.taskId, status: 'working' });
      gates.open(gate);
    });
  });
});

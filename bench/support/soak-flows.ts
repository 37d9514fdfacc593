import { SoakTransportError, type SoakRequest } from './soak-http.js';
import { builderOf, exchange, STEPS, type Build, type Era, type SoakClient } from './soak-steps.js';
import {
  deleteSession,
  httpStatus,
  legacyRequest,
  resultOf,
  resultWhere,
  shortText,
  toolText,
} from './soak-wire.js';

// The soak's operations of several requests, or whose answer is not a plain one: calls
// cancelled on each wire, tasks polled to their end on each wire, 2025 sessions.

/** A call cancelled by closing its response stream once the tool says it started. */
export async function cancelByClosing(client: SoakClient, build: Build, era: Era): Promise<void> {
  const kind = `${era} cancelled by closing the stream`;
  const request = build('tools/call', { name: 'slow_wait', arguments: {} }, { progressToken: 1 });
  await client.pacer.take();
  client.tally.requests += 1;
  try {
    const answer = await client.http.send(request, {
      onMessage: (message, abort) => {
        if (message.method === 'notifications/progress') abort();
      },
    });
    client.tally.fail(kind, `answered instead of cancelled: ${shortText(answer)}`);
  } catch (error) {
    if (!(error instanceof SoakTransportError)) throw error;
    if (error.failure === 'aborted-by-client') client.tally.ok(kind);
    else client.tally.fail(kind, error.message);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MAX_POLLS = 200;

/** 2026-07-28: a task started, polled with `tasks/get` until it completes with its result. */
export async function modernTask(client: SoakClient, build: Build): Promise<void> {
  const period = client.random() < 0.5 ? 'daily' : 'weekly';
  const call = build(
    'tools/call',
    { name: 'build_report', arguments: { period } },
    { tasks: true },
  );
  const started = await exchange(client, 'modern task created', call, (answer) => {
    const result = resultOf(answer);
    if (typeof result === 'string') return result;
    return result.resultType === 'task' && result.taskId
      ? undefined
      : `no task: ${shortText(answer)}`;
  });
  const { taskId } = resultOf(started) as { taskId: string };
  for (let poll = 0; poll < MAX_POLLS; poll += 1) {
    await pause(20);
    const get = build('tasks/get', { taskId }, { tasks: true });
    const answer = await exchange(
      client,
      'modern tasks/get',
      get,
      resultWhere('a task', (r) => r.taskId === taskId),
    );
    const task = resultOf(answer) as Record<string, any>;
    if (task.status === 'working') continue;
    const text = task.result?.content?.[0]?.text;
    if (task.status === 'completed' && text === `${period} report: 42 rows`)
      client.tally.ok('modern task completed');
    else client.tally.fail('modern task completed', `unexpected outcome: ${shortText(answer)}`);
    return;
  }
  client.tally.fail('modern task completed', `still working after ${MAX_POLLS} polls`);
}

/** 2025-11-25 (stateless): `params.task`, polled with `tasks/get`, read with `tasks/result`. */
export async function legacyTask(client: SoakClient, build: Build): Promise<void> {
  const period = client.random() < 0.5 ? 'daily' : 'weekly';
  const call = build('tools/call', {
    name: 'build_report',
    arguments: { period },
    task: { ttl: 10_000 },
  });
  const started = await exchange(
    client,
    'legacy task created',
    call,
    resultWhere('a task', (r) => typeof r.task?.taskId === 'string'),
  );
  const { taskId } = (resultOf(started) as { task: { taskId: string } }).task;
  for (let poll = 0; poll < MAX_POLLS; poll += 1) {
    await pause(20);
    const get = build('tasks/get', { taskId });
    const answer = await exchange(
      client,
      'legacy tasks/get',
      get,
      resultWhere('a task', (r) => r.taskId === taskId),
    );
    const { status } = resultOf(answer) as { status: string };
    if (status === 'working') continue;
    if (status !== 'completed') {
      client.tally.fail('legacy tasks/get', `unexpected status: ${shortText(answer)}`);
      return;
    }
    await exchange(
      client,
      'legacy tasks/result',
      build('tasks/result', { taskId }),
      toolText(`${period} report: 42 rows`),
    );
    return;
  }
  client.tally.fail('legacy tasks/get', `still working after ${MAX_POLLS} polls`);
}

const SESSION_STEPS = [
  'call add_numbers',
  'invalid arguments',
  'tools/list',
  'call with progress',
  'prompts/get',
  'refused by a tool guard',
  'cancel',
];

/**
 * A 2025 session: `initialize`, `notifications/initialized`, three requests of the mix
 * (one may be a call cancelled with `notifications/cancelled`), then DELETE, which must
 * also end the cancelled call's stream (the SDK sends no answer to a cancelled request).
 */
export async function session(client: SoakClient): Promise<void> {
  const initialize = legacyRequest(
    client.nextId(),
    'initialize',
    {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'soak', version: '1.0.0' },
    },
    client.token,
  );
  const opened = await exchange(client, 'session initialize', initialize, (answer) => {
    if (typeof answer.headers['mcp-session-id'] !== 'string')
      return `no session id: ${shortText(answer)}`;
    return resultWhere('the server', (r) => r.protocolVersion === '2025-11-25')(answer);
  });
  const sessionId = opened.headers['mcp-session-id'] as string;
  const notify = (method: string, params?: Record<string, unknown>) =>
    legacyRequest(undefined, method, params, client.token, sessionId);
  await exchange(
    client,
    'session notifications/initialized',
    notify('notifications/initialized'),
    httpStatus(202),
  );
  const build = builderOf(client, 'session', sessionId);
  let cancelled: Promise<void> | undefined;
  for (let step = 0; step < 3; step += 1) {
    const name = SESSION_STEPS[Math.floor(client.random() * SESSION_STEPS.length)]!;
    if (name !== 'cancel' || cancelled) {
      await STEPS[name === 'cancel' ? 'tools/list' : name]!(client, build, 'session');
      continue;
    }
    cancelled = (await cancelInSession(client, build, notify)).ended;
  }
  await exchange(client, 'session DELETE', deleteSession(client.token, sessionId), httpStatus(200));
  await cancelled;
}

/** Starts the slow call and cancels it once it started; `ended` waits for its stream's end. */
async function cancelInSession(
  client: SoakClient,
  build: Build,
  notify: (method: string, params?: Record<string, unknown>) => SoakRequest,
): Promise<{ ended: Promise<void> }> {
  const call = build('tools/call', { name: 'slow_wait', arguments: {} }, { progressToken: 1 });
  const requestId = (JSON.parse(call.body!) as { id: number }).id;
  await client.pacer.take();
  client.tally.requests += 1;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const kind = 'session cancelled call (stream ended by DELETE)';
  const sentAt = performance.now();
  const ended = client.http
    .send(call, {
      onMessage: (message) => {
        if (message.method === 'notifications/progress') started();
      },
    })
    .then(
      (answer) => {
        const answered = answer.messages.some((message) => message.id === requestId);
        if (answered)
          client.tally.fail(kind, `a cancelled call was answered: ${shortText(answer)}`);
        else client.tally.ok(kind);
      },
      (error: Error) =>
        client.tally.fail(
          kind,
          `${error.message} after ${(performance.now() - sentAt).toFixed(0)} ms`,
        ),
    )
    .finally(() => started());
  await running;
  await exchange(
    client,
    'session notifications/cancelled',
    notify('notifications/cancelled', { requestId, reason: 'The user stopped it.' }),
    httpStatus(202),
  );
  return { ended };
}

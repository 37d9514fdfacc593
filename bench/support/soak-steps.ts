import { PROGRESS_STEPS } from '../apps/soak.app.js';
import {
  SoakTransportError,
  type SendOptions,
  type SoakAnswer,
  type SoakHttp,
  type SoakRequest,
} from './soak-http.js';
import type { SoakPacer, SoakTally } from './soak-tally.js';
import {
  httpStatus,
  legacyRequest,
  modernRequest,
  resultWhere,
  shortText,
  toolError,
  toolText,
  type Check,
} from './soak-wire.js';
// The soak's requests of one step (bench/soak.ts): what a virtual client sends on each wire
// and what each answer must be. Every request goes through `exchange`, which counts it by
// kind and records anything but the answer the mix asked for as a failure.

/** One virtual client of the driver: its connection pool, tallies and token. */
export interface SoakClient {
  readonly http: SoakHttp;
  readonly tally: SoakTally;
  readonly pacer: SoakPacer;
  /** Its token: `client-N` (the identity its sessions and tasks belong to). */
  readonly token: string;
  readonly random: () => number;
  nextId(): number;
}

/** Stops an operation whose request failed (the failure is already counted). */
export class OperationStopped extends Error {}

export async function exchange(
  client: SoakClient,
  kind: string,
  request: SoakRequest,
  check: Check,
  options?: SendOptions,
): Promise<SoakAnswer> {
  await client.pacer.take();
  client.tally.requests += 1;
  let answer: SoakAnswer;
  try {
    answer = await client.http.send(request, options);
  } catch (error) {
    if (!(error instanceof SoakTransportError)) throw error;
    client.tally.fail(kind, error.message);
    throw new OperationStopped();
  }
  const problem = check(answer);
  if (problem) {
    client.tally.fail(kind, problem);
    throw new OperationStopped();
  }
  client.tally.ok(kind);
  return answer;
}

export type Era = 'modern' | 'legacy' | 'session';
interface Extra {
  progressToken?: number;
  tasks?: boolean;
  token?: string;
}
/** Builds a request of one era: 2026-07-28, stateless 2025-11-25, or in a 2025 session. */
export type Build = (method: string, params: Record<string, unknown>, extra?: Extra) => SoakRequest;

export function builderOf(client: SoakClient, era: Era, sessionId?: string): Build {
  return (method, params, extra = {}) => {
    const token = extra.token ?? client.token;
    const id = client.nextId();
    if (era === 'modern') return modernRequest(id, method, params, { ...extra, token });
    const withMeta =
      extra.progressToken === undefined
        ? params
        : { ...params, _meta: { progressToken: extra.progressToken } };
    return legacyRequest(id, method, withMeta, token, sessionId);
  };
}

export const whole = (client: SoakClient, max: number) => Math.floor(client.random() * (max + 1));

/** An operation of one request, the same on every era. */
type Step = (client: SoakClient, build: Build, era: Era) => Promise<void>;

export const STEPS: Record<string, Step> = {
  async 'call add_numbers'(client, build, era) {
    const [a, b] = [whole(client, 1000), whole(client, 1000)];
    const request = build('tools/call', { name: 'add_numbers', arguments: { a, b, label: 'sum' } });
    await exchange(client, `${era} call add_numbers`, request, toolText(`sum: ${a + b}`));
  },
  async 'call lookup_item'(client, build, era) {
    const id = `item-${whole(client, 9999)}`;
    const request = build('tools/call', { name: 'lookup_item', arguments: { id } });
    const check = resultWhere(`item ${id}`, (result) => result.structuredContent?.id === id);
    await exchange(client, `${era} call lookup_item`, request, check);
  },
  async 'invalid arguments'(client, build, era) {
    const a = 1001 + whole(client, 5000);
    const request = build('tools/call', {
      name: 'add_numbers',
      arguments: { a, b: 1, label: 'x' },
    });
    await exchange(client, `${era} invalid arguments`, request, toolError('Invalid arguments'));
  },
  async 'refused by a tool guard'(client, build, era) {
    const request = build('tools/call', { name: 'reset_counters', arguments: {} });
    await exchange(client, `${era} refused by a tool guard`, request, toolError('Forbidden (403)'));
  },
  async 'admin call'(client, build, era) {
    const token = client.token.replace('client-', 'admin-');
    const request = build('tools/call', { name: 'reset_counters', arguments: {} }, { token });
    await exchange(client, `${era} admin call`, request, toolText('reset'));
  },
  async 'tools/list'(client, build, era) {
    // A client token: reset_counters, whose guard refuses it, is left out of the list.
    const check = resultWhere('5 tools', (result) => result.tools?.length === 5);
    await exchange(client, `${era} tools/list`, build('tools/list', {}), check);
  },
  async 'prompts/get'(client, build, era) {
    const topic = `topic-${whole(client, 99)}`;
    const request = build('prompts/get', { name: 'summary', arguments: { topic } });
    const expected = `Summarise ${topic} in three sentences.`;
    const check = resultWhere('the prompt', (r) => r.messages?.[0]?.content?.text === expected);
    await exchange(client, `${era} prompts/get`, request, check);
  },
  async 'resources/read'(client, build, era) {
    const check = resultWhere('the resource', (r) => r.contents?.[0]?.text === 'all good');
    await exchange(
      client,
      `${era} resources/read`,
      build('resources/read', { uri: 'soak://status' }),
      check,
    );
  },
  async 'call with progress'(client, build, era) {
    const progressToken = client.nextId();
    let notified = 0;
    const request = build('tools/call', { name: 'count_up', arguments: {} }, { progressToken });
    const text = toolText(`counted to ${PROGRESS_STEPS}`);
    const check: Check = (answer) =>
      text(answer) ??
      (notified === PROGRESS_STEPS
        ? undefined
        : `${notified} progress notifications: ${shortText(answer)}`);
    await exchange(client, `${era} call with progress`, request, check, {
      onMessage: (message) => {
        if (message.method === 'notifications/progress') notified += 1;
      },
    });
  },
};

/** A caller the endpoint's guard refuses (a blocked token): 403 before any MCP. */
export async function refusedCaller(client: SoakClient, era: 'modern' | 'legacy'): Promise<void> {
  const token = client.token.replace('client-', 'blocked-');
  const request = builderOf(client, era)('tools/list', {}, { token });
  await exchange(client, `${era} refused caller (HTTP 403)`, request, httpStatus(403));
}

import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fieldsOf, ownerMember } from '../../lib/redis/redis-task.codec.js';
import {
  CREATE_SCRIPT,
  LIST_SCRIPT,
  RESOLVE_INPUT_SCRIPT,
  SWEEP_SCRIPT,
  TRANSITION_SCRIPT,
  redisUnavailable,
  runScript,
  type TaskScript,
} from '../../lib/redis/redis-task.scripts.js';
import { RedisUnavailableError } from '../../lib/redis/redis-unavailable.error.js';
import { freePort, useRedisServer } from '../support/redis-server.js';

// The scripts are called here with the KEYS and ARGV layout their comments give, as
// RedisTaskStore calls them; the store's own spec covers what it builds on them.

const redis = useRedisServer();
let run = 0;

/** The keys of a fresh prefix, and the calls of each script on them (clock: `now`, in ms). */
function tasks() {
  const client = redis.clientOf('scripts');
  const prefix = `scripts:${++run}:`;
  const key = (name: string) => prefix + name;
  const [expiry, index, finished, sequence] = ['expiry', 'index', 'finished', 'sequence'].map(key);

  const create = (
    id: string,
    {
      now = 1_000,
      owner = 'alice',
      expiresAt = undefined as number | undefined,
      maxTasks = 0,
    } = {},
  ) =>
    runScript(
      client,
      CREATE_SCRIPT,
      [key(`task:${id}`), key(`owner:${owner}`), expiry!, index!, finished!, sequence!],
      [
        now,
        prefix,
        id,
        owner,
        ownerMember(now, id),
        expiresAt ?? '',
        // Redis' own expiry only frees memory: far beyond the injected clock.
        expiresAt === undefined ? '' : 600_000,
        maxTasks || '',
        'taskId',
        JSON.stringify(id),
        'owner',
        JSON.stringify(owner),
        'status',
        '"working"',
        ...(expiresAt === undefined ? [] : ['_expiresAt', String(expiresAt)]),
      ],
    );

  const transition = (
    id: string,
    { now = 2_000, final = false, clear = '0', set = [] as string[], remove = [] as string[] } = {},
  ) =>
    runScript(
      client,
      TRANSITION_SCRIPT,
      [key(`task:${id}`), finished!],
      [
        now,
        JSON.stringify(new Date(now).toISOString()),
        final ? '1' : '0',
        clear,
        set.length / 2,
        ...set,
        ...remove,
      ],
    ) as Promise<[string, unknown?]>;

  const resolve = (id: string, answers: Record<string, unknown>, now = 3_000) =>
    runScript(
      client,
      RESOLVE_INPUT_SCRIPT,
      [key(`task:${id}`)],
      [
        now,
        JSON.stringify(new Date(now).toISOString()),
        ...Object.entries(answers).flatMap(([name, answer]) => [name, JSON.stringify(answer)]),
      ],
    ) as Promise<[string, unknown?, number?]>;

  const list = async (owner: string, start: string, count: number, now = 2_000) =>
    (
      (await runScript(
        client,
        LIST_SCRIPT,
        [key(`owner:${owner}`)],
        [now, prefix, start, count],
      )) as [string, unknown][]
    ).map(([member, hash]) => ({ member, taskId: JSON.parse(fieldsOf(hash).taskId!) }));

  const sweep = (now: number) =>
    runScript(client, SWEEP_SCRIPT, [index!, expiry!, finished!], [now, prefix, 500]);

  const hash = async (id: string) => client.hgetall(key(`task:${id}`));
  return { client, key, create, transition, resolve, list, sweep, hash };
}

describe('runScript', () => {
  it('loads a script the server does not know, then runs it by its SHA1', async () => {
    const client = redis.clientOf('load');
    await client.script('FLUSH');
    expect(await runScript(client, SWEEP_SCRIPT, ['i', 'e', 'f'], [0, 'p:', 10])).toEqual([]);
    expect(await client.script('EXISTS', SWEEP_SCRIPT.sha)).toEqual([1]);
    expect(await client.script('LOAD', SWEEP_SCRIPT.source)).toBe(SWEEP_SCRIPT.sha);
  });

  it('passes on an error of the script as Redis replied it', async () => {
    const { client, key } = tasks();
    await client.set(key('task:t1'), 'not a hash');
    const failing = runScript(
      client,
      TRANSITION_SCRIPT,
      [key('task:t1'), 'f'],
      [0, '""', '0', '0', 0],
    );
    await expect(failing).rejects.toMatchObject({ name: 'ReplyError' });
    await expect(failing).rejects.toThrow(/WRONGTYPE/);

    const source = 'return redis.call("NO_SUCH_COMMAND")';
    const broken: TaskScript = { source, sha: createHash('sha1').update(source).digest('hex') };
    await expect(runScript(client, broken, [], [])).rejects.toMatchObject({ name: 'ReplyError' });
  });

  it('says that Redis is unavailable to the task store when it cannot be reached', async () => {
    const client = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      const error = await runScript(client, SWEEP_SCRIPT, ['i', 'e', 'f'], [0, 'p:', 10]).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(RedisUnavailableError);
      expect((error as Error).message).toMatch(/^Redis is unavailable to the MCP task store: \S/);
      expect((error as Error).cause).toBeInstanceOf(Error);
    } finally {
      client.disconnect();
    }
  });
});

describe('redisUnavailable', () => {
  it('keeps a reply error, and wraps anything else', () => {
    const reply = Object.assign(new Error('ERR wrong number of arguments'), { name: 'ReplyError' });
    expect(redisUnavailable(reply)).toBe(reply);
    const wrapped = redisUnavailable('connect ECONNREFUSED 127.0.0.1:1');
    expect(wrapped).toBeInstanceOf(RedisUnavailableError);
    expect(wrapped.message).toBe(
      'Redis is unavailable to the MCP task store: connect ECONNREFUSED 127.0.0.1:1',
    );
  });
});

describe('CREATE_SCRIPT', () => {
  it('creates a task once, and replaces one that has expired, reporting it', async () => {
    const { create } = tasks();
    expect(await create('t1', { now: 1_000, expiresAt: 1_500 })).toEqual(['created', []]);
    expect(await create('t1', { now: 1_400 })).toEqual(['exists']);
    expect(await create('t1', { now: 1_500 })).toEqual(['created', ['t1']]);
  });

  it('makes room under maxTasks: expired tasks first, then the one that finished first', async () => {
    const { create, transition, client, key } = tasks();
    await create('running', { maxTasks: 3 });
    await create('expiring', { maxTasks: 3, expiresAt: 1_500 });
    await create('finished-later', { maxTasks: 3 });
    expect(await create('t4', { now: 2_000, maxTasks: 3 })).toEqual(['created', ['expiring']]);

    await transition('t4', { now: 2_100, final: true, set: ['status', '"completed"'] });
    await transition('finished-later', { now: 2_200, final: true, set: ['status', '"failed"'] });
    expect(await create('t5', { now: 2_300, maxTasks: 3 })).toEqual(['created', ['t4']]);
    expect(await client.exists(key('task:t4'))).toBe(0);
    expect((await client.hkeys(key('index'))).toSorted()).toEqual([
      'finished-later',
      'running',
      't5',
    ]);
  });

  it('refuses a task when every task is still running, saying how many there are', async () => {
    const { create } = tasks();
    await create('a', { maxTasks: 2 });
    await create('b', { maxTasks: 2 });
    expect(await create('c', { maxTasks: 2 })).toEqual(['full', 2]);
  });
});

describe('TRANSITION_SCRIPT', () => {
  it('changes a live task and stamps it; a missing or expired task is missing', async () => {
    const { create, transition } = tasks();
    await create('t1', { expiresAt: 5_000 });
    const [outcome, hash] = await transition('t1', { set: ['statusMessage', '"halfway"'] });
    expect(outcome).toBe('changed');
    expect(fieldsOf(hash)).toMatchObject({
      status: '"working"',
      statusMessage: '"halfway"',
      lastUpdatedAt: JSON.stringify(new Date(2_000).toISOString()),
    });
    expect(await transition('t1', { now: 5_000 })).toEqual(['missing']);
    expect(await transition('nope')).toEqual(['missing']);
  });

  it('leaves a task in a final status as it is, and says so', async () => {
    const { create, transition } = tasks();
    await create('t1');
    await transition('t1', { final: true, set: ['status', '"cancelled"'] });
    const [outcome, hash] = await transition('t1', { now: 3_000, set: ['status', '"working"'] });
    expect(outcome).toBe('final');
    expect(fieldsOf(hash)).toMatchObject({ status: '"cancelled"' });
  });

  it('clears the questions, or the whole round, and deletes the fields asked', async () => {
    const { create, transition, hash } = tasks();
    await create('t1');
    const round = ['q:x', '{}', 'a:y', '1', 'inputOrder', '["x"]', 'inputRound', '1'];
    await transition('t1', { set: [...round, 'requestState', '"s"'] });
    await transition('t1', { clear: '1', remove: ['requestState'] });
    expect(Object.keys(await hash('t1')).toSorted()).toEqual([
      '_finishedMember',
      'a:y',
      'inputRound',
      'lastUpdatedAt',
      'owner',
      'status',
      'taskId',
    ]);
    await transition('t1', { clear: '2' });
    expect(Object.keys(await hash('t1')).filter((field) => /^(a:|q:|input)/.test(field))).toEqual(
      [],
    );
  });
});

describe('RESOLVE_INPUT_SCRIPT', () => {
  it('takes answers to pending questions only; the call that answers the last resumes the task', async () => {
    const { create, transition, resolve } = tasks();
    await create('t1');
    await transition('t1', {
      clear: '2',
      set: [
        'status',
        '"input_required"',
        'q:one',
        '{}',
        'q:two',
        '{}',
        'inputOrder',
        '["one","two"]',
      ],
    });

    const [first, firstHash, firstComplete] = await resolve('t1', { one: 'yes', extra: 1 });
    expect([first, firstComplete]).toEqual(['changed', 0]);
    expect(fieldsOf(firstHash)).toMatchObject({ 'a:one': '"yes"', status: '"input_required"' });
    expect(Object.keys(fieldsOf(firstHash))).not.toContain('a:extra');

    expect((await resolve('t1', { one: 'again', unknown: 2 }))[0]).toBe('unchanged');

    const [last, lastHash, lastComplete] = await resolve('t1', { two: 'no' });
    expect([last, lastComplete]).toEqual(['changed', 1]);
    expect(fieldsOf(lastHash)).toMatchObject({
      status: '"working"',
      'a:one': '"yes"',
      'a:two': '"no"',
    });
    expect(Object.keys(fieldsOf(lastHash))).not.toContain('inputOrder');

    expect((await resolve('t1', { two: 'late' }))[0]).toBe('unchanged');
    expect(await resolve('nope', { one: 1 })).toEqual(['missing']);
  });
});

describe('LIST_SCRIPT', () => {
  it("pages one owner's live tasks newest first, skipping expired ones", async () => {
    const { create, list } = tasks();
    await create('old', { now: 1_000 });
    await create('gone', { now: 1_100, expiresAt: 1_500 });
    await create('mid', { now: 1_200 });
    await create('new', { now: 1_300 });
    await create('bobs', { now: 1_400, owner: 'bob' });

    const first = await list('alice', '-', 2);
    expect(first.map(({ taskId }) => taskId)).toEqual(['new', 'mid']);
    const rest = await list('alice', `(${first.at(-1)!.member}`, 2);
    expect(rest.map(({ taskId }) => taskId)).toEqual(['old']);
    expect((await list('alice', '-', 10, 1_200)).map(({ taskId }) => taskId)).toEqual([
      'new',
      'mid',
      'gone',
      'old',
    ]);
  });
});

describe('SWEEP_SCRIPT', () => {
  it('removes the expired tasks once, in the order they were created, and every index entry', async () => {
    const { create, sweep, client, key } = tasks();
    await create('late-expiry', { now: 1_000, expiresAt: 1_900 });
    await create('kept', { now: 1_100 });
    await create('early-expiry', { now: 1_200, expiresAt: 1_300 });

    expect(await sweep(1_500)).toEqual(['early-expiry']);
    expect(await sweep(2_000)).toEqual(['late-expiry']);
    expect(await sweep(2_000)).toEqual([]);
    expect(await client.hkeys(key('index'))).toEqual(['kept']);
    expect(await client.zrange(key('owner:alice'), '0', '-1')).toEqual([
      ownerMember(1_100, 'kept'),
    ]);
    expect(await client.zcard(key('expiry'))).toBe(0);
    expect(await client.zcard(key('finished'))).toBe(0);
  });

  it('reports tasks that expired together in the order they were created', async () => {
    const { create, sweep } = tasks();
    await create('first', { now: 1_000, expiresAt: 1_400 });
    await create('second', { now: 1_100, expiresAt: 1_200 });
    await create('third', { now: 1_200, expiresAt: 1_300 });
    expect(await sweep(2_000)).toEqual(['first', 'second', 'third']);
  });
});

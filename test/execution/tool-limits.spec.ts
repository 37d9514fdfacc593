import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  concurrencyLimitsOf,
  effectiveToolLimits,
  ToolBusyError,
  ToolDeadline,
  ToolLimiter,
  ToolTimeoutError,
  untilAborted,
  type ToolSlot,
} from '../../lib/execution/tool-limits.js';

const never = () => new AbortController().signal;

/** A slot now, or fails the test: the call should not have waited. */
function now(granted: ReturnType<ToolLimiter['acquire']>): ToolSlot {
  expect(granted).not.toBeInstanceOf(Promise);
  return granted as ToolSlot;
}

/** Whether a promise has settled once the microtasks queued now have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('concurrencyLimitsOf', () => {
  it('reads a number as max, and queues as many calls as the limit by default', () => {
    expect(concurrencyLimitsOf(4)).toEqual({ max: 4, queue: 4 });
    expect(concurrencyLimitsOf({ perCaller: 2 })).toEqual({ perCaller: 2, queue: 2 });
    expect(concurrencyLimitsOf({ max: 8, perCaller: 2 })).toEqual({
      max: 8,
      perCaller: 2,
      queue: 8,
    });
    expect(concurrencyLimitsOf({ max: 2, queue: 0 })).toEqual({ max: 2, queue: 0 });
  });
});

describe('effectiveToolLimits', () => {
  const defaults = { timeoutMs: 30_000, concurrency: 4 };

  it("takes the tool's own limits, else the server's defaults", () => {
    expect(effectiveToolLimits(undefined, undefined, false)).toBeUndefined();
    expect(effectiveToolLimits(undefined, defaults, false)).toEqual({
      timeoutMs: 30_000,
      concurrency: { max: 4, queue: 4 },
    });
    expect(effectiveToolLimits({ timeoutMs: 5_000 }, defaults, false)).toEqual({
      timeoutMs: 5_000,
      concurrency: { max: 4, queue: 4 },
    });
  });

  it('turns a default off with false', () => {
    expect(effectiveToolLimits({ timeoutMs: false }, defaults, false)).toEqual({
      concurrency: { max: 4, queue: 4 },
    });
    expect(effectiveToolLimits({ timeoutMs: false, concurrency: false }, defaults, false)).toBe(
      undefined,
    );
  });

  it('gives a task tool the default concurrency but not the default timeout (its ttlMs bounds it)', () => {
    expect(effectiveToolLimits(undefined, defaults, true)).toEqual({
      concurrency: { max: 4, queue: 4 },
    });
    expect(effectiveToolLimits({ timeoutMs: 1_000 }, defaults, true)?.timeoutMs).toBe(1_000);
  });
});

describe('ToolLimiter', () => {
  it('runs max calls, queues up to queue, then refuses naming the limit', async () => {
    const limiter = new ToolLimiter('pooled', { max: 2, queue: 1 });
    const first = now(limiter.acquire('a', never));
    now(limiter.acquire('b', never));
    const waiting = limiter.acquire('c', never) as Promise<{ slot: ToolSlot; waitedMs: number }>;
    expect(waiting).toBeInstanceOf(Promise);
    expect(limiter.load).toEqual({ running: 2, waiting: 1 });
    let refusal: unknown;
    try {
      limiter.acquire('d', never);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ToolBusyError);
    expect((refusal as ToolBusyError).state).toEqual({
      limit: 'max',
      value: 2,
      running: 2,
      waiting: 1,
      queue: 1,
    });
    first.release();
    const { waitedMs } = await waiting;
    expect(waitedMs).toBeGreaterThanOrEqual(0);
    expect(limiter.load).toEqual({ running: 2, waiting: 0 });
  });

  it('refuses at once with queue 0', () => {
    const limiter = new ToolLimiter('t', { max: 1, queue: 0 });
    now(limiter.acquire('a', never));
    expect(() => limiter.acquire('a', never)).toThrow(ToolBusyError);
    expect(limiter.load).toEqual({ running: 1, waiting: 0 });
  });

  it('starts waiting calls oldest first', async () => {
    const limiter = new ToolLimiter('t', { max: 1, queue: 3 });
    const slot = now(limiter.acquire('a', never));
    const order: string[] = [];
    const waits = ['b', 'c', 'd'].map((caller) =>
      (limiter.acquire(caller, never) as Promise<{ slot: ToolSlot }>).then(({ slot: next }) => {
        order.push(caller);
        next.release();
      }),
    );
    slot.release();
    await Promise.all(waits);
    expect(order).toEqual(['b', 'c', 'd']);
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });

  it('lets a caller under perCaller run while another waits at its own limit', async () => {
    const limiter = new ToolLimiter('t', { perCaller: 1, queue: 2 });
    const alice = now(limiter.acquire('alice', never));
    const aliceAgain = limiter.acquire('alice', never) as Promise<{ slot: ToolSlot }>;
    expect(aliceAgain).toBeInstanceOf(Promise);
    // Bob is not held up by Alice's waiting call.
    const bob = now(limiter.acquire('bob', never));
    // Alice waits for her own slot, not for Bob's.
    bob.release();
    expect(await settled(aliceAgain)).toBe(false);
    alice.release();
    expect(await settled(aliceAgain)).toBe(true);
  });

  it('skips a waiting call whose caller is still at perCaller, for a later one that may run', async () => {
    const limiter = new ToolLimiter('t', { max: 2, perCaller: 1, queue: 4 });
    const alice = now(limiter.acquire('alice', never));
    const bob = now(limiter.acquire('bob', never));
    const aliceAgain = limiter.acquire('alice', never) as Promise<unknown>;
    const carol = limiter.acquire('carol', never) as Promise<unknown>;
    // Bob's slot frees: Alice, first in the queue, is still at her limit; Carol is not.
    bob.release();
    expect(await settled(carol)).toBe(true);
    expect(await settled(aliceAgain)).toBe(false);
    alice.release();
    expect(await settled(aliceAgain)).toBe(true);
    expect(limiter.load).toEqual({ running: 2, waiting: 0 });
  });

  it("bounds one caller's waiting calls by perCaller", () => {
    const limiter = new ToolLimiter('t', { perCaller: 1, queue: 10 });
    now(limiter.acquire('alice', never));
    expect(limiter.acquire('alice', never)).toBeInstanceOf(Promise);
    let refusal: unknown;
    try {
      limiter.acquire('alice', never);
    } catch (error) {
      refusal = error;
    }
    expect((refusal as ToolBusyError).state).toEqual({
      limit: 'perCaller',
      value: 1,
      running: 1,
      waiting: 1,
      queue: 10,
    });
  });

  it('takes a waiting call whose signal aborts out of the queue, with the reason', async () => {
    const limiter = new ToolLimiter('t', { max: 1, queue: 1 });
    const slot = now(limiter.acquire('a', never));
    const controller = new AbortController();
    const waiting = limiter.acquire('b', () => controller.signal) as Promise<unknown>;
    const reason = new Error('cancelled by the client');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(limiter.load).toEqual({ running: 1, waiting: 0 });
    // The queue has room again.
    expect(limiter.acquire('c', never)).toBeInstanceOf(Promise);
    slot.release();
  });

  it('refuses to queue a call whose signal has already aborted', async () => {
    const limiter = new ToolLimiter('t', { max: 1, queue: 1 });
    now(limiter.acquire('a', never));
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(limiter.acquire('b', () => controller.signal)).rejects.toThrow('gone');
    expect(limiter.load).toEqual({ running: 1, waiting: 0 });
  });

  it('releases a slot once, however often it is released', () => {
    const limiter = new ToolLimiter('t', { max: 2, queue: 0 });
    const slot = now(limiter.acquire('a', never));
    now(limiter.acquire('a', never));
    slot.release();
    slot.release();
    expect(limiter.load).toEqual({ running: 1, waiting: 0 });
  });
});

describe('ToolDeadline', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rejects with ToolTimeoutError and aborts its signal with it when the time runs out', async () => {
    vi.useFakeTimers();
    const request = new AbortController();
    const deadline = new ToolDeadline('slow', 50, request.signal);
    const raced = deadline.race(new Promise(() => undefined));
    const rejected = expect(raced).rejects.toBeInstanceOf(ToolTimeoutError);
    await vi.advanceTimersByTimeAsync(50);
    await rejected;
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBeInstanceOf(ToolTimeoutError);
    expect((deadline.signal.reason as ToolTimeoutError).message).toBe(
      'Tool "slow" timed out after 50 ms.',
    );
    expect(request.signal.aborted).toBe(false);
  });

  it('settles with the work and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const deadline = new ToolDeadline('quick', 1_000, never());
    await expect(deadline.race(Promise.resolve('done'))).resolves.toBe('done');
    expect(vi.getTimerCount()).toBe(0);
    await expect(deadline.race(Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(vi.getTimerCount()).toBe(0);
    expect(deadline.signal.aborted).toBe(false);
  });

  it("aborts its signal with the call's own", () => {
    const request = new AbortController();
    const deadline = new ToolDeadline('t', 1_000, request.signal);
    request.abort(new Error('client went away'));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as Error).message).toBe('client went away');
  });
});

describe('untilAborted', () => {
  it("settles with the work, or with the signal's reason as soon as it aborts", async () => {
    await expect(untilAborted(never(), Promise.resolve(1))).resolves.toBe(1);
    const controller = new AbortController();
    const pending = untilAborted(controller.signal, new Promise(() => undefined));
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(untilAborted(controller.signal, Promise.resolve(1))).rejects.toBe(reason);
  });
});

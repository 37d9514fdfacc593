import type {
  McpToolConcurrency,
  McpToolDefaults,
  McpToolOptions,
} from '../interfaces/mcp-tool-options.interface.js';

/** How many calls of a tool run at once, as a server applies it (`queue` resolved). */
export interface ToolConcurrencyLimits {
  readonly max?: number;
  readonly perCaller?: number;
  readonly queue: number;
}

/** A tool's limits as one server applies them: the tool's own, else the server's defaults. */
export interface ToolLimits {
  readonly timeoutMs?: number;
  readonly concurrency?: ToolConcurrencyLimits;
}

/** The full form of a `concurrency` option: `n` is `{ max: n }`, the queue as deep as a limit. */
export function concurrencyLimitsOf(value: number | McpToolConcurrency): ToolConcurrencyLimits {
  const { max, perCaller, queue } = typeof value === 'number' ? { max: value } : value;
  return {
    ...(max !== undefined && { max }),
    ...(perCaller !== undefined && { perCaller }),
    queue: queue ?? max ?? perCaller ?? 0,
  };
}

/**
 * The limits a server applies to a tool: what `@McpTool()` sets (`false` turns a default
 * off), else the server's `tools` option. A task tool does not take the default timeout:
 * its task's `ttlMs` bounds it, and a task exists to outlast a request.
 */
export function effectiveToolLimits(
  own: Pick<McpToolOptions, 'timeoutMs' | 'concurrency'> | undefined,
  defaults: McpToolDefaults | undefined,
  runsAsTask: boolean,
): ToolLimits | undefined {
  const timeoutMs = own?.timeoutMs ?? (runsAsTask ? undefined : defaults?.timeoutMs);
  const concurrency = own?.concurrency ?? defaults?.concurrency;
  if (!timeoutMs && !concurrency) return undefined;
  return {
    ...(timeoutMs && { timeoutMs }),
    ...(concurrency && { concurrency: concurrencyLimitsOf(concurrency) }),
  };
}

/** The method ran past its tool's `timeoutMs`: the reason its signal aborts with. */
export class ToolTimeoutError extends Error {
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`Tool "${tool}" timed out after ${timeoutMs} ms.`);
    this.name = 'ToolTimeoutError';
  }
}

/** Which limit refused a call, and how full the tool was. */
export interface ToolBusyState {
  /** `max`: the tool's limit; `perCaller`: the caller's. */
  readonly limit: 'max' | 'perCaller';
  /** The value of that limit. */
  readonly value: number;
  /** Calls running under that limit (the tool's, or the caller's). */
  readonly running: number;
  /** Calls waiting under that limit (the tool's, or the caller's). */
  readonly waiting: number;
  readonly queue: number;
}

/** A call refused because its tool (or its caller's share of it) is full and so is the queue. */
export class ToolBusyError extends Error {
  constructor(
    readonly tool: string,
    readonly state: ToolBusyState,
  ) {
    super(`Tool "${tool}" is busy (concurrency.${state.limit} ${state.value}).`);
    this.name = 'ToolBusyError';
  }
}

/** A place among the running calls of a tool; released once, when the caller is answered. */
export interface ToolSlot {
  release(): void;
}

interface Waiter {
  readonly caller: string;
  readonly since: number;
  readonly grant: (waitedMs: number) => void;
}

/**
 * Counts the running calls of one tool on this instance, in all and per caller, and keeps
 * the calls beyond a limit in one first-come-first-served queue. A waiting call runs as
 * soon as its limits allow, so one caller at its `perCaller` limit does not hold up the
 * others queued behind it. Everything is synchronous: no slot is lost between two calls.
 */
export class ToolLimiter {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private readonly waitingBy = new Map<string, number>();

  constructor(
    private readonly tool: string,
    private readonly limits: ToolConcurrencyLimits,
  ) {}

  /**
   * A slot now, or the promise of one once the call's turn comes (with how long it
   * waited). Throws {@link ToolBusyError} when the call may not wait; the promise rejects
   * with the signal's reason when the client cancels the waiting call.
   */
  acquire(
    caller: string,
    signal: () => AbortSignal,
  ): ToolSlot | Promise<{ slot: ToolSlot; waitedMs: number }> {
    if (this.canRun(caller)) return this.take(caller);
    this.assertMayWait(caller);
    const cancelled = signal();
    if (cancelled.aborted) return Promise.reject(cancelled.reason as Error);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        caller,
        since: performance.now(),
        grant: (waitedMs) => {
          cancelled.removeEventListener('abort', leave);
          resolve({ slot: this.take(caller), waitedMs });
        },
      };
      const leave = () => {
        this.dequeue(waiter);
        reject(cancelled.reason as Error);
      };
      cancelled.addEventListener('abort', leave, { once: true });
      this.waiting.push(waiter);
      increment(this.waitingBy, caller);
    });
  }

  /** Calls running and waiting now, for tests and diagnostics. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private canRun(caller: string): boolean {
    const { max, perCaller } = this.limits;
    return (
      (max === undefined || this.running < max) &&
      (perCaller === undefined || (this.runningBy.get(caller) ?? 0) < perCaller)
    );
  }

  /** Refuses a call the queue cannot take, naming the limit that holds it back. */
  private assertMayWait(caller: string): void {
    const { max, perCaller, queue } = this.limits;
    const mine = this.runningBy.get(caller) ?? 0;
    const myWaiting = this.waitingBy.get(caller) ?? 0;
    const atCallerLimit = perCaller !== undefined && mine >= perCaller;
    const full = this.waiting.length >= queue;
    if (atCallerLimit && (full || myWaiting >= perCaller)) {
      throw new ToolBusyError(this.tool, {
        limit: 'perCaller',
        value: perCaller,
        running: mine,
        waiting: myWaiting,
        queue,
      });
    }
    if (full) {
      throw new ToolBusyError(this.tool, {
        limit: 'max',
        value: max!,
        running: this.running,
        waiting: this.waiting.length,
        queue,
      });
    }
  }

  private take(caller: string): ToolSlot {
    this.running++;
    increment(this.runningBy, caller);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        decrement(this.runningBy, caller);
        this.dispatch();
      },
    };
  }

  /** Starts the waiting calls whose limits now allow them, oldest first. */
  private dispatch(): void {
    for (let i = 0; i < this.waiting.length;) {
      const waiter = this.waiting[i]!;
      if (!this.canRun(waiter.caller)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      decrement(this.waitingBy, waiter.caller);
      waiter.grant(performance.now() - waiter.since);
      if (this.limits.max !== undefined && this.running >= this.limits.max) return;
    }
  }

  private dequeue(waiter: Waiter): void {
    const index = this.waiting.indexOf(waiter);
    if (index === -1) return;
    this.waiting.splice(index, 1);
    decrement(this.waitingBy, waiter.caller);
  }
}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Counts that reach 0 are deleted: one entry per caller with calls, never one per caller seen. */
function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 0) - 1;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}

/**
 * The time limit of one call: a signal that aborts with the call's own and when the time
 * runs out, and the race of the method against it. Made only for a tool with `timeoutMs`.
 */
export class ToolDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly tool: string,
    private readonly timeoutMs: number,
    callSignal: AbortSignal,
  ) {
    this.signal = AbortSignal.any([callSignal, this.controller.signal]);
  }

  /**
   * Settles with `work`, or rejects with a {@link ToolTimeoutError} (and aborts the signal
   * with it) when `timeoutMs` passes first; the clock starts now. What `work` comes to
   * after that is dropped.
   */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.timer = setTimeout(() => {
        const timedOut = new ToolTimeoutError(this.tool, this.timeoutMs);
        this.controller.abort(timedOut);
        reject(timedOut);
      }, this.timeoutMs);
      // A pending deadline alone does not keep the process alive.
      this.timer.unref();
      work.then(resolve, reject).finally(() => this.clear());
    });
  }

  /** Stops the clock (the call was answered). */
  clear(): void {
    clearTimeout(this.timer);
  }
}

/**
 * Settles with `work`, or rejects with the signal's reason as soon as it aborts (the
 * client cancelled the call, its task was cancelled): the call's slot is not held by a
 * method that does not honour its signal. Nothing is left listening once it settles.
 */
export function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

import { Logger, type LoggerService } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { errorMessage } from '../utils/value-checks.util.js';

/** How one {@link RedisEventLog} reaches Redis and names itself. */
export interface RedisEventLogOptions {
  /** Runs the appends (XADD); the log duplicates it for its blocking reader and never closes it. */
  readonly client: Redis;
  /** The key of the stream, prefix included. */
  readonly key: string;
  /** This instance's name: entries it appended are not handed to its own listeners. */
  readonly instanceId: string;
  /**
   * About how many entries the stream keeps (`XADD ... MAXLEN ~ n`). An instance away
   * longer than it takes to append that many misses the oldest of them.
   * @default 10_000
   */
  readonly maxLen?: number;
  /**
   * How long one read waits for new entries (`XREAD BLOCK`). It bounds how late a restart
   * of Redis is noticed when no entry arrives to reveal it.
   * @default 5_000
   */
  readonly blockMs?: number;
  /** @default new Logger(RedisEventLog.name) */
  readonly logger?: LoggerService;
}

type Listener = (payload: unknown) => void;
type StreamEntry = [id: string, fields: string[]];

const BATCH = 500;
const RETRY_MS = 250;
// Resent appends are told apart by writer and sequence; the writers of a long-lived stream
// come and go with restarts, so only the most recent ones are remembered.
const MAX_WRITERS = 1_000;

/** `<ms>-<seq>` as a pair that compares in stream order. */
function parseId(id: string): [bigint, bigint] {
  const [ms, seq = '0'] = id.split('-');
  return [BigInt(ms), BigInt(seq)];
}

function compareIds(a: string, b: string): number {
  const [aMs, aSeq] = parseId(a);
  const [bMs, bSeq] = parseId(b);
  if (aMs !== bMs) return aMs < bMs ? -1 : 1;
  return aSeq === bSeq ? 0 : aSeq < bSeq ? -1 : 1;
}

function fieldsOf(flat: readonly string[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i], flat[i + 1]);
  return fields;
}

/**
 * JSON payloads fanned out to every instance through one Redis Stream. A stream rather
 * than pub/sub: a reader that lost its connection resumes after the last entry it read, so
 * nothing appended meanwhile is lost, and nothing is handed over twice.
 *
 * Each entry has the fields `o` (the instance that appended it), `w` and `n` (the writer,
 * one per log object, and its sequence number) and `p` (the payload as JSON). ioredis
 * resends an append whose reply a lost connection swallowed, although Redis may have run
 * it; `w`/`n` let readers drop the second copy.
 */
export class RedisEventLog {
  private readonly client: Redis;
  private readonly key: string;
  private readonly instanceId: string;
  private readonly maxLen: number;
  private readonly blockMs: number;
  private readonly logger: LoggerService;
  private readonly writer = randomUUID();
  private sequence = 0;

  private readonly listeners = new Set<Listener>();
  /** The highest sequence read of each writer, least recently heard first. */
  private readonly heard = new Map<string, number>();
  private reader: Redis | undefined;
  private lastId = '0-0';
  private started: Promise<void> | undefined;
  private loop: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private closed = false;
  /** Resolves when close() is called: a read pending on a dead connection is not awaited. */
  private readonly stopped: Promise<void>;
  private stop: () => void = () => undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private down = false;
  private recheck = false;

  constructor(options: RedisEventLogOptions) {
    this.client = options.client;
    this.key = options.key;
    this.instanceId = options.instanceId;
    this.maxLen = options.maxLen ?? 10_000;
    this.blockMs = options.blockMs ?? 5_000;
    this.logger = options.logger ?? new Logger(RedisEventLog.name);
    this.stopped = new Promise((resolve) => (this.stop = resolve));
  }

  /**
   * Appends `payload` (as JSON); resolves once Redis stored it. While Redis is away the
   * client's offline queue holds it, as its options say.
   */
  async append(payload: unknown): Promise<void> {
    const json = JSON.stringify(payload);
    if (json === undefined) throw new TypeError(`Cannot append ${typeof payload} to ${this.key}`);
    this.sequence += 1;
    await this.client.xadd(
      this.key,
      'MAXLEN',
      '~',
      this.maxLen,
      '*',
      'o',
      this.instanceId,
      'w',
      this.writer,
      'n',
      this.sequence,
      'p',
      json,
    );
  }

  /**
   * Calls `listener` with each entry other instances append after {@link start}, once
   * each, in stream order, until the returned function is called.
   */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Notes where the stream ends, so that whatever is appended from now on is read, then
   * reads in the background until {@link close}. Rejects if Redis cannot be asked (the
   * reader's connection is open until close()).
   */
  start(): Promise<void> {
    this.started ??= this.begin();
    return this.started;
  }

  /** Stops reading and closes the reader's connection (never the client); idempotent. */
  close(): Promise<void> {
    this.closing ??= this.end();
    return this.closing;
  }

  private async begin(): Promise<void> {
    if (this.closed) return;
    // Its own connection: XREAD BLOCK holds it. The legacy reply mapping keeps the replies
    // in arrays whatever the client's mapping is; a command timeout shorter than the block
    // would fail every quiet read.
    const reader = this.client.duplicate({ replyMapping: 'legacy', commandTimeout: undefined });
    this.reader = reader;
    // Without a listener ioredis prints every failed reconnection attempt to the console.
    reader.on('error', (error: unknown) =>
      this.logger.debug?.(`Redis stream ${this.key}: ${errorMessage(error)}`),
    );
    // ioredis resends the pending read after a reconnection; whether Redis came back empty
    // is checked once that read returns.
    reader.on('close', () => {
      if (this.closed) return;
      this.lostConnection('connection closed');
      this.recheck = true;
    });
    const last = await this.untilStopped(this.lastEntryId(reader));
    if (this.closed || last === undefined) return;
    this.lastId = last;
    this.loop = this.run(reader);
  }

  private async end(): Promise<void> {
    this.closed = true;
    this.stop();
    clearTimeout(this.retryTimer);
    const reader = this.reader;
    if (!reader) return;
    // Only an open socket is sure to report its end; one between reconnections has none.
    const ended =
      reader.status === 'ready' || reader.status === 'connect'
        ? new Promise((resolve) => reader.once('end', resolve))
        : undefined;
    reader.disconnect();
    await Promise.all([ended, this.loop]);
  }

  private async run(reader: Redis): Promise<void> {
    while (!this.closed) {
      try {
        if (this.recheck) {
          this.recheck = false;
          await this.untilStopped(this.realign(reader));
          if (this.closed) return;
        }
        const reply = await this.untilStopped(
          reader.xread('COUNT', BATCH, 'BLOCK', this.blockMs, 'STREAMS', this.key, this.lastId),
        );
        if (this.closed) return;
        this.recovered();
        for (const [, entries] of reply ?? []) {
          for (const entry of entries) this.deliver(entry);
        }
      } catch (error) {
        if (this.closed) return;
        this.lostConnection(errorMessage(error));
        this.recheck = true;
        const pause = new Promise((resolve) => (this.retryTimer = setTimeout(resolve, RETRY_MS)));
        await this.untilStopped(pause);
      }
    }
  }

  /** `pending`, or undefined once close() was called, whichever comes first. */
  private untilStopped<T>(pending: Promise<T>): Promise<T | undefined> {
    pending.catch(() => undefined);
    return Promise.race([pending, this.stopped.then(() => undefined)]);
  }

  private async lastEntryId(reader: Redis): Promise<string> {
    const [last] = (await reader.xrevrange(this.key, '+', '-', 'COUNT', 1)) as StreamEntry[];
    return last?.[0] ?? '0-0';
  }

  /**
   * After a lost connection: a stream that now ends before the last entry read is a Redis
   * that came back without its data. Reading on from the old position would skip every
   * new entry with a lower id, so reading goes on from the stream's new end.
   */
  private async realign(reader: Redis): Promise<void> {
    const last = await this.lastEntryId(reader);
    if (compareIds(last, this.lastId) >= 0) return;
    this.logger.warn(
      `Redis stream ${this.key} now ends at ${last}, before ${this.lastId} that this instance ` +
        'had read: Redis lost its data, and entries appended meanwhile may have been lost ' +
        'with it. Reading on from the new end.',
    );
    this.lastId = last;
  }

  private deliver([id, flat]: StreamEntry): void {
    this.lastId = id;
    const fields = fieldsOf(flat);
    if (fields.get('o') === this.instanceId) return;
    if (this.isRepeat(fields.get('w'), Number(fields.get('n')))) return;
    const json = fields.get('p');
    let payload: unknown;
    try {
      if (json === undefined) throw new Error('no field p');
      payload = JSON.parse(json);
    } catch (error) {
      this.logger.debug?.(
        `Skipped entry ${id} of Redis stream ${this.key}: ${errorMessage(error)}`,
      );
      return;
    }
    for (const listener of this.listeners) {
      try {
        listener(payload);
      } catch (error) {
        this.logger.error(
          `A listener of Redis stream ${this.key} failed on entry ${id}: ${errorMessage(error)}`,
          error instanceof Error ? error.stack : undefined,
        );
      }
    }
  }

  /** Whether this writer's entry was read before (a resent append); remembers it if not. */
  private isRepeat(writer: string | undefined, sequence: number): boolean {
    if (writer === undefined || !Number.isSafeInteger(sequence)) return false;
    const previous = this.heard.get(writer);
    if (previous !== undefined && sequence <= previous) return true;
    this.heard.delete(writer);
    this.heard.set(writer, sequence);
    if (this.heard.size > MAX_WRITERS) this.heard.delete(this.heard.keys().next().value as string);
    return false;
  }

  private lostConnection(reason: string): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn(
      `Lost Redis stream ${this.key} (${reason}); reading resumes after entry ${this.lastId} ` +
        'once Redis is back.',
    );
  }

  private recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log(`Redis stream ${this.key} is back; resumed after entry ${this.lastId}.`);
  }
}

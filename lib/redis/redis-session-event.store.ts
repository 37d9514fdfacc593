import { createHash } from 'node:crypto';
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Redis } from 'ioredis';
import { positiveInteger } from '../utils/value-checks.util.js';

/** Options of {@link RedisSessionEventStore}. */
export interface RedisSessionEventStoreOptions {
  /** The connection; the store never closes it. */
  readonly client: Redis;
  /** Put before every key of the store, e.g. `'mcp:catalog:'`. */
  readonly keyPrefix: string;
  /**
   * How many events of one stream are kept for a client that reconnects; older ones are
   * dropped as new ones arrive.
   * @default 100
   */
  readonly maxEventsPerStream?: number;
  /**
   * How long the events of a stream are kept after its last event, in milliseconds.
   * @default 1_800_000 (30 minutes)
   */
  readonly ttlMs?: number;
}

const DEFAULT_MAX_EVENTS_PER_STREAM = 100;
const DEFAULT_TTL_MS = 1_800_000;

// One script, so that the counter, the append, the trim and both expiries happen together:
// no instance sees a stream with a number given out and no event, or an event without TTL.
// An entry is `<seq> <message JSON>`; the event id is rebuilt from the stream's id and seq.
const STORE_EVENT_SCRIPT = `
local seq = redis.call('INCR', KEYS[2])
redis.call('RPUSH', KEYS[1], seq .. ' ' .. ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return seq
`;
const STORE_EVENT_SHA = createHash('sha1').update(STORE_EVENT_SCRIPT).digest('hex');

const positive = (name: string, value: number) =>
  positiveInteger('RedisSessionEventStore', name, value);

/** The stream of an event id `<streamId>:<seq>`, as the in-memory store reads it. */
function streamOf(eventId: string): string | undefined {
  const separator = eventId.lastIndexOf(':');
  return separator > 0 ? eventId.slice(0, separator) : undefined;
}

/**
 * The events of resumable 2025 SSE streams in Redis, shared by every instance of the app
 * (docs/scale-out.md), with the behaviour of the in-memory `SessionEventStore`: ids
 * `<streamId>:<seq>`, a bound per stream, priming events (`{}`) never replayed, replay of
 * what is kept when the client's last id was trimmed away. A stream's events expire
 * `ttlMs` after its last one, as the in-memory ones go with their session.
 *
 * The SDK names the standalone GET stream of every session `_GET_stream`, so one store (one
 * key prefix) must serve one session: a prefix shared by sessions would mix their
 * standalone streams.
 */
export class RedisSessionEventStore implements EventStore {
  private readonly client: Redis;
  private readonly keyPrefix: string;
  private readonly maxEventsPerStream: number;
  private readonly ttlMs: number;

  constructor(options: RedisSessionEventStoreOptions) {
    this.client = options.client;
    this.keyPrefix = options.keyPrefix;
    this.maxEventsPerStream = positive(
      'maxEventsPerStream',
      options.maxEventsPerStream ?? DEFAULT_MAX_EVENTS_PER_STREAM,
    );
    this.ttlMs = positive('ttlMs', options.ttlMs ?? DEFAULT_TTL_MS);
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const keys = [this.eventsKey(streamId), this.sequenceKey(streamId)];
    const args = [JSON.stringify(message), this.maxEventsPerStream, this.ttlMs];
    let seq: unknown;
    try {
      seq = await this.client.evalsha(STORE_EVENT_SHA, keys.length, ...keys, ...args);
    } catch (error) {
      // A fresh or flushed server does not know the script yet; EVAL loads it.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      seq = await this.client.eval(STORE_EVENT_SCRIPT, keys.length, ...keys, ...args);
    }
    return `${streamId}:${String(seq)}`;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const streamId = streamOf(eventId);
    if (streamId === undefined) return undefined;
    // Redis deletes an empty list: a stream whose key exists has events.
    return (await this.client.exists(this.eventsKey(streamId))) > 0 ? streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = streamOf(lastEventId);
    if (streamId === undefined) return '';
    const entries = await this.client.lrange(this.eventsKey(streamId), 0, -1);
    if (entries.length === 0) return '';
    const events = entries.map((entry) => {
      const space = entry.indexOf(' ');
      return {
        id: `${streamId}:${entry.slice(0, space)}`,
        message: JSON.parse(entry.slice(space + 1)) as JSONRPCMessage,
      };
    });
    // Not found (trimmed away): -1, so everything kept is replayed.
    const after = events.findIndex((event) => event.id === lastEventId);
    // The priming event is stored as `{}` and carries nothing to replay.
    for (const event of events.slice(after + 1)) {
      if (Object.keys(event.message).length > 0) await send(event.id, event.message);
    }
    return streamId;
  }

  // The hash tag puts both keys of a stream in one Redis Cluster slot, as the script needs.
  private eventsKey(streamId: string): string {
    return `${this.keyPrefix}events:{${streamId}}`;
  }

  private sequenceKey(streamId: string): string {
    return `${this.keyPrefix}events:{${streamId}}:seq`;
  }
}

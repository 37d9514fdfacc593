import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** How many events of one stream are kept for a client that reconnects. */
const EVENTS_KEPT_PER_STREAM = 100;

/** How many streams of one session are kept, by default (`http.legacySessions`). */
export const DEFAULT_MAX_STREAMS_PER_SESSION = 16;

/** Options of {@link SessionEventStore}. */
export interface SessionEventStoreOptions {
  /**
   * At most this many streams are kept; a new one evicts the stream whose last event is
   * the oldest.
   * @default 16
   */
  readonly maxStreamsPerSession?: number;
}

/**
 * The events of one 2025 session's SSE streams, kept in memory so that a client whose
 * stream broke can resume with `Last-Event-ID` (2025-11-25 resumability and polling,
 * SEP-1699): the SDK's sessionful transport sends a priming event with an id and a
 * `retry` hint, stores every event here, and replays what came after the client's last
 * id. Bounded per stream (100 events) and per session (`maxStreamsPerSession` streams:
 * every POST answered as a stream opens one, so a long session would otherwise keep them
 * all); dropped with the session.
 */
export class SessionEventStore implements EventStore {
  /** In the order of their last event: the first is the one to evict. */
  private readonly streams = new Map<string, Array<{ id: string; message: JSONRPCMessage }>>();
  private readonly maxStreams: number;
  private sequence = 0;

  constructor(options: SessionEventStoreOptions = {}) {
    this.maxStreams = options.maxStreamsPerSession ?? DEFAULT_MAX_STREAMS_PER_SESSION;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}:${(this.sequence += 1)}`;
    const events = this.streams.get(streamId) ?? [];
    events.push({ id, message });
    if (events.length > EVENTS_KEPT_PER_STREAM) events.shift();
    // Moved to the end: the stream written last is the last to go.
    this.streams.delete(streamId);
    this.streams.set(streamId, events);
    for (const stale of this.streams.keys()) {
      if (this.streams.size <= this.maxStreams) break;
      this.streams.delete(stale);
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const separator = eventId.lastIndexOf(':');
    const streamId = separator > 0 ? eventId.slice(0, separator) : undefined;
    return streamId !== undefined && this.streams.has(streamId) ? streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) return '';
    const events = this.streams.get(streamId) ?? [];
    const after = events.findIndex((event) => event.id === lastEventId);
    // The priming event is stored as `{}` and carries nothing to replay.
    for (const event of events.slice(after + 1)) {
      if (Object.keys(event.message).length > 0) await send(event.id, event.message);
    }
    return streamId;
  }
}

// What bench/slow-readers.ts and its server process (slow-readers-server.process.ts) say to
// each other.

/** The resource whose updates the server broadcasts. */
export const FEED = 'bench://feed';

/** What the driver asks; sent with an `id` the reply repeats. */
export type SlowReadersAsk =
  | { command: 'memory' }
  | { command: 'publish'; count: number; durationMs: number }
  | { command: 'close' };

export type SlowReadersCommand = SlowReadersAsk & { id: number };

export interface MemoryFigures {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface PublishFigures {
  elapsedMs: number;
  /** The largest RSS seen while publishing (sampled every 20 ms, no GC forced). */
  peakRss: number;
  peakHeapUsed: number;
  /** Streams closed at `http.maxStreamBufferBytes` so far. */
  closedStreams: number;
}

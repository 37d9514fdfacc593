/** What a bench server process serves. */
export type ServerSpec =
  | { kind: 'ceiling' }
  | { kind: 'raw-sdk'; bridge?: 'sdk' | 'lean' | 'sdk-als' }
  | { kind: 'mcp'; tools: number; mcp?: boolean };

/** A command from the bench runner to a server process. */
export type ServerCommand =
  | { id: number; command: 'cpu-start' }
  | { id: number; command: 'cpu-stop' }
  | { id: number; command: 'memory' }
  | { id: number; command: 'close' };

/** Sent once the server listens. */
export interface ReadyMessage {
  type: 'ready';
  port: number;
  /** Milliseconds from before the app module was made to `listen()` resolving. */
  bootMs: number;
  /** Milliseconds from process start (`performance.timeOrigin`) to the same point. */
  sinceProcessStartMs: number;
}

/** CPU time the server process used between `cpu-start` and `cpu-stop`. */
export interface CpuReading {
  userUs: number;
  systemUs: number;
  /** HTTP requests the server received in that window. */
  requests: number;
  wallMs: number;
  /** When the window opened, in ms since the server process started (`performance.now()`). */
  startedAtMs: number;
}

/** `process.memoryUsage()` after forced garbage collection. */
export interface MemoryReading {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

export type ServerReply =
  | { id: number; ok: true; cpu?: CpuReading; memory?: MemoryReading }
  | { id: number; ok: false; error: string };

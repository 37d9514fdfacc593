import type { MemoryReading } from './ipc.js';

/**
 * What one server of the listeners bench holds open: (p) a plain Nest `@Sse()` route, the
 * ceiling; (a) 2026-07-28 `subscriptions/listen` streams on our endpoint; (b) 2025 sessions,
 * each initialized, subscribed to the resource and holding its GET stream.
 */
export type ListenersScenario = 'plain' | 'listen-2026' | 'sessions-2025';

export const LISTENERS_SCENARIOS: readonly ListenersScenario[] = [
  'plain',
  'listen-2026',
  'sessions-2025',
];

/** The resource every stream hears of, and the route of the plain app. */
export const TICKER_URI = 'bench://ticker';
export const PLAIN_EVENTS_PATH = '/events';
/** What a client looks for in its stream: one broadcast, on every scenario. */
export const BROADCAST_MARKER = 'notifications/resources/updated';

export interface ListenersServerSpec {
  scenario: ListenersScenario;
  /** How many streams the app must admit (its limits are raised to it). */
  capacity: number;
}

/**
 * The event-loop delay while idle, sampled every 10 ms: each sample is the time between two
 * samples, the 10 ms included (a loop that never waits reads 10 ms). `fineP99Ms`: the p99
 * of samples taken every 1 ms over the same window.
 */
export interface LoopDelayReading {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  fineP99Ms: number;
  /** The server's CPU time per second over a window as long before it, without samplers. */
  cpuMsPerSecond: number;
  seconds: number;
}

export interface ServerMemory extends MemoryReading {
  /** Open TCP connections of the HTTP server. */
  connections: number;
}

/** A command from the parent (bench/listeners.ts) to a listeners server or client process. */
export type ListenersCommand =
  | { id: number; command: 'memory' }
  | { id: number; command: 'loop-delay'; seconds: number }
  | { id: number; command: 'broadcast' }
  | { id: number; command: 'broadcast-cpu' }
  | { id: number; command: 'snapshot'; file: string }
  | { id: number; command: 'profile-start' }
  | { id: number; command: 'profile-stop'; file: string }
  | { id: number; command: 'open'; port: number; count: number; batch: number }
  | { id: number; command: 'round'; round: number; timeoutMs: number }
  | { id: number; command: 'close' };

export interface OpenReading {
  opened: number;
  failed: number;
  ms: number;
  /** The first failure, for the log. */
  firstError?: string;
}

/** When the streams received round `round`'s broadcast (ms since the epoch, sub-ms). */
export interface RoundReading {
  received: number;
  firstAt: number;
  medianAt: number;
  lastAt: number;
  /** Streams the server ended since they opened. */
  dropped: number;
}

export type ListenersReply =
  | {
      id: number;
      ok: true;
      memory?: ServerMemory;
      delay?: LoopDelayReading;
      /** The server's clock when it published the change (ms since the epoch, sub-ms). */
      triggeredAt?: number;
      /** The server's CPU time since the last broadcast's trigger. */
      cpuMs?: number;
      open?: OpenReading;
      round?: RoundReading;
    }
  | { id: number; ok: false; error: string };

/** One clock for every process of the run: performance's, anchored on the epoch. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

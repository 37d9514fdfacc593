/** What the soak's server process reports (bench/support/soak-server.process.ts). */
export interface SoakSample {
  /** Why it was taken: the 10 s timer, or a mark the driver asked for. */
  kind: 'periodic' | 'mark';
  label?: string;
  /** Seconds since the server listened. */
  atS: number;
  /** HTTP requests the server received so far. */
  requests: number;
  /** `heapUsed` after two forced full collections, in bytes. */
  heapUsed: number;
  rss: number;
  /** Entries of /proc/self/fd. */
  fds: number;
  /** `process.getActiveResourcesInfo()`: the count, and the count of each kind. */
  handles: number;
  handleKinds: Record<string, number>;
  /** Event-loop delay since the previous sample (before the collection), in ms. */
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  /** What the app counted (bench/apps/soak.app.ts). */
  counters: { slowStarted: number; slowAborted: number; slowFinished: number; tasksRun: number };
}

/** From the server process to the driver. */
export type SoakServerMessage =
  | { type: 'ready'; port: number }
  | { type: 'sample'; sample: SoakSample; id?: number }
  | { type: 'closed'; id: number };

/** From the driver to the server process. */
export type SoakCommand =
  { id: number; command: 'sample'; label: string } | { id: number; command: 'close' };

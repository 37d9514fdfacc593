/** What happened to each kind of request, and a few samples of each unexpected answer. */
export interface SoakCounts {
  requests: number;
  answers: Record<string, number>;
  failures: Record<string, { count: number; samples: string[] }>;
}

const SAMPLES_KEPT = 3;

const sorted = <T>(map: Map<string, T>) =>
  Object.fromEntries([...map].toSorted(([a], [b]) => a.localeCompare(b)));

/** Counts every answer by kind: the expected ones, and the failures with samples. */
export class SoakTally {
  requests = 0;
  private readonly answers = new Map<string, number>();
  private readonly failures = new Map<string, { count: number; samples: string[] }>();

  ok(kind: string): void {
    this.answers.set(kind, (this.answers.get(kind) ?? 0) + 1);
  }

  fail(kind: string, problem: string): void {
    const failure = this.failures.get(kind) ?? { count: 0, samples: [] };
    failure.count += 1;
    if (failure.samples.length < SAMPLES_KEPT) failure.samples.push(problem);
    this.failures.set(kind, failure);
  }

  get failureCount(): number {
    let count = 0;
    for (const failure of this.failures.values()) count += failure.count;
    return count;
  }

  snapshot(): SoakCounts {
    return {
      requests: this.requests,
      answers: sorted(this.answers),
      failures: structuredClone(sorted(this.failures)),
    };
  }
}

/**
 * Releases requests at a steady rate: the n-th request may start at `n / rate` seconds.
 * A driver that fell more than a second behind starts over from now rather than burst.
 */
export class SoakPacer {
  private startedAt = performance.now();
  private issued = 0;
  /** Times the driver fell a second behind the rate. */
  fellBehind = 0;

  constructor(private readonly perSecond: number) {}

  async take(): Promise<void> {
    let due = this.startedAt + (this.issued * 1000) / this.perSecond;
    const now = performance.now();
    if (now - due > 1000) {
      this.fellBehind += 1;
      this.startedAt = now;
      this.issued = 0;
      due = now;
    }
    this.issued += 1;
    if (due > now) await new Promise((resolve) => setTimeout(resolve, due - now));
  }
}

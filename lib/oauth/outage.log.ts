/** How often an outage of the authorization server is warned about at most. */
const OUTAGE_WARNING_INTERVAL_MS = 60_000;

/**
 * Keeps an outage of the authorization server (a 503 per request while it is down or
 * rate-limits) from flooding the app's log: one warning a minute at most, which says how
 * many refusals were kept back since the previous one.
 */
export class OutageLog {
  private lastWarnedAt = Number.NEGATIVE_INFINITY;
  private heldBack = 0;

  constructor(private readonly intervalMs = OUTAGE_WARNING_INTERVAL_MS) {}

  /**
   * Records one refusal. @returns how many were kept back since the last warning when a
   * warning is due now, else `undefined` (this one is kept back).
   */
  record(now = Date.now()): number | undefined {
    if (now - this.lastWarnedAt < this.intervalMs) {
      this.heldBack += 1;
      return undefined;
    }
    const heldBack = this.heldBack;
    this.lastWarnedAt = now;
    this.heldBack = 0;
    return heldBack;
  }
}

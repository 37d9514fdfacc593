import { describe, expect, it } from 'vitest';
import { InFlightRequests } from '../../../lib/transports/http/in-flight-requests.tracker.js';

describe('InFlightRequests', () => {
  it('is drained at once when nothing is in flight', async () => {
    expect(await new InFlightRequests().drained(10_000)).toBe(true);
  });

  it('counts each request once, however often it is released', () => {
    const tracker = new InFlightRequests();
    const release = tracker.enter();
    tracker.enter();
    release();
    release();
    expect(tracker.size).toBe(1);
  });

  it('tells every waiter when the last request is released, not only the last waiter', async () => {
    const tracker = new InFlightRequests();
    const release = tracker.enter();
    // Two shutdowns that overlap: both are answered when the request is, not at their timeout.
    const first = tracker.drained(60_000);
    const second = tracker.drained(60_000);
    release();
    expect(await Promise.all([first, second])).toEqual([true, true]);
  });

  it('answers false when the timeout comes first, and forgets that waiter', async () => {
    const tracker = new InFlightRequests();
    const release = tracker.enter();
    expect(await tracker.drained(10)).toBe(false);
    const later = tracker.drained(60_000);
    release();
    expect(await later).toBe(true);
  });

  it('cuts off the requests still in flight, past one whose cut-off fails, and keeps counting them', () => {
    const tracker = new InFlightRequests();
    const cut: string[] = [];
    const answered = tracker.enter(() => cut.push('answered'));
    tracker.enter(() => {
      throw new Error('the response is gone');
    });
    tracker.enter(() => cut.push('running'));
    answered();
    expect(tracker.cutOff()).toBe(2);
    expect(cut).toEqual(['running']);
    // Released only when their handling ends, as any other request.
    expect(tracker.size).toBe(2);
  });
});

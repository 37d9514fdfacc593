import { describe, expect, it } from 'vitest';
import { OutageLog } from '../../lib/oauth/outage.log.js';

describe('OutageLog', () => {
  it('lets one warning a minute through, with how many were kept back since the last', () => {
    const log = new OutageLog();
    const t0 = 1_800_000_000_000;
    expect(log.record(t0)).toBe(0);
    expect(log.record(t0 + 1_000)).toBeUndefined();
    expect(log.record(t0 + 59_999)).toBeUndefined();
    expect(log.record(t0 + 60_000)).toBe(2);
    expect(log.record(t0 + 60_001)).toBeUndefined();
    expect(log.record(t0 + 180_000)).toBe(1);
  });
});

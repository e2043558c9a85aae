/**
 * The three-feeds run on a short day: two hours, the second of which has one feed frozen and one
 * jumping at once. The first hour has a reference nearly always; the second has none (one usable
 * source, fewer than minSources), and no second anywhere breaks the rules.
 */
import { describe, expect, it } from 'vitest';

import { runThreeFeeds } from '../../src/lab/reference-feeds/three-feeds-run.js';

describe('the three-feeds run', () => {
  it('never a reference below minSources or off the median; none while two feeds are bad', async () => {
    const r = await runThreeFeeds({ seed: 3, hours: 2 });
    expect(r.seconds).toBe(7_200);
    expect([r.belowMinSources, r.offMedian, r.frozenUsed, r.jumpUsed]).toEqual([0, 0, 0, 0]);
    expect(r.withReference).toBeGreaterThan(3_500);
    expect(r.withReference).toBeLessThan(3_700);
    expect(r.noReferenceInFaults).toBeGreaterThan(3_500);
    expect(r.maxAbsErrorBps).toBeLessThan(10);
    // The frozen feed goes stale maxAgeMs (5 s) into its freeze; the jump is caught at once.
    expect(r.frozenStale).toBeGreaterThan(3_590);
    expect(r.jumpOutlier).toBeGreaterThan(3_590);
  }, 60_000);
});

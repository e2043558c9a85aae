import { describe, expect, it } from 'vitest';
import type { FaultSpecInput } from '../../src/sim/faults.js';
import { baseConfig, daemonEnv, type DaemonEnv } from './support/daemon-env.js';

/**
 * The longest gap of each side (no resting order of ours on it) with a fault on the 3rd placement, at the venue's realistic latencies
 * (about 45 s a placement) on a moving market (the GBM reference; no takers, so no gap is a fill), under the default policy (`proceed`) and the old
 * one (`wait`). A gap is a stretch in which a pair lacks a resting bid or ask of ours on the venue
 * (ground truth, sampled every second), counted from the daemon's start: the fault hits the 3rd
 * placement, a side's first, so its pair stays one-sided while the order is unknown. Without a
 * fault the longest gap is the start itself (four placements in a row). The figures are printed;
 * the test holds the default to at least as good as the old policy on every side but the faulted one,
 * and that one to at most one placement worse.
 */

const FAULTS: Record<string, FaultSpecInput | null> = {
  none: null,
  '504, never commits': { kind: 'error', endpoint: 'submit', status: 504, effect: false, at: 3 },
  '504, commits': { kind: 'error', endpoint: 'submit', status: 504, effect: true, at: 3 },
  '200, never confirms': { kind: 'no-commit', at: 3 },
};
const RUN_MS = 15 * 60_000;
/** One placement at the realistic latencies: prepare 9-14 s, submit 18-20 s, commit 11-13 s later. */
const ONE_PLACEMENT_MS = 47_000;

/**
 * The longest stretch in which each side of each pair had no resting order of ours, from the
 * daemon's start, ms, keyed `pair side`.
 */
async function longestGaps(
  fault: FaultSpecInput | null,
  policy: 'proceed' | 'wait',
): Promise<Record<string, number>> {
  const e: DaemonEnv = daemonEnv({
    latency: 'realistic',
    takers: false,
    seed: 5,
    config: (store) => ({ ...baseConfig(store), execution: { afterUnknown: policy } }),
  });
  try {
    if (fault !== null) e.venue.addFault(fault);
    void e.daemon.start();
    const sides = ['BTC/USDC BUY', 'BTC/USDC SELL', 'ETH/USDC BUY', 'ETH/USDC SELL'];
    const since = new Map<string, number | null>(sides.map((s) => [s, e.fake.now]));
    const longest: Record<string, number> = Object.fromEntries(sides.map((s) => [s, 0]));
    for (let t = 0; t < RUN_MS; t += 1_000) {
      await e.fake.tickAsync(1_000);
      const resting = new Set(e.resting().map((o) => `${o.pair} ${o.side}`));
      for (const s of sides) {
        const start = since.get(s) ?? null;
        if (resting.has(s)) since.set(s, null);
        else if (start === null) since.set(s, e.fake.now);
        else longest[s] = Math.max(longest[s] ?? 0, e.fake.now - start);
      }
    }
    return longest;
  } finally {
    await e.dispose();
  }
}

describe('the longest one-sided gap per fault, realistic latency', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`${name}`, async () => {
      const proceed = await longestGaps(fault, 'proceed');
      const wait = await longestGaps(fault, 'wait');
      const fmt = (g: Record<string, number>): string =>
        Object.entries(g)
          .map(([p, ms]) => `${p} ${(ms / 1000).toFixed(0)} s`)
          .join(', ');
      console.log(`fault ${name}: longest gap per side, proceed: ${fmt(proceed)}; wait: ${fmt(wait)}`);
      // Every other side: never worse than the old policy. The faulted side (the longest gap): at
      // most one placement worse. When its unknown order is settled, 'wait' has nothing else in
      // flight, while 'proceed' may be in the middle of another side's placement, which the
      // replacement must wait for (one placement in flight per party).
      const ranked = (g: Record<string, number>): number[] => Object.values(g).sort((a, b) => b - a);
      const [faultedP = 0, othersP = 0] = ranked(proceed);
      const [faultedW = 0, othersW = 0] = ranked(wait);
      expect(faultedP).toBeLessThanOrEqual(faultedW + ONE_PLACEMENT_MS);
      expect(othersP).toBeLessThanOrEqual(othersW + 30_000);
    }, 240_000);
  }
});

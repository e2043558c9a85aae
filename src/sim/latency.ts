/**
 * The delays the simulated venue applies, by kind of work. Each is a uniform range in clock
 * milliseconds.
 *
 * | key | what | realistic |
 * |---|---|---|
 * | prepare | POST /orders answering 202 | 9–14 s |
 * | cancelPrepare | POST /orders/{id}/cancel | 11–23 s |
 * | submit | POST {submit_url} answering 200 | 18–20 s |
 * | confirm | from the submit answer until a placement commits (reads OPEN) | 11–13 s |
 * | cancelConfirm | from the submit answer until a cancel commits | 11–13 s |
 * | balancesCold | GET /balances on a cold wallet cache | 10.5–14 s |
 * | balancesWarm | GET /balances on a warm cache | 0.3–1 s |
 * | ordersRefresh | GET /orders with refreshWallet=true (the default) | 25–40 s |
 * | ordersNoRefresh | GET /orders with refreshWallet=false | 0.2–1 s |
 * | read | every other read, public ones included | 50–300 ms |
 * | error | a request refused before any ledger work (auth, validation) | 50–300 ms |
 *
 * `fast` is `realistic` × 0.05; `instant` is 0 everywhere (commits still happen on a 0 ms timer,
 * never inside the submit call).
 */
import { z } from 'zod';
import type { Rng } from './rng.js';

/** See the module doc. */
export const LATENCY_KEYS = [
  'prepare',
  'cancelPrepare',
  'submit',
  'confirm',
  'cancelConfirm',
  'balancesCold',
  'balancesWarm',
  'ordersRefresh',
  'ordersNoRefresh',
  'read',
  'error',
] as const;
export type LatencyKey = (typeof LATENCY_KEYS)[number];

/** A latency range `[min, max]` in ms, or one fixed value. */
export type LatencyRange = readonly [number, number];

export const LATENCY_PROFILES = ['realistic', 'fast', 'instant'] as const;
export type LatencyProfile = (typeof LATENCY_PROFILES)[number];

const REALISTIC: Record<LatencyKey, LatencyRange> = {
  prepare: [9_000, 14_000],
  cancelPrepare: [11_000, 23_000],
  submit: [18_000, 20_000],
  confirm: [11_000, 13_000],
  cancelConfirm: [11_000, 13_000],
  balancesCold: [10_500, 14_000],
  balancesWarm: [300, 1_000],
  ordersRefresh: [25_000, 40_000],
  ordersNoRefresh: [200, 1_000],
  read: [50, 300],
  error: [50, 300],
};

const Ms = z
  .number()
  .min(0)
  .max(24 * 3_600_000);
const RangeSchema = z.union([Ms, z.tuple([Ms, Ms]).refine(([a, b]) => a <= b, 'min must not exceed max')]);

/** The `latency` section of the sim config. */
export const LatencyConfigSchema = z.strictObject({
  profile: z.enum(LATENCY_PROFILES).default('realistic'),
  /** Any single range, replacing the profile's: a number (fixed) or `[min, max]`. */
  overrides: z.partialRecord(z.enum(LATENCY_KEYS), RangeSchema).default({}),
});
export type LatencyConfig = z.output<typeof LatencyConfigSchema>;

/** The ranges of a profile before overrides. */
export function profileRanges(profile: LatencyProfile): Record<LatencyKey, LatencyRange> {
  const factor = profile === 'realistic' ? 1 : profile === 'fast' ? 0.05 : 0;
  const out = {} as Record<LatencyKey, LatencyRange>;
  for (const k of LATENCY_KEYS) {
    const [a, b] = REALISTIC[k];
    out[k] = [a * factor, b * factor];
  }
  return out;
}

/** Samples delays from a profile with overrides, on its own seeded stream. */
export class LatencyModel {
  readonly ranges: Record<LatencyKey, LatencyRange>;

  constructor(
    config: LatencyConfig,
    private readonly rng: Rng,
  ) {
    this.ranges = profileRanges(config.profile);
    for (const [k, v] of Object.entries(config.overrides) as [
      LatencyKey,
      number | LatencyRange | undefined,
    ][]) {
      if (v === undefined) continue;
      this.ranges[k] = typeof v === 'number' ? [v, v] : v;
    }
  }

  /** A delay for `key`, whole milliseconds. Fixed ranges draw nothing from the stream. */
  sample(key: LatencyKey): number {
    const [min, max] = this.ranges[key];
    if (max <= min) return Math.round(min);
    return Math.round(this.rng.uniform(min, max));
  }
}

/**
 * The three-feeds run: the "exchanges" reference on three simulated feeds of a seeded true
 * price, one of which freezes and one of which jumps, through the real streams and median
 * (`src/market/reference/`) on fake timers. Every second it takes the reference the strategy
 * would take and checks the rules: a reference only from at least `minSources` used sources, and
 * always their weighted median; the frozen feed never used once stale, the jumping one never
 * used while off. It reports how often there was a reference and how far it was from the truth.
 */
import FakeTimers from '@sinonjs/fake-timers';

import { fakeClock } from '../../core/clock.js';
import { combineSources, deviationBps, weightedMedian } from '../../market/reference/combine-sources.js';
import { type ExchangesSettings, ExchangesReference } from '../../market/reference/exchanges-reference.js';
import { gbmStep, MS_PER_YEAR } from '../../sim/market/reference-price.js';
import { SimReferenceFeeds, type SimFeedSpec } from '../../sim/reference-feeds.js';
import { Rng } from '../../sim/rng.js';
import { Dec } from '../../core/decimal.js';

const T0 = Date.UTC(2026, 10, 28);
const HOUR = 3_600_000;

/** Options of {@link runThreeFeeds}. */
export interface ThreeFeedsOptions {
  readonly seed: number;
  readonly hours: number;
  /** Annualised σ of the true price. Default 0.6. */
  readonly volatility?: number;
}

/** What a run measured. */
export interface ThreeFeedsResult {
  readonly seed: number;
  readonly seconds: number;
  readonly withReference: number;
  /** Seconds with a reference from fewer than minSources used sources (must be 0). */
  readonly belowMinSources: number;
  /** Seconds whose reference is not the weighted median of its used sources (must be 0). */
  readonly offMedian: number;
  /** Seconds the frozen feed was used after maxAgeMs into its freeze (must be 0). */
  readonly frozenUsed: number;
  /** Seconds the jumping feed was used while it jumped (must be 0). */
  readonly jumpUsed: number;
  /** Seconds of the freeze during which the frozen feed was judged stale. */
  readonly frozenStale: number;
  /** Seconds of the jump during which the jumping feed was judged an outlier. */
  readonly jumpOutlier: number;
  readonly meanAbsErrorBps: number;
  readonly maxAbsErrorBps: number;
  /** Seconds without a reference inside and outside the fault windows. */
  readonly noReferenceInFaults: number;
  readonly noReferenceElsewhere: number;
}

/** The settings of the run's pair (as `strategy.*.exchanges`). */
export const THREE_FEEDS_SETTINGS: ExchangesSettings = {
  sources: [
    { exchange: 'sima', symbol: 'BTC/USDC' },
    { exchange: 'simb', symbol: 'BTC/USDC' },
    { exchange: 'simc', symbol: 'BTC/USDC' },
  ],
  minSources: 2,
  maxAgeMs: 5_000,
  maxDeviationBps: 30,
  pollIntervalMs: 1_000,
  timeoutMs: 2_000,
  websocket: false,
};

/** The feeds: b freezes in the 6th hour of every 24 h, c jumps +150 bps in the 14th. */
export function threeFeeds(hours: number): SimFeedSpec[] {
  const windows = (startH: number): Array<{ from: number; to: number }> =>
    Array.from({ length: Math.ceil(hours / 24) }, (_, d) => ({
      from: T0 + (d * 24 + startH) * HOUR,
      to: T0 + (d * 24 + startH + 1) * HOUR,
    }));
  return [
    { id: 'sima', lagMs: 300, noiseBps: 1, failRate: 0.01 },
    { id: 'simb', lagMs: 800, noiseBps: 2, failRate: 0.02, freeze: windows(Math.min(5, hours - 1))[0]! },
    {
      id: 'simc',
      lagMs: 500,
      noiseBps: 1.5,
      failRate: 0.01,
      jump: { ...windows(Math.min(13, hours - 1))[0]!, bps: 150 },
    },
  ];
}

/** Runs the reference on the three feeds for `hours`, checking every second. */
export async function runThreeFeeds(o: ThreeFeedsOptions): Promise<ThreeFeedsResult> {
  const fake = FakeTimers.createClock(T0, 100_000_000);
  const clock = fakeClock(fake);
  const rng = new Rng(o.seed);
  const walk = rng.fork('true-price');
  const seconds = Math.round(o.hours * 3_600);
  const path = new Float64Array(seconds + 2);
  path[0] = 50_000;
  for (let i = 1; i < path.length; i++) {
    path[i] = gbmStep(path[i - 1]!, 1_000 / MS_PER_YEAR, 0, o.volatility ?? 0.6, walk.normal());
  }
  const at = (t: number): number =>
    path[Math.max(0, Math.min(path.length - 1, Math.floor((t - T0) / 1_000)))]!;
  const specs = threeFeeds(o.hours);
  const feeds = new SimReferenceFeeds({ clock, path: at, rng: rng.fork('feeds'), feeds: specs });
  const ref = new ExchangesReference({
    clock,
    exchanges: async (id) => feeds.exchange(id),
    pairs: [{ pair: 'BTC/USDC', settings: THREE_FEEDS_SETTINGS }],
    onReadings: () => undefined,
  });
  ref.start();
  const s = THREE_FEEDS_SETTINGS;
  const freeze = specs[1]!.freeze!;
  const jump = specs[2]!.jump!;
  let withReference = 0;
  let belowMinSources = 0;
  let offMedian = 0;
  let frozenUsed = 0;
  let jumpUsed = 0;
  let frozenStale = 0;
  let jumpOutlier = 0;
  let errSum = 0;
  let errMax = 0;
  let noRefFaults = 0;
  let noRefElsewhere = 0;
  for (let i = 0; i < seconds; i++) {
    await fake.tickAsync(1_000);
    const now = clock.now();
    const readings = ref.readings('BTC/USDC');
    const c = combineSources(readings, s, now);
    const state = (id: string): string | undefined => c.verdicts.find((v) => v.id === id)?.state;
    if (state('simb:BTC/USDC') === 'used' && now >= freeze.from + s.maxAgeMs && now < freeze.to) frozenUsed++;
    if (state('simc:BTC/USDC') === 'used' && now >= jump.from + 2_000 && now < jump.to) jumpUsed++;
    if (state('simb:BTC/USDC') === 'stale' && now >= freeze.from && now < freeze.to) frozenStale++;
    if (state('simc:BTC/USDC') === 'outlier' && now >= jump.from && now < jump.to) jumpOutlier++;
    if (!c.ok) {
      const inFault =
        (now >= freeze.from && now < freeze.to + 10_000) || (now >= jump.from && now < jump.to + 10_000);
      if (inFault) noRefFaults++;
      else noRefElsewhere++;
      continue;
    }
    withReference++;
    const used = c.verdicts.filter((v) => v.state === 'used');
    if (used.length < s.minSources) belowMinSources++;
    const median = weightedMedian(used.map((v) => ({ price: v.price!, weight: 1 })));
    if (!median.eq(c.price)) offMedian++;
    const err = Math.abs(deviationBps(c.price, new Dec(at(now))));
    errSum += err;
    errMax = Math.max(errMax, err);
  }
  const closing = ref.close();
  await fake.tickAsync(10_000);
  await closing;
  return {
    seed: o.seed,
    seconds,
    withReference,
    belowMinSources,
    offMedian,
    frozenUsed,
    jumpUsed,
    frozenStale,
    jumpOutlier,
    meanAbsErrorBps: withReference === 0 ? 0 : errSum / withReference,
    maxAbsErrorBps: errMax,
    noReferenceInFaults: noRefFaults,
    noReferenceElsewhere: noRefElsewhere,
  };
}

/**
 * The simulated hedge venues of one `simulate` run: one {@link HedgeVenueSim} per hedged pair
 * (config `hedge.exchange: "sim"`), on the run's clock, filling at the simulated market's true
 * price (its last published reference) ± the half-spread, each with its own stream of the run's
 * seed. The daemon gets them through its `hedgeVenue` seam, so it runs unchanged; a hedged pair
 * naming a real exchange is refused (a simulation never reaches one).
 *
 * The settings are the lab's, not the daemon's config: {@link HEDGE_SIM_DEFAULTS} are the issue's
 * realistic liquid venue (1 bps half-spread, 5 bps taker fee, 200 ms).
 */
import type { Clock } from '../../core/clock.js';
import { Dec } from '../../core/decimal.js';
import type { HedgeSettings } from '../../hedge/hedge-settings.js';
import type { HedgeVenue } from '../../hedge/hedge-venue.js';
import { Rng } from '../../sim/rng.js';
import { HedgeVenueSim, type HedgeSimTrade } from './hedge-venue-sim.js';

/** How the simulated hedge venue behaves. */
export interface HedgeSimSettings {
  readonly halfSpreadBps: number;
  readonly takerFeeBps: number;
  readonly latencyMs: number;
  /** Chance per call that it fails unreached. */
  readonly unavailableRate: number;
  /** Chance per order call that it executes but the answer is lost. */
  readonly lostAnswerRate: number;
}

/** The liquid venue: 1 bps half-spread, 5 bps taker fee, 200 ms, no faults. */
export const HEDGE_SIM_DEFAULTS: HedgeSimSettings = {
  halfSpreadBps: 1,
  takerFeeBps: 5,
  latencyMs: 200,
  unavailableRate: 0,
  lostAnswerRate: 0,
};

/** See the module doc. */
export class SimHedgeVenues {
  private readonly venues = new Map<string, HedgeVenueSim>();

  constructor(
    private readonly o: {
      readonly clock: Clock;
      readonly seed: number | string;
      /** The simulated market's last reference price of a pair, or null before the first. */
      readonly truePrice: (pair: string) => string | null;
      readonly settings: HedgeSimSettings;
    },
  ) {}

  /** The daemon's `hedgeVenue` seam. */
  readonly factory = (s: HedgeSettings): Promise<HedgeVenue> => {
    if (s.exchange !== 'sim')
      return Promise.reject(
        new Error(`simulate hedges only on the simulated venue (hedge.exchange "sim"), not "${s.exchange}"`),
      );
    let venue = this.venues.get(s.pair);
    if (venue === undefined) {
      const { settings, clock } = this.o;
      venue = new HedgeVenueSim({
        clock,
        truePrice: () => {
          const p = this.o.truePrice(s.pair);
          if (p === null) throw new Error(`no reference of ${s.pair} yet`);
          return new Dec(p);
        },
        halfSpreadBps: settings.halfSpreadBps,
        takerFeeBps: settings.takerFeeBps,
        latencyMs: settings.latencyMs,
        rng: new Rng(this.o.seed).fork(`hedge/${s.pair}`),
        unavailableRate: settings.unavailableRate,
        lostAnswerRate: settings.lostAnswerRate,
      });
      this.venues.set(s.pair, venue);
    }
    return Promise.resolve(venue);
  };

  /** Every fill of every pair's hedge venue, by pair. */
  trades(): Record<string, readonly HedgeSimTrade[]> {
    return Object.fromEntries([...this.venues].map(([pair, v]) => [pair, [...v.trades]]));
  }

  /** Orders each pair's hedge venue received (a doubled hedge would show here). */
  received(): Record<string, number> {
    return Object.fromEntries([...this.venues].map(([pair, v]) => [pair, v.received.length]));
  }
}

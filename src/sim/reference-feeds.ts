/**
 * Simulated reference feeds: several liquid "exchanges" quoting the simulator's true price, each
 * with its own lag, noise and outages, plus scripted faults (a feed that freezes, one that jumps),
 * as ccxt-shaped {@link TickerExchange}s, so the real reference code (`src/market/reference/`)
 * runs on them unchanged. Every feed draws from its own stream of the seed.
 *
 * The true price is a path the caller samples at any time ({@link TruePath}); a feed with lag L
 * answers the true price of L ms ago, times `exp(noise)` with noise ~ N(0, noiseBps), and carries
 * the time of that price as its timestamp. A frozen feed keeps answering its price and timestamp
 * from the freeze's start (it goes stale); a jumping one answers `jumpBps` off while it jumps.
 */
import type { Clock } from '../core/clock.js';
import type { TickerExchange, TickerLike } from '../market/reference/ticker-stream.js';
import type { Rng } from './rng.js';

/** The true price at a time (clock ms). */
export type TruePath = (at: number) => number;

/** One simulated feed. */
export interface SimFeedSpec {
  /** Its exchange id (`sim-a`). */
  readonly id: string;
  readonly lagMs: number;
  readonly noiseBps: number;
  /** Chance per call that it fails (an outage of one call). */
  readonly failRate: number;
  /** From `from` to `to` (clock ms) it freezes: same price, same timestamp. */
  readonly freeze?: { readonly from: number; readonly to: number };
  /** From `from` to `to` it answers `bps` off the true price. */
  readonly jump?: { readonly from: number; readonly to: number; readonly bps: number };
}

/** The simulated feeds of one run. */
export class SimReferenceFeeds {
  constructor(
    private readonly o: {
      readonly clock: Clock;
      readonly path: TruePath;
      readonly rng: Rng;
      readonly feeds: readonly SimFeedSpec[];
    },
  ) {}

  /** The feed `id` as a ccxt-shaped exchange (REST only). */
  exchange(id: string): TickerExchange {
    const spec = this.o.feeds.find((f) => f.id === id);
    if (spec === undefined) throw new Error(`no simulated feed "${id}"`);
    const rng = this.o.rng.fork(`feed/${id}`);
    const tick = (): TickerLike => {
      const now = this.o.clock.now();
      if (rng.chance(spec.failRate)) throw new Error(`${id}: simulated outage`);
      const frozen = spec.freeze !== undefined && now >= spec.freeze.from && now < spec.freeze.to;
      const at = (frozen ? spec.freeze.from : now) - spec.lagMs;
      const jumping = spec.jump !== undefined && now >= spec.jump.from && now < spec.jump.to;
      const noise = frozen ? 0 : rng.normal() * spec.noiseBps;
      const bps = noise + (jumping ? spec.jump.bps : 0);
      const p = this.o.path(at) * Math.exp(bps / 10_000);
      return { bid: p, ask: p, last: p, timestamp: at };
    };
    return {
      id,
      has: { fetchTicker: true },
      loadMarkets: async () => ({}),
      fetchTicker: async () => tick(),
    };
  }
}

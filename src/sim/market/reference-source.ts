/**
 * Where a pair's reference comes from: the model's walk, the same walk seen ahead (for informed
 * takers), or a recorded series (replay). The market model steps a {@link ReferenceSource} every
 * `tickMs` and publishes its price; informed takers ask it for the price ahead.
 */
import type { Dec } from '../../core/decimal.js';
import type { Rng } from '../rng.js';
import type { PairMarketConfig } from './market-config.js';
import { PriceDynamics } from './price-dynamics.js';
import { quantize } from './quantize.js';
import { ReferencePriceWalk } from './reference-price.js';
import { ReplayedReference } from './replayed-reference.js';

/** A pair's reference price as the market model drives it. */
export interface ReferenceSource {
  /** The current reference as a float (for the model's maths). */
  readonly price: number;
  /** The current reference rounded to the pair's tick, for the port. */
  readonly decimal: Dec;
  /** Steps taken so far. */
  readonly steps: number;
  /** Advances by `dtMs`; returns the new price. */
  step(dtMs: number): number;
  /** The price `ms` from now, when the source can see it; null when it cannot. */
  ahead(ms: number): number | null;
}

/**
 * A walk computed `horizonMs` ahead of what it publishes, so the future is known: the prices it
 * publishes are the walk's own, in the same order and from the same draws (each step of the walk
 * is one `tickMs`; the model's steps are whole ticks on the fake clock).
 */
export class LookaheadReference implements ReferenceSource {
  /** `future[i]` is the price `i + 1` ticks from now. */
  private readonly future: number[] = [];
  private current: number;
  private stepCount = 0;

  constructor(
    private readonly walk: ReferencePriceWalk,
    private readonly tickMs: number,
    horizonMs: number,
    private readonly priceDecimals: number,
  ) {
    this.current = walk.price;
    const n = Math.max(1, Math.ceil(horizonMs / tickMs));
    for (let i = 0; i < n; i++) this.future.push(walk.step(tickMs));
  }

  get price(): number {
    return this.current;
  }

  get decimal(): Dec {
    return quantize(this.current, this.priceDecimals, 'nearest');
  }

  get steps(): number {
    return this.stepCount;
  }

  step(dtMs: number): number {
    if (!(dtMs > 0)) return this.current;
    const ticks = Math.max(1, Math.round(dtMs / this.tickMs));
    for (let i = 0; i < ticks; i++) {
      this.current = this.future.shift()!;
      this.future.push(this.walk.step(this.tickMs));
    }
    this.stepCount++;
    return this.current;
  }

  ahead(ms: number): number {
    const i = Math.round(ms / this.tickMs);
    if (i <= 0) return this.current;
    return this.future[Math.min(i, this.future.length) - 1]!;
  }
}

/** The walk as a source that cannot see ahead. */
class PlainReference implements ReferenceSource {
  constructor(private readonly walk: ReferencePriceWalk) {}
  get price(): number {
    return this.walk.price;
  }
  get decimal(): Dec {
    return this.walk.decimal;
  }
  get steps(): number {
    return this.walk.steps;
  }
  step(dtMs: number): number {
    return this.walk.step(dtMs);
  }
  ahead(): null {
    return null;
  }
}

/**
 * The reference of one pair as its config says: a replayed series when `replay` is set; else the
 * walk (with {@link PriceDynamics} when a part is on), seen ahead when takers are informed.
 * `rng` is the pair's `reference` stream (the walk's normals); the dynamics fork their own.
 */
export function buildReference(
  config: PairMarketConfig,
  tickMs: number,
  rng: Rng,
  dynamicsRng: Rng,
): { source: ReferenceSource; dynamics: PriceDynamics | null } {
  if (config.replay !== undefined) {
    return { source: new ReplayedReference(config.replay, config.priceDecimals), dynamics: null };
  }
  const parts = { garch: config.garch, driftRegimes: config.driftRegimes, jumps: config.jumps };
  const dynamics = PriceDynamics.isActive(parts)
    ? new PriceDynamics({ ...parts, volatility: config.volatility, drift: config.drift, rng: dynamicsRng })
    : null;
  const walk = new ReferencePriceWalk({
    initialPrice: Number(config.initialPrice),
    volatility: config.volatility,
    drift: config.drift,
    priceDecimals: config.priceDecimals,
    rng,
    ...(dynamics === null ? {} : { dynamics }),
  });
  const source =
    config.takers.informedShare > 0
      ? new LookaheadReference(walk, tickMs, config.takers.informedHorizonMs, config.priceDecimals)
      : new PlainReference(walk);
  return { source, dynamics };
}

/**
 * The levels of one side: classic (`levels.count` levels `levels.spacingBps` apart, sized
 * `size + level × sizeIncrement`) or a free-form ladder (`levels.ladder`: a distance and a size
 * per level). A ladder's rung takes the place of `spread.bidBps`/`askBps` for its level: the
 * quoting model is asked for the level's distance with that spread, so the skew, the model's own
 * floor (the latency-aware model's `σ√T` floor: a level is never closer than it) and
 * `spread.minBps`/`maxBps` apply to every level. A model that does not read the spread (the
 * Avellaneda–Stoikov optimum) keeps its own level 0 and the deeper rungs their spacing from it:
 * a level the model would put no further out than the one before is placed the rungs' spacing
 * beyond that one. Pure.
 */
import type { Dec } from '../core/decimal.js';
import type { Side } from '../core/order-terms.js';
import type { LadderRung } from '../config/param-spec.js';
import type { SizeUnit } from '../config/sections/strategy-params.js';
import type { PairStrategyParams } from './params.js';
import { levelPrice, levelSize } from './spread-levels.js';

/** How one side's levels are laid out. */
export interface LevelPlan {
  /** Levels to quote. */
  readonly count: number;
  /** The raw price of `level` (> 0), given level 0's price as quoted (rounded, no-cross applied). */
  price(level: number, best: Dec): Dec;
  /** The size of `level`, in its unit (before the size skew). */
  size(level: number): { amount: Dec; unit: SizeUnit };
  /** How much further out than level 0 the level is meant to be, bps (widens its tolerance). */
  extraBps(level: number): number;
}

/** The classic plan: `count` levels `spacingBps` apart. */
export function classicPlan(side: Side, count: number, p: PairStrategyParams['levels']): LevelPlan {
  return {
    count,
    price: (level, best) => levelPrice(best, side, level, p.spacingBps),
    size: (level) => levelSize(level, p),
    extraBps: (level) => level * p.spacingBps,
  };
}

/**
 * A ladder's plan for one side. `distanceOf(spreadBps)` is the side's raw best price the model
 * gives with that spread (null when the model cannot quote); `count` may cut the rungs (the
 * inventory's shedding of outer levels). Null when level 0 has no price.
 */
export function ladderPlan(
  side: Side,
  rungs: readonly LadderRung[],
  count: number,
  unit: SizeUnit,
  bestWith: (spreadBps: number) => Dec | null,
  hold: (price: Dec) => Dec,
): { readonly best: Dec; readonly plan: LevelPlan } | null {
  const raw: Dec[] = [];
  for (const [i, rung] of rungs.slice(0, count).entries()) {
    const own = bestWith(rung.spreadBps);
    const prev = raw[i - 1];
    // A level the model puts no further out than the one before (its floor, or a model that
    // ignores the spread) keeps the rungs' spacing from that one instead.
    const beyond = (x: Dec, than: Dec): boolean => (side === 'BUY' ? x.lt(than) : x.gt(than));
    const price =
      prev === undefined || (own !== null && beyond(own, prev))
        ? own
        : levelPrice(prev, side, 1, rung.spreadBps - rungs[i - 1]!.spreadBps);
    if (price === null) break;
    raw.push(hold(price));
  }
  const best = raw[0];
  if (best === undefined) return null;
  const first = rungs[0]!.spreadBps;
  return {
    best,
    plan: {
      count: raw.length,
      price: (level, quoted) => (level === 0 ? quoted : raw[level]!),
      size: (level) => ({ amount: rungs[level]!.size, unit }),
      extraBps: (level) => rungs[level]!.spreadBps - first,
    },
  };
}

/**
 * Markouts of a run's fills against the simulated venue's true reference: for each fill, how far
 * the reference moved from the fill's instant to `h` seconds later, signed from our side of the
 * trade (up after a buy, down after a sell is positive: the fill was worth more than at the
 * time). The mean is weighted by the fill's quote volume, in bps of the reference at the fill.
 * A negative markout is adverse selection: its loss, in quote units, is part of the inventory
 * revaluation. A fill whose horizon passes the end of the run is left out of that horizon.
 */
import { type Dec, ZERO } from '../../../core/decimal.js';
import type { OwnFill } from './money-figures.js';
import type { ReferenceSeries } from './reference-series.js';

/** The horizons, seconds. */
export const MARKOUT_HORIZONS_S = [5, 30, 60, 300] as const;

/** One horizon's markout over a set of fills. */
export interface Markout {
  readonly horizonS: number;
  /** Fills whose horizon ended within the run. */
  readonly fills: number;
  /** Σ side × quantity × (reference(t + h) − reference(t)), quote units. */
  readonly pnl: Dec;
  /** Σ quantity × reference(t) of those fills, quote units. */
  readonly volume: Dec;
  /** {@link pnl} per unit of volume at the reference, bps; null without fills. */
  readonly bps: Dec | null;
}

/** The markout of `fills` (one pair's, one reference) at each horizon, up to `end`. */
export function markouts(
  fills: readonly OwnFill[],
  ref: ReferenceSeries,
  end: number,
  horizonsS: readonly number[] = MARKOUT_HORIZONS_S,
): Markout[] {
  return horizonsS.map((h) => {
    let pnl = ZERO;
    let volume = ZERO;
    let n = 0;
    for (const f of fills) {
      const later = f.at + h * 1000;
      if (later > end) continue;
      const r0 = ref.at(f.at);
      const r1 = ref.at(later);
      if (r0 === null || r1 === null) continue;
      const move = f.side === 'BUY' ? r1.minus(r0) : r0.minus(r1);
      pnl = pnl.plus(move.times(f.quantity));
      volume = volume.plus(r0.times(f.quantity));
      n += 1;
    }
    return markout(h, n, pnl, volume);
  });
}

function markout(horizonS: number, fills: number, pnl: Dec, volume: Dec): Markout {
  return { horizonS, fills, pnl, volume, bps: volume.gt(0) ? pnl.div(volume).times(10_000) : null };
}

/** Markouts of several pairs added up (pnl and volume summed per horizon). */
export function combineMarkouts(perPair: readonly (readonly Markout[])[]): Markout[] {
  const first = perPair[0];
  if (first === undefined) return [];
  return first.map((m, i) => {
    const xs = perPair.map((p) => p[i]!);
    return markout(
      m.horizonS,
      xs.reduce((n, x) => n + x.fills, 0),
      xs.reduce((s, x) => s.plus(x.pnl), ZERO),
      xs.reduce((s, x) => s.plus(x.volume), ZERO),
    );
  });
}

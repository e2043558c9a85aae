/**
 * The firm's net position: this venue's holdings plus what a hedge venue holds for the same pair.
 * The hedge side of it, per pair, rides on the market snapshot (`MarketSnapshot.hedge`), set by the
 * quote cycle from the hedging (`src/hedge/hedging.ts`), so the pure layers read it as data: the strategy's
 * skew, inventory gate and pressure read `holdings + base` (and the quote the hedge received), the
 * risk gate's inventory guard and the PnL read the positions with it added
 * (`portfolio/pnl.ts`). The funding checks never read it: an order on this venue is paid from this
 * venue's balances alone.
 *
 * A pair without a hedge has no entry; a daemon without hedging passes none at all, and every
 * figure is this venue's alone, as before.
 */
import type { Dec } from '../core/decimal.js';

/** What a hedge venue holds for one pair, and the quoting gate while it fails. */
export interface HedgeOffset {
  /** The hedge venue's position, base units (positive: long). */
  readonly base: Dec;
  /** Its quote flow: received selling minus paid buying, fees deducted (negative: paid more). */
  readonly quote: Dec;
  /**
   * Sides whose fills would add to the unhedged position while the hedge venue fails or is at its
   * cap: not quoted (`stop`) or quoted `widenBps` further out (`widen`). Absent: both sides open.
   */
  readonly gate?: {
    readonly BUY: HedgeSideGate;
    readonly SELL: HedgeSideGate;
  };
}

/** One side under the hedge gate. */
export interface HedgeSideGate {
  readonly quote: boolean;
  readonly widenBps: number;
  readonly reason: 'hedge-venue-failing' | null;
}

/** The hedge side of the net position, by pair. */
export type HedgeOffsets = Readonly<Record<string, HedgeOffset>>;

/** Reads the hedge side of the net position now (a daemon without hedging: `() => ({})`). */
export type NetPositionSource = () => HedgeOffsets;

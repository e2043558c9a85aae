import type { Dec } from '../core/decimal.js';
import type { Side } from '../venue/schemas.js';

/** A quote the strategy wants on the book. */
export interface DesiredQuote {
  /** `<pair>:<side>:<level>`; level 0 is the best (innermost) level. */
  readonly slot: string;
  readonly pair: string;
  readonly side: Side;
  readonly level: number;
  /** Rounded away from the market to the pair's tick, at most 10 decimal places. */
  readonly price: Dec;
  readonly quantity: Dec;
  /** The reference price it was made from, and when that price was observed. */
  readonly reference: Dec;
  readonly referenceAt: number;
}

/** Why a side or pair is not quoted. Reported, never thrown. */
export interface QuoteSkip {
  readonly pair: string;
  readonly side: Side | null;
  readonly reason: string;
}

/** The strategy's answer for one snapshot. */
export interface StrategyResult {
  readonly quotes: readonly DesiredQuote[];
  readonly skipped: readonly QuoteSkip[];
  /** Reference price per pair, when one exists. */
  readonly references: Readonly<Record<string, { price: Dec; at: number }>>;
}

/** What the reconciler asks the execution layer to do. */
export type Action =
  | {
      readonly type: 'place';
      readonly quote: DesiredQuote;
      /** Lower runs first. */
      readonly priority: number;
      /** The order this placement replaces (make before break: cancel it once this one rests). */
      readonly replaces: string | null;
    }
  | { readonly type: 'cancel'; readonly key: string; readonly reason: string };

/** Builds the slot id of a quote. */
export function slotId(pair: string, side: Side, level: number): string {
  return `${pair}:${side}:${level}`;
}

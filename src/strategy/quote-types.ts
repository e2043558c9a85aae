/**
 * The types that flow from the strategy to the reconciler and on: the {@link DesiredQuote} of a
 * slot (with the funds it locks and its optional tolerance), a {@link QuoteSkip} with its
 * reason, the {@link StrategyResult} of one snapshot, and the reconciler's {@link Action}s
 * (place, ranked, or cancel) that the risk gate judges before execution. Plain data, and the
 * slot id of a quote.
 */
import type { Dec } from '../core/decimal.js';
import type { Side } from '../core/order-terms.js';

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
  /**
   * What the order locks while it lives: the quote instrument, price × quantity, for a BUY; the
   * base instrument, the quantity, for a SELL. Always set by `computeQuotes`; when absent the
   * reconciler derives it from the pair name `<base>/<quote>`.
   */
  readonly locks?: FundsLock;
  /**
   * How far a resting order of this slot may drift, set by models that scale it with volatility
   * (absent: the reconciler's fixed `priceToleranceBps`).
   */
  readonly tolerance?: QuoteTolerance;
}

/**
 * A quote's tolerance in terms of its edge: the distance of an order's price from the current
 * reference, in bps, positive on the order's own side (below the reference for a BUY). An order
 * whose desired edge is `e` is kept while its edge is within `[e − insideBps, e + outsideBps]`;
 * below `toxicEdgeBps` it is cancelled at once, even while its replacement is being placed.
 */
export interface QuoteTolerance {
  readonly insideBps: number;
  readonly outsideBps: number;
  readonly toxicEdgeBps: number;
  /** The σ (bps per √s) the tolerance was scaled with; ranks reprices by staleness. */
  readonly sigmaBps: number;
  /**
   * The share of the band a queued intent may have drifted when its prepare starts (0 to 1); a
   * staler one is dropped before the prepare and queued again at the current price.
   */
  readonly prepareShare: number;
  /**
   * Before its prepare, a queued intent must stand this far (bps) clear of the toxic edge, or
   * at least as far out as the quote wants: the reference's likely drift during the prepare.
   * Absent or 0: no such check.
   */
  readonly prepareDriftBps?: number;
  /**
   * The multiple of the band a prepared intent may have drifted when it is about to be signed
   * (1: the band itself); the toxic edge applies whatever it is.
   */
  readonly signShare: number;
}

/** Funds an order locks in the party's wallet. */
export interface FundsLock {
  readonly instrument: string;
  readonly amount: Dec;
}

/** Why a side or pair is not quoted. Reported, never thrown. */
export interface QuoteSkip {
  readonly pair: string;
  readonly side: Side | null;
  /** The level skipped, when only one level is (absent: the whole side or pair). */
  readonly level?: number;
  readonly reason: string;
  /**
   * True when the existing orders of this pair (and side) should be left alone rather than
   * cancelled, because the skip says nothing about their prices (e.g. no balances yet). Absent or
   * false: the reconciler cancels them.
   */
  readonly keepOrders?: boolean;
}

/** The strategy's answer for one snapshot. */
export interface StrategyResult {
  readonly quotes: readonly DesiredQuote[];
  readonly skipped: readonly QuoteSkip[];
  /** Reference price per pair, when one exists. */
  readonly references: Readonly<Record<string, { price: Dec; at: number }>>;
  /** The snapshot's `now`, ms; the reconciler's clock for `maxOrderAge` (absent: no age refresh). */
  readonly now?: number;
  /**
   * True when planned with the balances pending (`BALANCES_PENDING`): no inventory term and no
   * funds allocated. Such quotes may be prepared, never signed before the pipeline's sign-time
   * check has judged them again with the real balances.
   */
  readonly provisional?: true;
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
      /** Why it is placed: the slot is empty, its order is off target, or its order is too old. */
      readonly reason?: 'missing' | 'reprice' | 'refresh';
    }
  | { readonly type: 'cancel'; readonly key: string; readonly reason: string };

/** A placement action. */
export type PlaceAction = Extract<Action, { type: 'place' }>;
/** A cancel action. */
export type CancelAction = Extract<Action, { type: 'cancel' }>;

/** Builds the slot id of a quote. */
export function slotId(pair: string, side: Side, level: number): string {
  return `${pair}:${side}:${level}`;
}

/**
 * The daemon's own orders as the strategy sees them beside the snapshot; the type is the orders
 * layer's (`src/orders/own-orders-view.ts`), named here too for the readers of a snapshot.
 */
import type { Dec } from '../core/decimal.js';
import type { HedgeOffsets } from './net-position.js';

import type { SourceReading } from './reference/combine-sources.js';
/** See the module doc. */
export type { OwnOrderView } from '../orders/own-orders-view.js';

/**
 * What the pollers know about the market at one instant. The strategy, the reconciler and the
 * risk gate are pure functions of a snapshot: the snapshot carries the time (`now`), so none of
 * them reads a clock.
 */
export interface MarketSnapshot {
  /** When the snapshot was assembled, ms since the epoch (from the injected Clock). */
  readonly now: number;
  readonly pairs: Readonly<Record<string, PairMarket>>;
  /** Balances by instrument; null until the first successful balances poll. */
  readonly balances: Readonly<Record<string, BalanceView>> | null;
  readonly balancesAt: number | null;
  /**
   * True while `balances` is null because the startup's GET /balances is still being read and the
   * daemon prepares beside it (`execution.prepareBeforeBalances`): the pure layers then plan with
   * {@link BALANCES_PENDING} instead of planning nothing. Absent: false.
   */
  readonly balancesPending?: boolean;
  /** The account as last read; null until the first successful read. */
  readonly account: AccountView | null;
  /**
   * The hedge side of the firm's net position by pair (`net-position.ts`): the strategy's skew
   * and inventory gate read the holdings with it. Absent (no hedging): this venue's alone.
   */
  readonly hedge?: HedgeOffsets;
}

/** One price level. */
export interface Level {
  readonly price: Dec;
  readonly quantity: Dec;
}

/** A book snapshot as polled. Bids descending, asks ascending, best first. */
export interface BookView {
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
  /** The venue's `asOf.sequence`. */
  readonly sequence: number;
  /** When the poll that produced it succeeded. */
  readonly receivedAt: number;
}

/** A public trade (no attribution). */
export interface TradeView {
  readonly tradeId: string;
  readonly price: Dec;
  readonly quantity: Dec;
  /** `executedAt`, ms since the epoch. */
  readonly at: number;
}

/** A price from an external source (HTTP JSON feed) or configuration. */
export interface ExternalPrice {
  readonly price: Dec;
  readonly at: number;
}

/** Everything known about one pair. */
export interface PairMarket {
  readonly pair: string;
  readonly base: string;
  readonly quote: string;
  /** Minimum notional in the quote instrument; null when the venue sets none. */
  readonly minQuoteAmount: Dec | null;
  /** The latest book; null until the first good poll. */
  readonly book: BookView | null;
  /** Recent public trades, newest first. */
  readonly trades: readonly TradeView[];
  /** The external reference feed, when configured and fresh enough to be reported. */
  readonly external: ExternalPrice | null;
  /**
   * The exchanges of the "exchanges" reference, with their last prices (`src/market/reference/`).
   * Absent unless the pair's reference source is "exchanges".
   */
  readonly sources?: readonly SourceReading[];
  /**
   * Recent mid prices, oldest first, one per book poll that had both sides; bounded in age and
   * count. Optional for compatibility: absent means no history (treat as empty).
   */
  readonly mids?: readonly MidSample[];
  /**
   * When the first mid of this run was recorded (the history itself is trimmed to
   * `market.mids.keepMs`); absent until then. The warm-up (`latency.jumpWarmupMs`) counts from it.
   */
  readonly midsSince?: number;
}

/** One mid price `(best bid + best ask) / 2`, at the time the book poll succeeded. */
export interface MidSample {
  readonly at: number;
  readonly price: Dec;
}

/**
 * The wallet while the startup's GET /balances is still being read and a provisional plan is
 * wanted ({@link MarketSnapshot.balancesPending}). Not a guess of the balances: the strategy plans
 * as if the holdings sat at their target (no inventory skew, no inventory gate, no size skew) and
 * checks no funds; the reconciler defers the funds check. Nothing planned with it may be signed:
 * the pipeline's sign-time check runs again with the real balances before any signature.
 */
export const BALANCES_PENDING: unique symbol = Symbol('balances pending');
/** The type of {@link BALANCES_PENDING}. */
export type BalancesPending = typeof BALANCES_PENDING;

/**
 * The wallet as the strategy and the reconciler plan with it: the balances by instrument, null
 * while unknown (nothing is planned, existing orders are left alone), or {@link BALANCES_PENDING}.
 */
export type WalletInput = Readonly<Record<string, BalanceView>> | null | BalancesPending;

/** The balances of a wallet input when they are known; null while unknown or pending. */
export function knownBalances(w: WalletInput | undefined): Readonly<Record<string, BalanceView>> | null {
  return w === undefined || w === null || w === BALANCES_PENDING ? null : w;
}

/** One instrument's balance. */
export interface BalanceView {
  readonly available: Dec;
  readonly locked: Dec;
}

/** The account fields the daemon acts on. */
export interface AccountView {
  readonly status: string;
  readonly maxOpenOrders: number | null;
  readonly ordersPerMinute: number | null;
  readonly clientOrderIdPrefix: string;
  readonly readAt: number;
  /** True when the last account read failed with an auth error (401). */
  readonly authFailing: boolean;
}

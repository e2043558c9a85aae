/**
 * The hedge venue contract: the few calls the hedger makes on a liquid exchange (ccxt in
 * production, `src/hedge/ccxt-hedge-venue.ts`; the simulator's own in the lab,
 * `src/sim/hedge-venue-sim.ts`). Every call takes an AbortSignal; money is `Dec`.
 *
 * Orders are identified by the client order id the hedger chose and journaled before sending:
 * that is what lets recovery ask the venue whether an order reached it (`readOrder`), so an order
 * is never sent twice.
 */
import type { Dec } from '../core/decimal.js';

/** An IOC limit order as sent. */
export interface HedgeOrderRequest {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Dec;
  readonly limitPrice: Dec;
}

/** What the venue says of an order. An IOC order is `open` only briefly. */
export interface HedgeOrderState {
  readonly clientOrderId: string;
  readonly status: 'open' | 'closed' | 'canceled' | 'rejected';
  readonly side: 'BUY' | 'SELL';
  readonly filled: Dec;
  /** Average fill price; null when nothing filled. */
  readonly averagePrice: Dec | null;
  /** Fee paid, in the quote currency. */
  readonly feeQuote: Dec;
}

/** The top of the hedge venue's book. */
export interface HedgeTouch {
  readonly bid: Dec | null;
  readonly ask: Dec | null;
}

/** The hedge venue's failures the hedger tells apart (the rest are `unavailable`). */
export type HedgeVenueErrorCode = 'unavailable' | 'refused' | 'insufficient-funds' | 'unknown-outcome';

/** A failed call. `unknown-outcome`: an order call whose fate is not known (timeout, 5xx). */
export class HedgeVenueError extends Error {
  constructor(
    readonly code: HedgeVenueErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HedgeVenueError';
  }
}

/** The calls the hedger makes. */
export interface HedgeVenue {
  /** The venue's name (`binance`, `sim`), for logs and metrics. */
  readonly id: string;
  /** Sends an IOC limit order; resolves with its state once the venue answered. */
  placeIoc(req: HedgeOrderRequest, signal: AbortSignal): Promise<HedgeOrderState>;
  /** The order with this client order id, or null when the venue never received it. */
  readOrder(clientOrderId: string, symbol: string, signal: AbortSignal): Promise<HedgeOrderState | null>;
  /** The open orders on `symbol` (recovery: nothing of ours may be left working). */
  openOrders(symbol: string, signal: AbortSignal): Promise<readonly HedgeOrderState[]>;
  /** The position in the base currency on `symbol` (positive: long). */
  position(symbol: string, signal: AbortSignal): Promise<Dec>;
  touch(symbol: string, signal: AbortSignal): Promise<HedgeTouch>;
}

/**
 * The hedge venue contract: the few calls the hedger makes on a liquid exchange (ccxt in
 * production, `src/hedge/ccxt-hedge-venue.ts`; the simulator's own in the lab,
 * `src/lab/hedge/hedge-venue-sim.ts`). Every call takes an AbortSignal; money is `Dec`; failures are
 * {@link VenueError}s with a `HEDGE_` code ({@link hedgeError}).
 *
 * Orders are identified by the client order id the hedger chose and journaled before sending:
 * that is what lets recovery ask the venue whether an order reached it (`readOrder`), so an order
 * is never sent twice.
 */
import type { Dec } from '../core/decimal.js';
import { type HedgeCode, VenueError, isHedgeCode } from '../venue/errors.js';

/** An IOC limit order as sent. */
export interface HedgeOrderRequest {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Dec;
  readonly limitPrice: Dec;
  /**
   * When the order was journaled and sent (clock ms). A venue refuses a request that reaches it
   * later than its receive window (Binance's `recvWindow`); ccxt stamps its own.
   */
  readonly sentAt?: number;
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

/**
 * A failed call is a {@link VenueError} with one of the `HEDGE_` codes of the one closed union
 * (`src/venue/errors.ts`), classified by its table: `HEDGE_UNAVAILABLE` (nothing happened),
 * `HEDGE_REFUSED` and `HEDGE_INSUFFICIENT_FUNDS` (the exchange said no), `HEDGE_UNKNOWN_OUTCOME`
 * (an order call whose fate is not known: read the order before anything else).
 */
export function hedgeError(code: HedgeCode, message: string, cause?: unknown): VenueError {
  return new VenueError({ code, message, ...(cause === undefined ? {} : { cause }) });
}

/** The hedge code of a failure, or null when it is not a hedge venue's {@link VenueError}. */
export function hedgeCodeOf(error: unknown): HedgeCode | null {
  return error instanceof VenueError && isHedgeCode(error.code) ? error.code : null;
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

/**
 * What enters the placement pipeline: a {@link PlacementIntent} (one order for one quote slot,
 * money as `Dec`), the per-call {@link PlaceOptions}, and two pure helpers: the intent's
 * malformation check and its POST /orders body under a clientOrderId. The daemon's order
 * dispatch turns each placement the risk gate allowed into an intent; the pipeline's prepare step
 * sends the body.
 */
import { toWire, ZERO } from '../../core/decimal.js';
import type { Dec } from '../../core/decimal.js';
import type { PrepareOrderBody } from '../../venue/schemas.js';
import type { Side } from '../../core/order-terms.js';

/** Most decimal places a price may carry (venue-api.md section 8: longer is rejected, not rounded). */
export const MAX_PRICE_DECIMALS = 10;

/** One order the strategy wants on the book, for one quote slot. Money is `Dec`, never a number. */
export interface PlacementIntent {
  /** Quote slot, e.g. `BTC/USDC:BUY:0`. At most one live or unknown order per slot. */
  readonly slot: string;
  readonly pair: string;
  readonly side: Side;
  /** Default LIMIT. */
  readonly type?: 'LIMIT' | 'MARKET';
  /** Required for LIMIT; null for MARKET. */
  readonly price: Dec | null;
  readonly quantity: Dec;
}

/** Per-call options of `PlacementPipeline.place`. */
export interface PlaceOptions {
  /** Higher runs first; ties run in arrival order. Default 0. */
  readonly priority?: number;
  /** Aborts the placement while it waits, and every step before the submission. */
  readonly signal?: AbortSignal;
}

/** Why an intent is malformed, or null when it can be sent. Pure. */
export function intentProblem(intent: PlacementIntent): string | null {
  const type = intent.type ?? 'LIMIT';
  if (intent.slot.length === 0) return 'slot is empty';
  if (!/^[^/\s]+\/[^/\s]+$/.test(intent.pair)) return `pair ${intent.pair} is not BASE/QUOTE`;
  if (intent.side !== 'BUY' && intent.side !== 'SELL') return 'side must be BUY or SELL';
  if (!intent.quantity.gt(ZERO)) return 'quantity must be positive';
  if (type === 'LIMIT') {
    if (intent.price === null) return 'a LIMIT intent needs a price';
    if (!intent.price.gt(ZERO)) return 'price must be positive';
    if (intent.price.decimalPlaces() > MAX_PRICE_DECIMALS) {
      return `price has more than ${MAX_PRICE_DECIMALS} decimal places`;
    }
  } else if (type === 'MARKET') {
    if (intent.price !== null) return 'a MARKET intent takes no price';
  } else {
    return `unsupported order type ${String(type)}`;
  }
  return null;
}

/** The POST /orders body for `intent` under `clientOrderId`: decimals as plain wire strings. */
export function prepareBody(intent: PlacementIntent, clientOrderId: string): PrepareOrderBody {
  const type = intent.type ?? 'LIMIT';
  return {
    pair: intent.pair,
    side: intent.side,
    type,
    ...(intent.price === null ? {} : { price: toWire(intent.price) }),
    quantity: toWire(intent.quantity),
    clientOrderId,
  };
}

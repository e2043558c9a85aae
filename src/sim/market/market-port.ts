/**
 * The narrow port between the simulated market (reference price, background makers, takers)
 * and the simulated venue engine. The engine implements it; the market model drives it on the
 * injected clock. Keeping it narrow lets each side be tested alone.
 */
import type { Dec } from '../../core/decimal.js';
import type { Side } from '../../venue/schemas.js';

/** See the module doc. */
export interface MarketPort {
  /** The pair names the venue lists. */
  pairs(): string[];
  /**
   * Replaces the background makers' resting liquidity on `pair`. Background liquidity belongs to
   * no account, locks nothing and is visible in the book like any other order. Each level is
   * `[price, quantity]`; bids descending, asks ascending.
   */
  setBackgroundLiquidity(
    pair: string,
    bids: ReadonlyArray<readonly [Dec, Dec]>,
    asks: ReadonlyArray<readonly [Dec, Dec]>,
  ): void;
  /**
   * A taker order of `side` that sweeps resting orders best-first (background makers' and
   * accounts' alike, price then time priority) up to `quantity`, never beyond `limitPrice`.
   * Account orders it touches fill (partially or fully) exactly as the venue's rules say.
   * Returns the quantity executed.
   */
  takeLiquidity(pair: string, side: Side, quantity: Dec, limitPrice: Dec): Dec;
  /** Records the reference (fair) price for ground truth and reports. */
  setReferencePrice(pair: string, price: Dec): void;
}

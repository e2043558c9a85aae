/**
 * Funding: the desired quotes never lock more than the wallet can give them.
 *
 * A BUY locks the quote instrument (price × quantity), a SELL the base instrument (quantity).
 * The budget of an instrument is what is available now plus what our own resting orders lock
 * in it: every such order is either kept (and is one of the desired quotes) or replaced (and
 * its funds come back). Orders being placed, unknown or being cancelled are not counted: their
 * funds may be locked and may not come back.
 *
 * Budgets are per instrument, shared by every pair that locks it, and are handed out innermost
 * level first across all pairs (all level-0 quotes, then all level-1 quotes, …), so a deep level
 * of one pair never starves the best level of another.
 */
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { BalanceView, OwnOrderView } from '../market/market-snapshot.js';
import type { Side } from '../core/order-terms.js';
import type { DesiredQuote, FundsLock, QuoteSkip } from './quote-types.js';
import { floorToStep, meetsMinNotional } from './spread-levels.js';

/** The base and quote instruments of a pair. */
export interface PairInstruments {
  readonly base: string;
  readonly quote: string;
}

/** What an order of `side` at `price` for `quantity` locks. */
export function lockFor(side: Side, price: Dec, quantity: Dec, instruments: PairInstruments): FundsLock {
  return side === 'BUY'
    ? { instrument: instruments.quote, amount: price.times(quantity) }
    : { instrument: instruments.base, amount: quantity };
}

/**
 * The budget of every instrument: available plus the funds locked in our own resting orders
 * (not cancelling, not unknown). `instrumentsOf` gives a pair's instruments; orders of a pair it
 * does not know are not counted.
 */
export function fundingPools(
  balances: Readonly<Record<string, BalanceView>>,
  own: readonly OwnOrderView[],
  instrumentsOf: (pair: string) => PairInstruments | undefined,
): Map<string, Dec> {
  const pools = new Map<string, Dec>();
  for (const [instrument, b] of Object.entries(balances)) {
    pools.set(instrument, b.available.gt(ZERO) ? b.available : ZERO);
  }
  for (const o of own) {
    if (!o.resting || o.cancelling || o.unknown || !o.remaining.gt(ZERO)) continue;
    const inst = instrumentsOf(o.pair);
    if (inst === undefined) continue;
    const lock = lockFor(o.side, o.price, o.remaining, inst);
    pools.set(lock.instrument, (pools.get(lock.instrument) ?? ZERO).plus(lock.amount));
  }
  return pools;
}

/** A priced and sized quote waiting for funds. */
export interface FundingCandidate {
  readonly quote: DesiredQuote;
  readonly instruments: PairInstruments;
  readonly minNotional: Dec | null;
  readonly quantityStep: Dec;
}

function fundingOrder(a: FundingCandidate, b: FundingCandidate): number {
  const qa = a.quote;
  const qb = b.quote;
  if (qa.level !== qb.level) return qa.level - qb.level;
  if (qa.pair !== qb.pair) return qa.pair < qb.pair ? -1 : 1;
  return qa.side === qb.side ? 0 : qa.side === 'BUY' ? -1 : 1;
}

/**
 * Hands the pools out to the candidates, innermost level first. A candidate the pool cannot
 * fully cover is shrunk to what is left (rounded down to its quantity step); when that is
 * below the minimum notional, or nothing, the level is skipped. `pools` is not modified.
 */
export function allocateFunds(
  candidates: readonly FundingCandidate[],
  pools: ReadonlyMap<string, Dec>,
): { readonly funded: DesiredQuote[]; readonly skipped: QuoteSkip[] } {
  const left = new Map(pools);
  const funded: DesiredQuote[] = [];
  const skipped: QuoteSkip[] = [];
  for (const c of [...candidates].sort(fundingOrder)) {
    const q = c.quote;
    const want = lockFor(q.side, q.price, q.quantity, c.instruments);
    const have = left.get(want.instrument) ?? ZERO;
    let quantity = q.quantity;
    if (want.amount.gt(have)) {
      const affordable = q.side === 'BUY' ? have.div(q.price) : have;
      quantity = floorToStep(affordable, c.quantityStep);
    }
    if (!meetsMinNotional(quantity, q.price, c.minNotional)) {
      skipped.push({
        pair: q.pair,
        side: q.side,
        level: q.level,
        reason: `balance of ${want.instrument} (${have.toFixed()} left) cannot cover the level at the minimum size`,
      });
      continue;
    }
    const lock = lockFor(q.side, q.price, quantity, c.instruments);
    left.set(lock.instrument, have.minus(lock.amount));
    funded.push({ ...q, quantity, locks: lock });
  }
  return { funded, skipped };
}

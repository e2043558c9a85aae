import { defaultsOf } from '../../../src/config/define.js';
import {
  type DeepPartial,
  type PairStrategyConfig,
  type StrategyConfig,
  strategySchema,
} from '../../../src/config/sections/strategy.js';
import { Dec } from '../../../src/core/decimal.js';
import type {
  BalanceView,
  BookView,
  MarketSnapshot,
  OwnOrderView,
  PairMarket,
} from '../../../src/market/market-snapshot.js';
import { pairConfig } from '../../../src/config/sections/strategy-rules.js';
import { type PairStrategyParams, type StrategyParams, toPairParams } from '../../../src/strategy/params.js';
import { type DesiredQuote, type QuoteTolerance, slotId } from '../../../src/strategy/quote-types.js';
import type { Side } from '../../../src/core/order-terms.js';

/** Shared builders for the strategy tables. Time is fixed: NOW. */

/** A quote's own tolerance (the latency-aware model's): 9 bps inside, 18 outside, toxic below 8. */
export function tolerance(over: Partial<QuoteTolerance> = {}): QuoteTolerance {
  return {
    insideBps: 9,
    outsideBps: 18,
    toxicEdgeBps: 8,
    sigmaBps: 1.3,
    prepareShare: 0.5,
    signShare: 1,
    ...over,
  };
}

export const NOW = 1_700_000_000_000;
export const PAIR = 'BTC/USDC';

export const d = (x: string | number): Dec => new Dec(x);

/** The schema defaults of the whole `strategy` section. */
export function defaultStrategyConfig(): StrategyConfig {
  return defaultsOf(strategySchema) as unknown as StrategyConfig;
}

/** The default pair parameters with `over` merged in (config shape: decimals as strings). */
export function pairParams(over: DeepPartial<PairStrategyConfig> = {}): PairStrategyParams {
  const cfg = defaultStrategyConfig();
  return toPairParams(pairConfig({ ...cfg, pairs: [{ pair: PAIR, ...over }] }, PAIR));
}

/** Strategy params for several pairs. */
export function params(
  pairs: Readonly<Record<string, DeepPartial<PairStrategyConfig>>> = { [PAIR]: {} },
): StrategyParams {
  const out: Record<string, PairStrategyParams> = {};
  for (const [pair, over] of Object.entries(pairs)) out[pair] = pairParams(over);
  return { pairs: out };
}

type Lv = readonly [string | number, string | number];

/** A book from `[price, qty]` tuples, best first. */
export function book(bids: readonly Lv[], asks: readonly Lv[], receivedAt = NOW): BookView {
  const lv = ([p, q]: Lv) => ({ price: d(p), quantity: d(q) });
  return { bids: bids.map(lv), asks: asks.map(lv), sequence: 1, receivedAt };
}

/** A pair's market; BTC/USDC with a 99/101 book unless overridden. */
export function market(over: Partial<PairMarket> = {}): PairMarket {
  const pair = over.pair ?? PAIR;
  const [base = 'BTC', quote = 'USDC'] = pair.split('/');
  return {
    pair,
    base,
    quote,
    minQuoteAmount: null,
    book: book([[99, 5]], [[101, 5]]),
    trades: [],
    external: null,
    ...over,
  };
}

export function bal(available: string | number, locked: string | number = 0): BalanceView {
  return { available: d(available), locked: d(locked) };
}

/** A snapshot at NOW of the given markets. */
export function snapshot(
  markets: readonly PairMarket[],
  balances: MarketSnapshot['balances'] = null,
): MarketSnapshot {
  const pairs: Record<string, PairMarket> = {};
  for (const m of markets) pairs[m.pair] = m;
  return { now: NOW, pairs, balances, balancesAt: NOW, account: null };
}

const toDec = (x: string | number | Dec): Dec => (typeof x === 'object' ? x : d(x));

/** An own order, resting by default. */
export function own(
  over: Omit<Partial<OwnOrderView>, 'price' | 'remaining'> & {
    side: Side;
    price: string | number | Dec;
    remaining?: string | number | Dec;
  },
): OwnOrderView {
  const pair = over.pair ?? PAIR;
  const level = 0;
  return {
    key: over.key ?? `k-${over.side}-${String(over.price)}`,
    slot: over.slot === undefined ? slotId(pair, over.side, level) : over.slot,
    pair,
    side: over.side,
    price: toDec(over.price),
    remaining: toDec(over.remaining ?? 1),
    resting: over.resting ?? true,
    unknown: over.unknown ?? false,
    cancelling: over.cancelling ?? false,
    since: over.since ?? NOW - 1_000,
  };
}

/** A desired quote; `reference` 100 unless given. */
export function quote(
  over: Omit<Partial<DesiredQuote>, 'price' | 'quantity'> & {
    side: Side;
    price: string | number;
    quantity?: string | number;
  },
): DesiredQuote {
  const pair = over.pair ?? PAIR;
  const level = over.level ?? 0;
  return {
    slot: slotId(pair, over.side, level),
    pair,
    side: over.side,
    level,
    price: d(over.price),
    quantity: d(over.quantity ?? 1),
    reference: over.reference ?? d(100),
    referenceAt: NOW,
    ...(over.tolerance === undefined ? {} : { tolerance: over.tolerance }),
  };
}

/** Plain strings of the quotes, for table comparisons: `SIDE level price@qty`. */
export function show(quotes: readonly DesiredQuote[]): string[] {
  return quotes.map((q) => `${q.side} ${q.level} ${q.price.toFixed()}@${q.quantity.toFixed()}`);
}

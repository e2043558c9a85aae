/** Noon UTC, so a day boundary is 12 h away. */

import type { CancelAction, PlaceAction } from '../../../src/strategy/quote-types.js';
import { Dec } from '../../../src/core/decimal.js';
import type {
  AccountView,
  BookView,
  MarketSnapshot,
  OwnOrderView,
  PairMarket,
} from '../../../src/market/market-snapshot.js';
import { defaultsOf } from '../../../src/config/define.js';
import { riskSchema, type RiskConfig } from '../../../src/config/sections/risk.js';
import { evaluate, initialRiskState } from '../../../src/risk/risk-gate.js';
import { riskParamsFromConfig } from '../../../src/risk/risk-params.js';
import type { RiskInput, RiskParams, RiskState, RiskVerdict } from '../../../src/risk/risk-types.js';
import type { Action } from '../../../src/strategy/quote-types.js';
import { slotId } from '../../../src/strategy/quote-types.js';
import type { Side } from '../../../src/core/order-terms.js';
export const T0 = Date.UTC(2024, 0, 15, 12, 0, 0);
export const d = (s: string | number): Dec => new Dec(s);

/** The `risk` table's defaults, resolved: every key the tests below do not set keeps its default. */
const TABLE_DEFAULTS: RiskParams = riskParamsFromConfig(defaultsOf(riskSchema) as RiskConfig);

/** Limits with round numbers; BTC/USDC trades around 100 in these tests. */
export function params(over: Partial<RiskParams> = {}): RiskParams {
  return {
    ...TABLE_DEFAULTS,
    maxOrderNotional: d('1000'),
    maxInventoryNotional: d('10000'),
    pairLimits: {},
    maxOpenOrders: 10,
    ordersPerMinute: 60,
    rateBurst: 5,
    staleBookMs: 5_000,
    priceJump: { maxMovePct: d('2'), windowMs: 30_000, cooldownMs: 60_000 },
    dailyLoss: { perPair: d('500'), total: d('1000') },
    breaker: { failures: 3, baseBackoffMs: 10_000, maxBackoffMs: 40_000 },
    killSwitch: { drawdown: null, profitLock: null, scope: 'daemon' },
    ...over,
  };
}

export function account(over: Partial<AccountView> = {}): AccountView {
  return {
    status: 'ACTIVE',
    maxOpenOrders: 50,
    ordersPerMinute: 600,
    clientOrderIdPrefix: 'testmm-',
    readAt: T0,
    authFailing: false,
    ...over,
  };
}

export function bookAt(receivedAt: number, bid = '99', ask = '101'): BookView {
  return {
    bids: [{ price: d(bid), quantity: d('5') }],
    asks: [{ price: d(ask), quantity: d('5') }],
    sequence: 1,
    receivedAt,
  };
}

function pairMarket(pair: string, book: BookView | null): PairMarket {
  const [base, quote] = pair.split('/') as [string, string];
  return { pair, base, quote, minQuoteAmount: d('10'), book, trades: [], external: null };
}

/** A snapshot at `now` with a fresh book (mid 100) on BTC/USDC and ETH/USDC unless overridden. */
export function snapshot(
  now: number,
  over: { books?: Record<string, BookView | null>; account?: AccountView | null } = {},
): MarketSnapshot {
  const books: Record<string, BookView | null> = {
    'BTC/USDC': bookAt(now),
    'ETH/USDC': bookAt(now),
    ...over.books,
  };
  const pairs: Record<string, PairMarket> = {};
  for (const [pair, book] of Object.entries(books)) pairs[pair] = pairMarket(pair, book);
  return {
    now,
    pairs,
    balances: {},
    balancesAt: now,
    account: over.account === undefined ? account() : over.account,
  };
}

let seq = 0;

/** A placement of `qty` at `price` (defaults: BTC/USDC level 0, priority 0). */
export function place(
  side: Side,
  price: string,
  qty: string,
  over: { pair?: string; level?: number; priority?: number; replaces?: string | null } = {},
): PlaceAction {
  const pair = over.pair ?? 'BTC/USDC';
  const level = over.level ?? seq++;
  return {
    type: 'place',
    quote: {
      slot: slotId(pair, side, level),
      pair,
      side,
      level,
      price: d(price),
      quantity: d(qty),
      reference: d('100'),
      referenceAt: T0,
    },
    priority: over.priority ?? 0,
    replaces: over.replaces ?? null,
  };
}

export function cancel(key: string, reason = 'reprice'): CancelAction {
  return { type: 'cancel', key, reason };
}

/** One of our orders (resting by default). */
export function own(
  key: string,
  side: Side,
  remaining: string,
  over: Partial<OwnOrderView> = {},
): OwnOrderView {
  return {
    key,
    slot: null,
    pair: 'BTC/USDC',
    side,
    price: d(side === 'BUY' ? '99' : '101'),
    remaining: d(remaining),
    resting: true,
    unknown: false,
    cancelling: false,
    since: T0,
    ...over,
  };
}

/** An input at `now` with nothing to do, flat, no PnL, no failures. */
export function input(now: number, over: Partial<RiskInput> = {}): RiskInput {
  return {
    snapshot: snapshot(now),
    actions: [],
    ownOrders: [],
    inventory: {},
    pnl: {},
    pipelineFailures: 0,
    now,
    ...over,
  };
}

/** Runs one evaluation from a fresh state started at T0. */
export function once(inp: RiskInput, p: RiskParams = params()): RiskVerdict {
  return evaluate(initialRiskState(T0, p), inp, p);
}

/** Carries the state through a sequence of evaluations. */
export class GateRun {
  state: RiskState;
  constructor(
    readonly p: RiskParams = params(),
    startedAt = T0,
  ) {
    this.state = initialRiskState(startedAt, p);
  }

  step(inp: RiskInput): RiskVerdict {
    const v = evaluate(this.state, inp, this.p);
    this.state = v.state;
    return v;
  }
}

/** The slot ids of the allowed placements. */
export function allowedSlots(v: RiskVerdict): string[] {
  return v.allowed.filter((a): a is PlaceAction => a.type === 'place').map((a) => a.quote.slot);
}

/** The denial reasons, in order. */
export function deniedReasons(v: RiskVerdict): string[] {
  return v.denied.map((x) => x.reason);
}

/** The keys of the forced cancels. */
export function forcedKeys(v: RiskVerdict): string[] {
  return v.cancels.map((c) => c.key);
}

export function placements(actions: readonly Action[]): PlaceAction[] {
  return actions.filter((a): a is PlaceAction => a.type === 'place');
}

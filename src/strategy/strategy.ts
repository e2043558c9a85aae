/**
 * The strategy, the pure stage between the market snapshot and the reconciler:
 * {@link computeQuotes} turns one snapshot, our own orders, the wallet and the params into the
 * quotes the daemon wants on the book (per pair: reference, inventory limits, the quoting model's
 * distances, levels or a ladder, no-cross, tick rounding, price band, sizes; then funds across
 * all pairs), and reports everything not quoted with its reason. No IO, no clock, no logs.
 */
import { Dec } from '../core/decimal.js';
import type { HedgeOffset } from '../market/net-position.js';
import {
  BALANCES_PENDING,
  type MarketSnapshot,
  type OwnOrderView,
  type PairMarket,
  type WalletInput,
} from '../market/market-snapshot.js';
import type { Side } from '../core/order-terms.js';
import {
  type FundingCandidate,
  type PairInstruments,
  allocateFunds,
  fundingPools,
  lockFor,
} from './funding.js';
import { costFloor, holdToFloor, type PairCost } from './cost-floor.js';
import { afterFills } from './fill-reaction.js';
import { classicPlan, ladderPlan, type LevelPlan } from './ladder.js';
import {
  OPEN_GATE,
  baseShare,
  inventoryGate,
  inventoryPressure,
  type PairHoldings,
  pairHoldings,
  sideLevelCount,
  sizeSkewFactor,
} from './inventory-skew.js';
import { type PipelineTiming, UNMEASURED } from '../core/pipeline-timing.js';
import { quotingModel } from './models/registry.js';
import type { PairStrategyParams, StrategyParams } from './params.js';
import { type CrossLimits, crossLimits, effectiveTick, inBand, noCross, roundAway } from './price-guards.js';
import {
  type DesiredQuote,
  type QuoteSkip,
  type QuoteTolerance,
  type StrategyResult,
  slotId,
} from './quote-types.js';
import { bookWithoutOwn } from '../market/ownless-book.js';
import { bestPrices, referencePrice } from './reference-price.js';
import { bestQuotes, clampDistances, quoteQuantity, scaledSize } from './spread-levels.js';

type PairOutcome =
  | {
      readonly ok: true;
      readonly candidates: FundingCandidate[];
      readonly skipped: QuoteSkip[];
      readonly ref: Dec;
      readonly at: number;
    }
  | { readonly ok: false; readonly skip: QuoteSkip; readonly ref?: { price: Dec; at: number } };

/**
 * The quotes the daemon wants on the book, from one snapshot. Pure: no IO, no clock (time is
 * `snapshot.now`), no logs; anything not quoted is reported in `skipped` with its reason.
 *
 * Per pair: reference price (own orders removed from the book) → hard inventory limits →
 * centre and spreads from the pair's quoting model (`models/registry.ts`; `timing` is what the
 * daemon measured of its pipeline, for the latency-aware model) clamped to `[minBps, maxBps]` → levels
 * → no-cross against the own-less book and our own orders, rounding away from the market (BUY
 * down, SELL up) to the tick and at most 10 decimal places → price band → size, raised to the
 * minimum notional. Then funds are handed out across all pairs, innermost level first, from
 * `available + locked in our own resting orders` of each instrument.
 */
export function computeQuotes(
  snapshot: MarketSnapshot,
  ownOrders: readonly OwnOrderView[],
  inventory: WalletInput,
  params: StrategyParams,
  timing: PipelineTiming = UNMEASURED,
  costs: Readonly<Record<string, PairCost>> = {},
): StrategyResult {
  const skipped: QuoteSkip[] = [];
  const candidates: FundingCandidate[] = [];
  const references: Record<string, { price: Dec; at: number }> = {};
  for (const pair of Object.keys(params.pairs).sort()) {
    const p = params.pairs[pair] as PairStrategyParams;
    const out = quotePair(pair, snapshot, ownOrders, inventory, p, timing, costs[pair]);
    if (out.ok) {
      references[pair] = { price: out.ref, at: out.at };
      candidates.push(...out.candidates);
      skipped.push(...out.skipped);
    } else {
      if (out.ref !== undefined) references[pair] = out.ref;
      skipped.push(out.skip);
    }
  }
  if (inventory === null) return { quotes: [], skipped, references, now: snapshot.now };
  if (inventory === BALANCES_PENDING) {
    const quotes = candidates.map((c) => c.quote).sort(bySlot);
    return { quotes, skipped, references, now: snapshot.now, provisional: true };
  }
  const instrumentsOf = (pair: string): PairInstruments | undefined => snapshot.pairs[pair];
  const { funded, skipped: unfunded } = allocateFunds(
    candidates,
    fundingPools(inventory, ownOrders, instrumentsOf),
  );
  const quotes = funded.sort(bySlot);
  return { quotes, skipped: [...skipped, ...unfunded], references, now: snapshot.now };
}

/** The holdings with the hedge venue's position (and the quote it received) added. */
function netHoldings(h: PairHoldings, hedge: HedgeOffset | undefined): PairHoldings {
  return hedge === undefined ? h : { base: h.base.plus(hedge.base), quote: h.quote.plus(hedge.quote) };
}

/** `price` moved `bps` away from the market: a bid down, an ask up (the hedge gate's `widen`). */
function widened(side: 'BUY' | 'SELL', price: Dec, bps: number): Dec {
  if (bps === 0) return price;
  const f = new Dec(bps).div(10_000);
  return side === 'BUY' ? price.times(new Dec(1).minus(f)) : price.times(f.plus(1));
}

function bySlot(a: { readonly slot: string }, b: { readonly slot: string }): number {
  return a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0;
}

function quotePair(
  pair: string,
  snapshot: MarketSnapshot,
  own: readonly OwnOrderView[],
  inventory: WalletInput,
  p: PairStrategyParams,
  timing: PipelineTiming,
  cost: PairCost | undefined,
): PairOutcome {
  const skip = (reason: string, keepOrders = false): PairOutcome => ({
    ok: false,
    skip: keepOrders ? { pair, side: null, reason, keepOrders } : { pair, side: null, reason },
  });
  if (!p.enabled) return skip('pair disabled');
  const market = snapshot.pairs[pair];
  if (market === undefined) return skip('no market data for the pair');
  if (inventory === null) return skip('no balances yet', true);
  const now = snapshot.now;
  const refRes = referencePrice(market, own, p, now);
  if (!refRes.ok) return skip(`no reference price: ${refRes.reason}`);
  const { price: ref, at } = refRes.ref;
  const withRef = (reason: string): PairOutcome => ({
    ok: false,
    skip: { pair, side: null, reason },
    ref: { price: ref, at },
  });
  const book = market.book;
  if (book === null || now - book.receivedAt > p.reference.bookMaxAgeMs) {
    return withRef('no fresh book for the no-cross guard');
  }
  if (!inBand(ref, p.guards.priceFloor, p.guards.priceCeiling)) {
    return withRef(`reference ${ref.toFixed()} is outside the price band`);
  }
  // Balances pending: no holdings to skew by or gate on (the sign-time check applies both).
  // The firm's net holdings: this venue's plus the hedge venue's (net-position.ts); funding reads
  // this venue's balances alone.
  const hedge = snapshot.hedge?.[pair];
  const holdings =
    inventory === BALANCES_PENDING
      ? null
      : netHoldings(pairHoldings(inventory, market.base, market.quote), hedge);
  const share = holdings === null ? null : baseShare(holdings, ref);
  if (holdings !== null && share === null) {
    return withRef(`no ${market.base} and no ${market.quote} to quote with`);
  }

  const modelInput = { pair, reference: ref, now, market, holdings, share, params: p, timing };
  const model = quotingModel(p.model).shape(modelInput);
  if (!model.ok) return withRef(model.reason);
  const shape = afterFills(model.shape, pair, now, timing.lastFillAt, p.fillReaction);
  const best = bestQuotes(ref, clampDistances(shape, p.spread));
  const limits = crossLimits(bestPrices(bookWithoutOwn(book, own, pair)), own, pair);
  const gate = holdings === null || share === null ? OPEN_GATE : inventoryGate(holdings, share, p.inventory);
  const pressure = holdings === null || share === null ? 0 : inventoryPressure(holdings, share, p.inventory);
  // The cost floor yields when a hard limit has shut the side that would add to the position.
  const addingShut = cost === undefined ? false : cost.position.gt(0) ? !gate.buy : !gate.sell;
  const floor = costFloor(cost, p.inventory.costFloorBps, addingShut);
  const tick = effectiveTick(p.guards.tick);

  const skipped: QuoteSkip[] = [];
  const candidates: FundingCandidate[] = [];
  let highestBid: Dec | null = null;
  for (const side of ['BUY', 'SELL'] as const) {
    if (!(side === 'BUY' ? gate.buy : gate.sell)) {
      skipped.push({ pair, side, reason: gate.reason ?? 'inventory limit' });
      continue;
    }
    const hedgeGate = hedge?.gate?.[side];
    if (hedgeGate?.quote === false) {
      skipped.push({ pair, side, reason: hedgeGate.reason ?? 'hedge-venue-failing' });
      continue;
    }
    // An ask must also stay above every bid we are about to quote.
    const sideLimits: CrossLimits =
      side === 'SELL' && highestBid !== null && (limits.askAbove === null || highestBid.gt(limits.askAbove))
        ? { ...limits, askAbove: highestBid }
        : limits;
    const ladder = p.levels.ladder?.[side];
    const count = sideLevelCount(side, pressure, ladder?.length ?? p.levels.count, p.inventory.shedOuterAt);
    const widen = hedgeGate === undefined ? 0 : hedgeGate.widenBps;
    const hold = (price: Dec): Dec => holdToFloor(side, widened(side, price, widen), floor, tick);
    let bestRaw = hold(side === 'BUY' ? best.bid : best.ask);
    let plan: LevelPlan = classicPlan(side, count, p.levels);
    if (ladder !== undefined) {
      // Each rung's distance is the model's with the rung as its spread (see ladder.ts).
      const bestWith = (spreadBps: number): Dec | null => {
        const spread = { ...p.spread, bidBps: spreadBps, askBps: spreadBps };
        const m = quotingModel(p.model).shape({ ...modelInput, params: { ...p, spread } });
        if (!m.ok) return null;
        const s = afterFills(m.shape, pair, now, timing.lastFillAt, p.fillReaction);
        const b = bestQuotes(ref, clampDistances(s, p.spread));
        return side === 'BUY' ? b.bid : b.ask;
      };
      const laid = ladderPlan(side, ladder, count, p.levels.sizeUnit, bestWith, hold);
      if (laid === null) {
        skipped.push({ pair, side, reason: 'the quoting model gives no price for the first rung' });
        continue;
      }
      bestRaw = laid.best;
      plan = laid.plan;
    }
    const levels = sideLevels(
      pair,
      side,
      bestRaw,
      sideLimits,
      market,
      ref,
      at,
      p,
      shape.tolerance?.[side],
      sizeSkewFactor(side, pressure, p.inventory.sizeSkew) * (shape.sizeShare ?? 1),
      plan,
    );
    skipped.push(...levels.skipped);
    candidates.push(...levels.candidates);
    if (side === 'BUY' && levels.candidates[0] !== undefined) highestBid = levels.candidates[0].quote.price;
  }
  return { ok: true, candidates, skipped, ref, at };
}

function sideLevels(
  pair: string,
  side: Side,
  bestRaw: Dec,
  limits: CrossLimits,
  market: PairMarket,
  ref: Dec,
  at: number,
  p: PairStrategyParams,
  tolerance: QuoteTolerance | undefined,
  sizeFactor: number,
  plan: LevelPlan,
): { candidates: FundingCandidate[]; skipped: QuoteSkip[] } {
  const tick = effectiveTick(p.guards.tick);
  const step = p.guards.quantityStep;
  const candidates: FundingCandidate[] = [];
  const skipped: QuoteSkip[] = [];
  const best = noCross(roundAway(bestRaw, side, tick), side, limits, tick);
  let prev: Dec | null = null;
  for (let level = 0; level < plan.count; level++) {
    let price =
      best === null ? null : noCross(roundAway(plan.price(level, best), side, tick), side, limits, tick);
    // Levels never share or swap prices: each is at least one tick further out than the last.
    if (price !== null && prev !== null && (side === 'BUY' ? price.gte(prev) : price.lte(prev))) {
      price = roundAway(side === 'BUY' ? prev.minus(tick) : prev.plus(tick), side, tick);
    }
    if (price === null || !price.gt(0)) {
      skipped.push({ pair, side, level, reason: 'no positive price below the no-cross limit' });
      break;
    }
    prev = price;
    if (!inBand(price, p.guards.priceFloor, p.guards.priceCeiling)) {
      skipped.push({ pair, side, level, reason: `price ${price.toFixed()} is outside the price band` });
      continue;
    }
    const qty = quoteQuantity(scaledSize(plan.size(level), sizeFactor), price, step, market.minQuoteAmount);
    if (!qty.gt(0)) {
      skipped.push({ pair, side, level, reason: 'size rounds to zero at the quantity step' });
      continue;
    }
    const quote: DesiredQuote = {
      slot: slotId(pair, side, level),
      pair,
      side,
      level,
      price,
      quantity: qty,
      reference: ref,
      referenceAt: at,
      locks: lockFor(side, price, qty, market),
      ...(tolerance === undefined
        ? {}
        : { tolerance: levelTolerance(tolerance, level, plan.extraBps(level)) }),
    };
    candidates.push({ quote, instruments: market, minNotional: market.minQuoteAmount, quantityStep: step });
  }
  return { candidates, skipped };
}

/**
 * A deeper level's tolerance: its band is widened by its distance from level 0 on both sides, so
 * every level is repriced where level 0 would be (a deep quote the price approaches becomes the
 * inner one instead of costing a placement), and the toxic edge stays the same for all.
 */
function levelTolerance(t: QuoteTolerance, level: number, extra: number): QuoteTolerance {
  if (level === 0) return t;
  return { ...t, insideBps: t.insideBps + extra, outsideBps: t.outsideBps + extra };
}

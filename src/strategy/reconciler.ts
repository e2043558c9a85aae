/**
 * The reconciler: desired quotes + own orders → ranked actions. Pure.
 *
 * Per desired slot:
 * - a resting order that is toxic (the quote's own tolerance says the reference came within its
 *   edge), or outside the size tolerance and more than `oversizeMultiple` times the quote's size,
 *   is cancelled at once, whatever the slot is doing;
 * - a slot with an order being placed, unknown or being cancelled is busy: nothing is placed
 *   for it and its resting orders are left alone (never two placements for one slot, never a
 *   placement over an order whose outcome is not known). A quote with its own tolerance treats an
 *   order being cancelled as gone: the replacement goes into the slot's other registry slot;
 * - otherwise a resting order within `priceToleranceBps` and `sizeTolerancePct` of the desired
 *   quote, and younger than `maxOrderAgeMs`, is kept; further resting orders on the slot are
 *   cancelled as duplicates;
 * - otherwise the slot needs a placement: `missing` (no order), `reprice` (off target) or
 *   `refresh` (too old), replacing the resting order closest in price.
 *
 * Own orders of slots not desired (or of no slot) are cancelled, unless a skip with
 * `keepOrders` covers their pair and side (e.g. no balances yet). Cancels come first, unranked:
 * they run in the concurrent pool at once. Placements follow in priority order (`priority.ts`).
 *
 * Make before break: placements are funded in priority order from the available balance of the
 * instrument they lock (a replaced order's funds are still locked, so "available covers the new
 * order" means the wallet covers both). Funded, a replacement is placed with `replaces` set and
 * the daemon cancels the old order once the new one rests. Not funded, the old order is
 * cancelled now and nothing is placed for the slot: the slot is busy while the cancel runs, and
 * a later cycle places it once the cancel has released the funds (break before make). A missing
 * slot that is not funded waits. Unknown balances (null) place nothing and break nothing.
 * Pending balances (`BALANCES_PENDING`, the startup's provisional plan) place without a funds
 * check and break nothing for funds: the pipeline judges each placement again with the real
 * balances before it signs it.
 */
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import {
  BALANCES_PENDING,
  knownBalances,
  type OwnOrderView,
  type WalletInput,
} from '../market/market-snapshot.js';
import type { ReconcileParams } from './params.js';
import { decisive, edgeEstimate, offEstimate } from './bps-estimate.js';
import { placementPriority, priorityContext } from './priority.js';
import type { Action, DesiredQuote, FundsLock, QuoteSkip, StrategyResult } from './quote-types.js';

/** A placement the reconciler did not emit this cycle, and why. */
export interface Deferred {
  readonly slot: string;
  readonly reason: string;
}

/** The full answer of a reconcile pass. */
export interface ReconcilePlan {
  /** Cancels first, then placements by ascending priority. */
  readonly actions: Action[];
  /** Keys of the orders kept as they are. */
  readonly kept: string[];
  readonly deferred: Deferred[];
}

type Need = {
  readonly quote: DesiredQuote;
  readonly replaces: OwnOrderView | null;
  readonly reason: 'missing' | 'reprice' | 'refresh';
};

/** |a − b| / b in bps (b > 0). */
function offBps(a: Dec, b: Dec): number {
  return a.minus(b).abs().div(b).times(10_000).toNumber();
}

/**
 * The edge of an order at `price` against `reference`: its distance from the reference in bps,
 * positive on the order's own side (below the reference for a BUY, above it for a SELL).
 */
export function edgeBps(side: 'BUY' | 'SELL', price: Dec, reference: Dec): number {
  if (!reference.gt(0)) return 0;
  const away = side === 'BUY' ? reference.minus(price) : price.minus(reference);
  return away.div(reference).times(10_000).toNumber();
}

/**
 * True when `o`, a resting order of the slot of `q`, is toxic: the reference has come within the
 * quote's `toxicEdgeBps` of it (or through it). Such an order is cancelled at once, never kept
 * while a replacement is prepared. Only quotes that carry a tolerance have a toxic edge.
 */
export function isToxic(o: OwnOrderView, q: DesiredQuote): boolean {
  const t = q.tolerance;
  if (t === undefined) return false;
  // The float estimate decides when it is clear of the edge; a close call takes the exact division.
  const estimate = edgeEstimate(o.side, o.price, q.reference);
  if (estimate !== null && decisive(estimate, t.toxicEdgeBps)) return estimate < t.toxicEdgeBps;
  return edgeBps(o.side, o.price, q.reference) < t.toxicEdgeBps;
}

/** Whether the price of `o` is within the tolerance of `q` (the quote's own, else the fixed one). */
function priceFits(o: OwnOrderView, q: DesiredQuote, params: ReconcileParams, share: number): boolean {
  const t = q.tolerance;
  if (t === undefined) {
    const off = offEstimate(o.price, q.price);
    if (off !== null && decisive(off, params.priceToleranceBps)) return off <= params.priceToleranceBps;
    return offBps(o.price, q.price) <= params.priceToleranceBps;
  }
  // `share` may be infinite: any price that is not toxic (and 0 · ∞ must not become NaN).
  const widen = (bps: number): number => (share === Number.POSITIVE_INFINITY ? share : share * bps);
  // Float estimates decide when every comparison is clear of its bound (`bps-estimate.ts`).
  const wantE = edgeEstimate(q.side, q.price, q.reference);
  const edgeE = edgeEstimate(o.side, o.price, q.reference);
  if (wantE !== null && edgeE !== null) {
    const low = wantE - widen(t.insideBps);
    const high = wantE + widen(t.outsideBps);
    if (decisive(edgeE, low) && decisive(edgeE, high) && decisive(edgeE, t.toxicEdgeBps)) {
      return edgeE >= low && edgeE <= high && edgeE >= t.toxicEdgeBps;
    }
  }
  const want = edgeBps(q.side, q.price, q.reference);
  const edge = edgeBps(o.side, o.price, q.reference);
  return edge >= want - widen(t.insideBps) && edge <= want + widen(t.outsideBps) && edge >= t.toxicEdgeBps;
}

/**
 * Whether `o` holds more than `oversizeMultiple` times the quote's size and more than the size
 * tolerance keeps (never with 0).
 */
function oversize(o: OwnOrderView, q: DesiredQuote, params: ReconcileParams): boolean {
  return (
    params.oversizeMultiple > 0 &&
    o.remaining.gt(q.quantity.times(params.oversizeMultiple)) &&
    !sizeFits(o, q, params)
  );
}

/** Whether the size of `o` is within `sizeTolerancePct` of the quote's (estimated where clear). */
function sizeFits(o: OwnOrderView, q: DesiredQuote, params: ReconcileParams): boolean {
  const off = offEstimate(o.remaining, q.quantity);
  if (off !== null && decisive(off / 100, params.sizeTolerancePct))
    return off / 100 <= params.sizeTolerancePct;
  return offBps(o.remaining, q.quantity) / 100 <= params.sizeTolerancePct;
}

/**
 * Orders by distance from `price` in bps, nearest first: the sign of `offBps(a) − offBps(b)`, from
 * the estimates when they are clear of each other (the same order as the exact distances).
 */
function byDistanceFrom(price: Dec): (a: OwnOrderView, b: OwnOrderView) => number {
  return (a, b) => {
    const ea = offEstimate(a.price, price);
    const eb = offEstimate(b.price, price);
    if (ea !== null && eb !== null && decisive(ea, eb)) return ea - eb;
    return offBps(a.price, price) - offBps(b.price, price);
  };
}

/**
 * What keeps `o` from standing as the order of `q` (see {@link orderFits}), the first of: its
 * price within the toxic edge (`toxic`), its price outside the band (`band`), its size, its age;
 * null when it fits.
 */
export function misfit(
  o: OwnOrderView,
  q: DesiredQuote,
  params: ReconcileParams,
  now: number | undefined,
  bandShare = 1,
): 'toxic' | 'band' | 'size' | 'age' | null {
  const { fits, tooOld } = orderFits(o, q, params, now, bandShare);
  if (fits) return null;
  if (isToxic(o, q)) return 'toxic';
  if (!priceFits(o, q, params, bandShare)) return 'band';
  return tooOld ? 'age' : 'size';
}

/**
 * Whether `o` can stay as the order of `q`: within tolerance, and not too old. `bandShare` (0 to
 * 1) narrows a quote's own tolerance band, for a check that wants a fresher price.
 */
export function orderFits(
  o: OwnOrderView,
  q: DesiredQuote,
  params: ReconcileParams,
  now: number | undefined,
  bandShare = 1,
): { readonly fits: boolean; readonly tooOld: boolean } {
  const priceOk = priceFits(o, q, params, bandShare);
  const sizeOk = sizeFits(o, q, params);
  const tooOld = now !== undefined && now - o.since > params.maxOrderAgeMs;
  return { fits: priceOk && sizeOk && !tooOld, tooOld: priceOk && sizeOk && tooOld };
}

function lockOf(q: DesiredQuote): FundsLock {
  if (q.locks !== undefined) return q.locks;
  const [base = q.pair, quote = q.pair] = q.pair.split('/');
  return q.side === 'BUY'
    ? { instrument: quote, amount: q.price.times(q.quantity) }
    : { instrument: base, amount: q.quantity };
}

function keptBySkip(o: OwnOrderView, skips: readonly QuoteSkip[]): boolean {
  return skips.some(
    (s) => s.keepOrders === true && s.pair === o.pair && (s.side === null || s.side === o.side),
  );
}

function skipReason(o: OwnOrderView, skips: readonly QuoteSkip[]): string {
  const level = o.slot === null ? undefined : Number(o.slot.slice(o.slot.lastIndexOf(':') + 1));
  const s = skips.find(
    (k) =>
      k.pair === o.pair &&
      (k.side === null || k.side === o.side) &&
      (k.level === undefined || k.level === level),
  );
  if (s !== undefined) return s.reason;
  return o.slot === null ? 'not a quote slot' : 'slot no longer desired';
}

const cancellable = (o: OwnOrderView): boolean => o.resting && !o.cancelling && !o.unknown;

/**
 * Whether `o`, an order of the slot that is not cancellable, keeps the slot from a placement. One
 * being placed or unknown always does. One being cancelled does too, unless the quote carries its
 * own tolerance (a latency-aware model): then the replacement is placed beside the cancel, in the
 * slot's other registry slot, as in make before break, instead of a whole cancel later.
 */
function blocks(o: OwnOrderView, q: DesiredQuote): boolean {
  return !o.cancelling || o.unknown || q.tolerance === undefined;
}

/** {@link reconcile} with what it kept and what it deferred, for tests and metrics. */
export function planReconcile(
  desired: StrategyResult,
  own: readonly OwnOrderView[],
  balances: WalletInput,
  params: ReconcileParams,
): ReconcilePlan {
  const cancels: Array<Extract<Action, { type: 'cancel' }>> = [];
  const kept: string[] = [];
  const deferred: Deferred[] = [];
  const cancel = (o: OwnOrderView, reason: string): void => {
    cancels.push({ type: 'cancel', key: o.key, reason });
  };

  const bySlot = new Map<string, DesiredQuote>();
  for (const q of desired.quotes) if (!bySlot.has(q.slot)) bySlot.set(q.slot, q);
  const onSlot = new Map<string, OwnOrderView[]>();
  for (const o of own) {
    if (o.slot !== null && bySlot.has(o.slot)) onSlot.set(o.slot, [...(onSlot.get(o.slot) ?? []), o]);
    else if (cancellable(o) && !keptBySkip(o, desired.skipped)) cancel(o, skipReason(o, desired.skipped));
  }

  const needs: Need[] = [];
  const fulfilled = new Set<string>();
  for (const [slot, q] of bySlot) {
    const all = onSlot.get(slot) ?? [];
    // A toxic or oversize quote goes at once, whatever else the slot is doing (break before make).
    const goesNow = (o: OwnOrderView): boolean => cancellable(o) && (isToxic(o, q) || oversize(o, q, params));
    for (const o of all)
      if (goesNow(o))
        cancel(
          o,
          isToxic(o, q)
            ? 'toxic: the reference came within its edge'
            : `oversize: more than ${params.oversizeMultiple} times the desired size`,
        );
    const orders = all.filter((o) => !goesNow(o));
    if (orders.some((o) => !cancellable(o) && blocks(o, q))) {
      fulfilled.add(slot);
      deferred.push({ slot, reason: 'slot busy: an order is being placed, unknown or being cancelled' });
      continue;
    }
    // Orders already being cancelled (and not holding the slot) are neither kept nor replaced.
    const ranked = orders.filter(cancellable).sort(byDistanceFrom(q.price));
    const keep = ranked.find((o) => orderFits(o, q, params, desired.now).fits);
    const target = keep ?? ranked[0] ?? null;
    for (const o of ranked) if (o !== target) cancel(o, 'duplicate order on the slot');
    if (keep !== undefined) {
      kept.push(keep.key);
      fulfilled.add(slot);
    } else if (target === null) {
      needs.push({ quote: q, replaces: null, reason: 'missing' });
    } else {
      const refresh = orderFits(target, q, params, desired.now).tooOld;
      needs.push({ quote: q, replaces: target, reason: refresh ? 'refresh' : 'reprice' });
    }
  }

  const ctx = priorityContext(desired.quotes, own, fulfilled);
  const ranked = needs
    .map((n) => ({ n, priority: placementPriority(n.quote, ctx, n.replaces) }))
    .sort((a, b) => a.priority - b.priority || (a.n.quote.slot < b.n.quote.slot ? -1 : 1));
  const left = new Map<string, Dec>();
  const known = knownBalances(balances);
  if (known !== null) for (const [i, b] of Object.entries(known)) left.set(i, b.available);
  const places: Action[] = [];
  for (const { n, priority } of ranked) {
    const lock = lockOf(n.quote);
    const available = left.get(lock.instrument) ?? ZERO;
    const place = (): void => {
      places.push({
        type: 'place',
        quote: n.quote,
        priority,
        replaces: n.replaces?.key ?? null,
        reason: n.reason,
      });
    };
    if (balances === BALANCES_PENDING) {
      place(); // funds checked at sign time, with the real balances
    } else if (known !== null && available.gte(lock.amount)) {
      left.set(lock.instrument, available.minus(lock.amount));
      place();
    } else if (known !== null && n.replaces !== null) {
      cancel(n.replaces, `${n.reason}: balance does not cover both orders, cancel before placing`);
      deferred.push({ slot: n.quote.slot, reason: 'waiting for the cancel to release funds' });
    } else {
      deferred.push({
        slot: n.quote.slot,
        reason:
          balances === null ? 'balances unknown' : `${lock.instrument} balance does not cover the order`,
      });
    }
  }
  cancels.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { actions: [...cancels, ...places], kept, deferred };
}

/**
 * The actions that move the book from `own` to `desired`: cancels first (unranked, for the
 * concurrent pool), then placements by ascending priority. See the module doc for the rules.
 */
export function reconcile(
  desired: StrategyResult,
  own: readonly OwnOrderView[],
  balances: WalletInput,
  params: ReconcileParams,
): Action[] {
  return planReconcile(desired, own, balances, params).actions;
}

/**
 * The invariants the daemon must never break, checked on the venue's ground truth (never on what
 * the daemon believes). Each is a count of breaks; every one must be zero:
 *
 * - `duplicateCommits`: a clientOrderId committed more than once (the venue's idempotency key
 *   used for two live orders: doubled exposure);
 * - `duplicateLive`: two orders of the same registry slot on the book at the same instant (a
 *   quote slot has two registry slots, so make-before-break replacement is not a break);
 * - `overlappingPlacements`: a prepare that arrived while an earlier SUBMITTED placement of the
 *   party was still between its prepare and its commit (the venue allows one in flight); a
 *   prepare never submitted awaits nothing on the ledger and only counts as the later one;
 * - `concurrentPrepares`: two prepare calls of the party open at the same time;
 * - `selfTrades`: a trade between two of the daemon's own parties (a firm of several parties must
 *   never cross its own quotes).
 *
 * With several parties the two pipeline invariants hold per party: each party has its own.
 */
import type { PlacementSpan } from '../../../sim/truth/ground-truth-view.js';
import type { SimCapture } from '../run/capture.js';
import { type Interval, liveInterval, overlappingPairs } from './intervals.js';

/** Counts of invariant breaks; see the module doc. */
export interface InvariantBreaks {
  readonly duplicateCommits: number;
  readonly duplicateLive: number;
  readonly overlappingPlacements: number;
  readonly concurrentPrepares: number;
  readonly selfTrades: number;
  readonly total: number;
}

/** Extra commits of clientOrderIds committed more than once. */
export function duplicateCommits(orders: SimCapture['orders']): number {
  const byCid = new Map<string, number>();
  for (const o of orders) {
    if (o.clientOrderId === null || !o.committed) continue;
    byCid.set(o.clientOrderId, (byCid.get(o.clientOrderId) ?? 0) + 1);
  }
  let extra = 0;
  for (const n of byCid.values()) extra += n - 1;
  return extra;
}

/** Pairs of orders of one registry slot live at once; slots come from `slots` (clientOrderId → slot). */
export function duplicateLive(orders: SimCapture['orders'], slots: ReadonlyMap<string, string>): number {
  const bySlot = new Map<string, Interval[]>();
  for (const o of orders) {
    const slot = o.clientOrderId === null ? undefined : slots.get(o.clientOrderId);
    const live = liveInterval(o);
    if (slot === undefined || live === null) continue;
    const list = bySlot.get(slot) ?? [];
    list.push(live);
    bySlot.set(slot, list);
  }
  let n = 0;
  for (const list of bySlot.values()) n += overlappingPairs(list).length;
  return n;
}

/**
 * Prepares that arrived while an earlier submitted placement was unsettled (see the module doc).
 * `submitted` holds the orderIds that were submitted.
 */
export function overlappingPlacements(
  spans: readonly PlacementSpan[],
  submitted: ReadonlySet<string>,
): [PlacementSpan, PlacementSpan][] {
  const sorted = [...spans].sort((a, b) => a.preparedAt - b.preparedAt);
  const out: [PlacementSpan, PlacementSpan][] = [];
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    if (!submitted.has(a.orderId)) continue;
    const end = a.settledAt ?? Infinity;
    for (let j = i + 1; j < sorted.length && sorted[j]!.preparedAt < end; j++) {
      if (sorted[j]!.preparedAt > a.preparedAt) out.push([a, sorted[j]!]);
    }
  }
  return out;
}

/** Every invariant of the module doc, counted on a run's ground truth. */
export function invariantBreaks(c: SimCapture): InvariantBreaks {
  const submitted = new Set(c.orders.filter((o) => o.submitted).map((o) => o.orderId));
  let overlapping = 0;
  let concurrent = 0;
  for (const party of c.partyIds) {
    const prepares = c.calls
      .filter((x) => x.endpoint === 'prepare' && x.partyId === party)
      .map((x) => ({ start: x.startedAt, end: x.endedAt ?? Infinity }));
    overlapping += overlappingPlacements(
      c.spans.filter((s) => s.partyId === party),
      submitted,
    ).length;
    concurrent += overlappingPairs(prepares).length;
  }
  const own = new Set(c.partyIds);
  const counts = {
    duplicateCommits: duplicateCommits(c.orders),
    duplicateLive: duplicateLive(c.orders, c.slots),
    overlappingPlacements: overlapping,
    concurrentPrepares: concurrent,
    selfTrades: c.trades.filter((t) => own.has(t.maker.partyId ?? '') && own.has(t.taker.partyId ?? ''))
      .length,
  };
  const total =
    counts.duplicateCommits +
    counts.duplicateLive +
    counts.overlappingPlacements +
    counts.concurrentPrepares +
    counts.selfTrades;
  return { ...counts, total };
}

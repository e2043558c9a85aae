/**
 * Which of the firm's parties places a quote: a pure choice over each party's load, health,
 * order cap and funds. Every party has its own placement pipeline (one placement in flight at a
 * time, about 42 s each), so the firm places N times as fast when every pipeline is kept busy.
 *
 * Policies:
 * - `earliest-free`: among the parties that may take it, the one whose pipeline frees first —
 *   fewest placements queued or running, then the one whose running placement started earliest
 *   (it ends first), then the order of the configured list;
 * - `fixed`: the first party in the configured list that may take it, however busy; with each
 *   party's `pairs`/`sides` this pins a pair or a side to one party.
 *
 * A party may take a placement when it is active (not dropped out: suspended, key refused, out
 * of funds), it serves the pair and side, its own rate budget (its account's `ordersPerMinute`)
 * has a token left, it is under its account's open-order cap, and its own
 * wallet can fund it: a BUY locks price × quantity of the quote, a SELL the quantity of the base.
 * A party whose funds are not known yet is taken to have them: the venue refuses an unfunded
 * prepare, which costs a pipeline turn and no exposure. Cancels never come here: a cancel always
 * goes through the party that owns the order.
 */
import type { Dec } from '../../core/decimal.js';
import type { Side } from '../../core/order-terms.js';

/** How the allocator picks among the parties that may take a placement. */
export type AllocationPolicy = 'earliest-free' | 'fixed';

/** What the allocator knows about one party when a placement is handed out. */
export interface PartyLoad {
  readonly name: string;
  /** False while the party is dropped out (suspended, key refused, out of funds). */
  readonly active: boolean;
  /** Pairs the party serves; null: every pair. */
  readonly pairs: readonly string[] | null;
  /** Sides the party serves; null: both. */
  readonly sides: readonly Side[] | null;
  /** Placements queued or running in its pipeline. */
  readonly queued: number;
  /** When its running placement started (ms); null when its pipeline is idle. */
  readonly busySince: number | null;
  /** True while its own per-minute budget has no token for another placement. */
  readonly rateLimited: boolean;
  /** Its orders open or in flight, and its account's cap (null: no cap known). */
  readonly openOrders: number;
  readonly maxOpenOrders: number | null;
  /** What its wallet can still lock, by instrument; null: not read yet. */
  readonly funds: ReadonlyMap<string, Dec> | null;
}

/** The placement to hand out. */
export interface AllocationRequest {
  readonly pair: string;
  readonly side: Side;
  readonly base: string;
  readonly quote: string;
  readonly price: Dec;
  readonly quantity: Dec;
}

/** Why no party could take a placement (the reason of the last party ruled out, by this order). */
export type NoPartyReason = 'no-party-serves' | 'inactive' | 'rate-limited' | 'at-cap' | 'unfunded';

/** The allocator's answer. */
export type Allocation =
  | { readonly party: string }
  | { readonly party: null; readonly reason: NoPartyReason; readonly detail: string };

/** Why `p` cannot take `r`, or null when it can. */
export function refusal(p: PartyLoad, r: AllocationRequest): NoPartyReason | null {
  if ((p.pairs !== null && !p.pairs.includes(r.pair)) || (p.sides !== null && !p.sides.includes(r.side)))
    return 'no-party-serves';
  if (!p.active) return 'inactive';
  if (p.rateLimited) return 'rate-limited';
  if (p.maxOpenOrders !== null && p.openOrders + 1 > p.maxOpenOrders) return 'at-cap';
  if (p.funds !== null) {
    const [instrument, needed] =
      r.side === 'BUY' ? [r.quote, r.price.times(r.quantity)] : [r.base, r.quantity];
    const have = p.funds.get(instrument);
    if (have === undefined || have.lt(needed)) return 'unfunded';
  }
  return null;
}

const SEVERITY: Readonly<Record<NoPartyReason, number>> = {
  'no-party-serves': 0,
  inactive: 1,
  'rate-limited': 2,
  'at-cap': 3,
  unfunded: 4,
};

/** Chooses the party for `request`; see the module doc. Pure. */
export function allocate(
  parties: readonly PartyLoad[],
  request: AllocationRequest,
  policy: AllocationPolicy,
): Allocation {
  const able: { p: PartyLoad; i: number }[] = [];
  let worst: NoPartyReason = 'no-party-serves';
  parties.forEach((p, i) => {
    const why = refusal(p, request);
    if (why === null) able.push({ p, i });
    else if (SEVERITY[why] > SEVERITY[worst]) worst = why;
  });
  const first = able[0];
  if (first === undefined) {
    const side = `${request.side} ${request.quantity.toFixed()} ${request.pair}`;
    return { party: null, reason: worst, detail: `no party can place ${side}: ${worst}` };
  }
  if (policy === 'fixed') return { party: first.p.name };
  let best = first;
  for (const c of able) if (freesBefore(c.p, c.i, best.p, best.i)) best = c;
  return { party: best.p.name };
}

/** True when `a` (at list position `ia`) frees its pipeline before `b`. */
function freesBefore(a: PartyLoad, ia: number, b: PartyLoad, ib: number): boolean {
  if (a.queued !== b.queued) return a.queued < b.queued;
  const sa = a.busySince ?? -Infinity;
  const sb = b.busySince ?? -Infinity;
  if (sa !== sb) return sa < sb;
  return ia < ib;
}

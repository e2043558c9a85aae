/**
 * The wallet between two balance polls. GET /balances runs on a slow timer (a minute or more),
 * but placements, fills and cancels move `available` all the time. So the daemon keeps, at each
 * poll, a baseline of what its own orders locked and what its fills had moved, and between polls
 *
 *     available = polled.available
 *               + (locks of our resting orders at the poll − locks of our resting orders now)
 *               + (fill flow since the poll)
 *               − locks of our orders not resting yet (queued, being placed, submitted, unknown)
 *
 *     available + locked = polled.available + polled.locked + fill flow since the poll
 *
 * A BUY locks the quote instrument (price × remaining), a SELL the base instrument (remaining).
 * A fill of a resting order moves its lock into the fill flow (net zero on `available` for the
 * spent leg, plus the received leg); a cancel returns its lock; a new order that comes to rest
 * moves from "not resting yet" to "resting" (net zero). Orders that may commit are counted as
 * committed from the moment they are queued: a conservative view.
 *
 * The registry learns of venue changes a little after they happen (the orders poller, the
 * confirmation reads), and the poll sees them at once, so a change that straddles a poll can be
 * counted twice until the next poll: an order that rested just before the poll is subtracted
 * twice (too little available), a cancel that committed just before it is returned twice (too
 * much, the venue then refuses a placement with INSUFFICIENT_BALANCE, a typed outcome). The next
 * poll corrects both. Foreign orders the daemon tracks count like its own; ignored ones are in
 * the polled figures only.
 */
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { InventoryView } from '../execution/inventory.js';
import {
  BALANCES_PENDING,
  type BalanceView,
  type MarketSnapshot,
  type PairMarket,
  type WalletInput,
} from '../market/market-snapshot.js';
import { isInFlight, remaining, type TrackedOrder } from '../orders/fsm/index.js';
import type { Side } from '../core/order-terms.js';
import type { PendingIntent } from '../orders/own-orders-view.js';

/** An amount per instrument. */
type Amounts = Map<string, Dec>;

function add(m: Amounts, instrument: string, amount: Dec): void {
  m.set(instrument, (m.get(instrument) ?? ZERO).plus(amount));
}

function lockOf(pair: PairMarket | undefined, side: Side, price: Dec | null, qty: Dec): [string, Dec] | null {
  if (pair === undefined) return null;
  if (side === 'SELL') return [pair.base, qty];
  return price === null ? null : [pair.quote, price.times(qty)];
}

/**
 * What the daemon's orders lock: resting ones, and those not resting yet. `excludeSlot` leaves
 * out one registry slot (an intent checking its own freshness must not compete with itself).
 */
export function ownLocks(
  active: readonly TrackedOrder[],
  pending: Iterable<PendingIntent>,
  pairs: Readonly<Record<string, PairMarket>>,
  excludeSlot?: string,
): { resting: Amounts; notYet: Amounts } {
  const resting: Amounts = new Map();
  const notYet: Amounts = new Map();
  const slots = new Set<string>();
  for (const o of active) {
    if (o.slot !== null) slots.add(o.slot);
    const lock = lockOf(pairs[o.pair], o.side, o.price, remaining(o));
    if (lock === null || o.slot === excludeSlot) continue;
    if (isInFlight(o.state)) add(notYet, ...lock);
    else add(resting, ...lock);
  }
  for (const p of pending) {
    if (slots.has(p.registrySlot) || p.registrySlot === excludeSlot) continue;
    const lock = lockOf(pairs[p.pair], p.side, p.price, p.quantity);
    if (lock !== null) add(notYet, ...lock);
  }
  return { resting, notYet };
}

/** Net flow of every instrument from fills, summed over the pairs. */
export function fillFlow(inventory: InventoryView, pairs: Readonly<Record<string, PairMarket>>): Amounts {
  const flow: Amounts = new Map();
  for (const inv of inventory.all()) {
    const pair = pairs[inv.pair];
    if (pair === undefined) continue;
    add(flow, pair.base, inv.base);
    add(flow, pair.quote, inv.quote);
  }
  return flow;
}

interface Baseline {
  readonly at: number;
  readonly resting: Amounts;
  readonly flow: Amounts;
}

/** The local wallet; see the module doc. */
export class LocalBalances {
  private baseline: Baseline | null = null;

  /**
   * Records the baseline of a balances poll that just succeeded at `at`: called right after the
   * market state took the poll, before anything else runs.
   */
  onPoll(at: number, resting: Amounts, flow: Amounts): void {
    this.baseline = { at, resting, flow };
  }

  /** When the baseline was taken, or null. */
  get baselineAt(): number | null {
    return this.baseline?.at ?? null;
  }

  /**
   * The balances to quote with; until a poll has succeeded, null, or {@link BALANCES_PENDING}
   * while the snapshot says the startup's read is under way and a provisional plan is wanted.
   * `locks` and `flow` are the daemon's orders and fill flow now.
   */
  current(
    snapshot: MarketSnapshot,
    locks: { resting: Amounts; notYet: Amounts },
    flow: Amounts,
  ): WalletInput {
    const polled = snapshot.balances;
    const base = this.baseline;
    if (polled === null) return snapshot.balancesPending === true ? BALANCES_PENDING : null;
    const out: Record<string, BalanceView> = {};
    const instruments = new Set([...Object.keys(polled), ...locks.resting.keys(), ...locks.notYet.keys()]);
    for (const i of instruments) {
      const p = polled[i] ?? { available: ZERO, locked: ZERO };
      const get = (m: Amounts | undefined): Dec => m?.get(i) ?? ZERO;
      const flowSince = get(flow).minus(get(base?.flow));
      const total = p.available.plus(p.locked).plus(flowSince);
      const available = p.available
        .plus(base === null ? ZERO : get(base.resting).minus(get(locks.resting)))
        .plus(flowSince)
        .minus(get(locks.notYet));
      const clamped = available.isNeg() ? ZERO : available.gt(total) ? total : available;
      const locked = total.minus(clamped);
      out[i] = Object.freeze({ available: clamped, locked: locked.isNeg() ? ZERO : locked });
    }
    return Object.freeze(out);
  }
}

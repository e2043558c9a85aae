/**
 * Each party's wallet as the allocator and the operator see it: the balances its own GET
 * /balances last returned, and what it can still lock now — the polled `available` less what
 * every active order of its locks, except the orders that already rested on the book when the
 * read was sent (their lock is in the read's `locked`), and less the placements handed to its
 * pipeline and not yet in its registry. A placement in flight across the read is counted: it
 * may commit after the venue took its figures, and counting it twice only errs low. Fills and
 * cancels since the poll are not added back: the figure errs low, so the allocator never counts
 * on funds a party may not have (the next poll corrects it).
 *
 * The firm's balances (what the strategy plans with) are the sum over the parties, read by one
 * poller that reads every party's balances at once: a party whose read fails keeps its last
 * balances, and the sum is refused only while some party has never been read.
 */
import { Dec, ZERO } from '../../core/decimal.js';
import type { Side } from '../../core/order-terms.js';
import { remaining, type TrackedOrder } from '../../orders/fsm/index.js';
import type { Balance } from '../../venue/schemas.js';

/** A party's balances as last read. */
export interface PolledWallet {
  readonly at: number;
  readonly balances: readonly Balance[];
  /** Keys of its orders that rested on the book when the read was sent (see {@link PartyWallets.marks}). */
  readonly settled: ReadonlySet<string>;
}

/** The keys of a party's orders resting on the book now (its committed orders). */
export type CommittedKeys = (party: string) => ReadonlySet<string>;

const NONE: ReadonlySet<string> = new Set();

/** A lock on a party's funds: a placement handed out, or an order. */
export interface FundsLock {
  readonly base: string;
  readonly quote: string;
  readonly side: Side;
  readonly price: Dec | null;
  readonly quantity: Dec;
}

/** Adds what `lock` takes from the wallet into `into`. */
function addLock(into: Map<string, Dec>, lock: FundsLock): void {
  const [instrument, amount] =
    lock.side === 'SELL'
      ? [lock.base, lock.quantity]
      : [lock.quote, (lock.price ?? ZERO).times(lock.quantity)];
  into.set(instrument, (into.get(instrument) ?? ZERO).plus(amount));
}

/** The balances of every party, by party name; see the module doc. */
export class PartyWallets {
  private readonly polled = new Map<string, PolledWallet>();
  private committed: CommittedKeys | null = null;

  constructor(private readonly names: readonly string[]) {}

  /** Lets {@link marks} see each party's committed orders (the firm's engine, once built). */
  trackOrders(committed: CommittedKeys): void {
    this.committed = committed;
  }

  /**
   * Taken just before balances are read: per party, the keys of its orders resting then. Their
   * locks are in the read's `locked`; every other active order's lock may not be.
   */
  marks(): Map<string, ReadonlySet<string>> {
    const committed = this.committed;
    return new Map(this.names.map((n) => [n, committed === null ? NONE : new Set(committed(n))]));
  }

  /**
   * Records a party's fresh balances, with the keys of its orders that rested when the read was
   * sent (`marks()`); none given: every active order is counted against them (errs low).
   */
  record(party: string, at: number, balances: readonly Balance[], settled: ReadonlySet<string> = NONE): void {
    this.polled.set(party, { at, balances, settled });
  }

  /** A party's last read, or undefined before its first. */
  last(party: string): PolledWallet | undefined {
    return this.polled.get(party);
  }

  /**
   * The firm's balances: every party's summed by instrument. Throws when some party has never
   * been read (the sum would understate the firm).
   */
  firm(): Balance[] {
    const available = new Map<string, Dec>();
    const locked = new Map<string, Dec>();
    for (const name of this.names) {
      const w = this.polled.get(name);
      if (w === undefined) throw new Error(`the balances of party ${name} have not been read yet`);
      for (const b of w.balances) {
        available.set(b.instrument, (available.get(b.instrument) ?? ZERO).plus(new Dec(b.available)));
        locked.set(b.instrument, (locked.get(b.instrument) ?? ZERO).plus(new Dec(b.locked)));
      }
    }
    return [...available.keys()].sort().map((instrument) => ({
      instrument,
      available: available.get(instrument)!.toFixed(),
      locked: (locked.get(instrument) ?? ZERO).toFixed(),
    }));
  }

  /**
   * What `party` can still lock, by instrument, or null before its first read: its polled
   * `available`, less its active orders that did not rest when the read was sent and the
   * placements `handedOut`.
   */
  funds(
    party: string,
    orders: readonly TrackedOrder[],
    handedOut: readonly FundsLock[],
    pairOf: (pair: string) => { readonly base: string; readonly quote: string } | undefined,
  ): Map<string, Dec> | null {
    const w = this.polled.get(party);
    if (w === undefined) return null;
    const locks = new Map<string, Dec>();
    for (const o of orders) {
      const p = pairOf(o.pair);
      if (w.settled.has(o.key) || p === undefined) continue;
      addLock(locks, { ...p, side: o.side, price: o.price, quantity: remaining(o) });
    }
    for (const l of handedOut) addLock(locks, l);
    const out = new Map<string, Dec>();
    for (const b of w.balances) {
      const left = new Dec(b.available).minus(locks.get(b.instrument) ?? ZERO);
      out.set(b.instrument, left.isNeg() ? ZERO : left);
    }
    return out;
  }
}

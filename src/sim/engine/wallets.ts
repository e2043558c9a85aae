/**
 * The simulated parties' wallets: {@link Wallets} holds, per party and token, the available and
 * locked amounts, changed only through named operations (credit, debit, lock, unlock, spend
 * locked, withdraw) that check neither goes below zero, and reports the parties touched so the
 * engine snapshots their balances after each ledger transaction.
 */
import { Dec, ZERO, toWire } from '../../core/decimal.js';

/** One token in one party's wallet. */
export interface Holding {
  available: Dec;
  locked: Dec;
}

/**
 * The parties' wallets: per party and token, `available` (free to commit) and `locked`
 * (allocated to resting orders). Every movement is one of the named operations below, so the
 * invariant `available ≥ 0 and locked ≥ 0` is checked in one place. Parties touched since the
 * last {@link Wallets.takeDirty} are reported so the engine can snapshot them after each
 * ledger transaction.
 */
export class Wallets {
  private readonly parties = new Map<string, Map<string, Holding>>();
  private readonly dirty = new Set<string>();

  /** The holding of `token` (created at zero). */
  holding(partyId: string, token: string): Holding {
    let wallet = this.parties.get(partyId);
    if (!wallet) this.parties.set(partyId, (wallet = new Map<string, Holding>()));
    let h = wallet.get(token);
    if (!h) wallet.set(token, (h = { available: ZERO, locked: ZERO }));
    return h;
  }

  available(partyId: string, token: string): Dec {
    return this.holding(partyId, token).available;
  }

  /** Adds to available (deposit, proceeds of a fill). */
  credit(partyId: string, token: string, amount: Dec): void {
    const h = this.holding(partyId, token);
    h.available = h.available.plus(amount);
    this.touch(partyId);
  }

  /** Takes from available. Throws when short. */
  debit(partyId: string, token: string, amount: Dec): void {
    const h = this.holding(partyId, token);
    if (h.available.lt(amount)) throw new RangeError(`debit ${toWire(amount)} ${token} > available`);
    h.available = h.available.minus(amount);
    this.touch(partyId);
  }

  /** Moves available → locked. Throws when short. */
  lock(partyId: string, token: string, amount: Dec): void {
    const h = this.holding(partyId, token);
    if (h.available.lt(amount)) throw new RangeError(`lock ${toWire(amount)} ${token} > available`);
    h.available = h.available.minus(amount);
    h.locked = h.locked.plus(amount);
    this.touch(partyId);
  }

  /** Moves locked → available. */
  unlock(partyId: string, token: string, amount: Dec): void {
    const h = this.holding(partyId, token);
    if (h.locked.lt(amount)) throw new RangeError(`unlock ${toWire(amount)} ${token} > locked`);
    h.locked = h.locked.minus(amount);
    h.available = h.available.plus(amount);
    this.touch(partyId);
  }

  /** Pays out of locked funds (the party's leg of a fill). */
  spendLocked(partyId: string, token: string, amount: Dec): void {
    const h = this.holding(partyId, token);
    if (h.locked.lt(amount)) throw new RangeError(`spend ${toWire(amount)} ${token} > locked`);
    h.locked = h.locked.minus(amount);
    this.touch(partyId);
  }

  /**
   * Removes funds from the wallet outside the venue: available first, then locked. Returns how
   * much came out of locked funds (which strands the orders those funds backed).
   */
  withdraw(partyId: string, token: string, amount: Dec): { fromAvailable: Dec; fromLocked: Dec } {
    const h = this.holding(partyId, token);
    if (h.available.plus(h.locked).lt(amount))
      throw new RangeError(`withdraw ${toWire(amount)} ${token} > holding`);
    const fromAvailable = Dec.min(h.available, amount);
    const fromLocked = amount.minus(fromAvailable);
    h.available = h.available.minus(fromAvailable);
    h.locked = h.locked.minus(fromLocked);
    this.touch(partyId);
    return { fromAvailable, fromLocked };
  }

  /** Every token of a party as wire strings. */
  view(partyId: string): Record<string, { available: string; locked: string }> {
    const out: Record<string, { available: string; locked: string }> = {};
    const wallet: Map<string, Holding> = this.parties.get(partyId) ?? new Map<string, Holding>();
    for (const [token, h] of [...wallet].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      out[token] = { available: toWire(h.available), locked: toWire(h.locked) };
    }
    return out;
  }

  /** Parties changed since the last call, and clears the set. */
  takeDirty(): string[] {
    const out = [...this.dirty];
    this.dirty.clear();
    return out;
  }

  private touch(partyId: string): void {
    this.dirty.add(partyId);
  }
}

/**
 * The operator's manual actions, outside the API: account status, keys, wallet movements,
 * preapprovals, and clearing a stranded order. Each is one step, logged as an `operator.*`
 * event, with balances snapshotted when they change.
 */
import { type Dec, ZERO, toWire } from '../../core/decimal.js';
import type { AccountStatus } from './accounts.js';
import type { EngineCore } from './engine-core.js';
import { isRestingOrder, transition } from './orders.js';
import { publicKeyToRaw } from './signatures.js';
import { SimError, validationError } from './sim-error.js';

/** See the module doc. */
export class Operator {
  constructor(private readonly core: EngineCore) {}

  /** SUSPENDED and DISABLED accounts are refused new placements; resting orders are unaffected. */
  setAccountStatus(slug: string, status: AccountStatus): void {
    const a = this.core.accounts.get(slug);
    a.status = status;
    this.core.truth.event('operator.account-status', { accountSlug: slug, partyId: a.partyId, status });
  }

  /** Turns the venue's API key authentication off (every credentialed call: AUTH_NOT_CONFIGURED) or on. */
  setAuthConfigured(configured: boolean): void {
    this.core.accounts.authConfigured = configured;
    this.core.truth.event('operator.auth-configured', { configured });
  }

  suspend(slug: string): void {
    this.setAccountStatus(slug, 'SUSPENDED');
  }

  disable(slug: string): void {
    this.setAccountStatus(slug, 'DISABLED');
  }

  reactivate(slug: string): void {
    this.setAccountStatus(slug, 'ACTIVE');
  }

  /** Issues a further API key (the old ones stay valid until revoked). */
  issueKey(slug: string, opts: { apiKey?: string; expiresAt?: number | null } = {}): string {
    const key = this.core.accounts.issueKey(slug, opts);
    this.core.truth.event('operator.key-issued', {
      accountSlug: slug,
      prefix: key.slice(6, key.indexOf('.')),
    });
    return key;
  }

  /** Revokes a key by its public prefix (the part between `mm_ak_` and the dot). */
  revokeKey(prefix: string): void {
    this.core.accounts.key(prefix).revoked = true;
    this.core.truth.event('operator.key-revoked', { prefix });
  }

  /**
   * Undoes a revocation: the key (by its public prefix) authenticates again, as an operator does
   * who revoked the wrong key or has cleared an incident. Only the revocation is undone: an expiry
   * stays (see {@link setKeyExpiry}). A key that is not revoked is left as it is.
   */
  reinstateKey(prefix: string): void {
    this.core.accounts.key(prefix).revoked = false;
    this.core.truth.event('operator.key-reinstated', { prefix });
  }

  /** Sets (or clears, with null) the clock time after which a key answers API_KEY_EXPIRED. */
  setKeyExpiry(prefix: string, expiresAt: number | null): void {
    this.core.accounts.key(prefix).expiresAt = expiresAt;
    this.core.truth.event('operator.key-expiry', { prefix, expiresAt });
  }

  /** Registers (or replaces) the party's Ed25519 public key, base64 raw or SPKI. */
  setPublicKey(slug: string, publicKey: string | Uint8Array): void {
    const raw = typeof publicKey === 'string' ? publicKeyToRaw(publicKey) : publicKey;
    if (!raw || raw.length !== 32) throw validationError('publicKey is not an Ed25519 key');
    this.core.accounts.get(slug).publicKeyRaw = new Uint8Array(raw);
    this.core.truth.event('operator.public-key', { accountSlug: slug });
  }

  deposit(slug: string, token: string, amount: Dec): void {
    if (amount.lte(0)) throw validationError('amount must be positive');
    const a = this.core.accounts.get(slug);
    this.core.wallets.credit(a.partyId, token, amount);
    this.core.truth.event('operator.deposit', {
      accountSlug: slug,
      partyId: a.partyId,
      token,
      amount: toWire(amount),
    });
    this.core.snapshotBalances('deposit');
  }

  /**
   * Withdraws from the party's wallet outside the venue: available funds first, then locked
   * ones. Taking locked funds strands the orders they backed (newest first): their cancel can
   * never complete and they can no longer fill. Returns the stranded order ids.
   */
  withdraw(slug: string, token: string, amount: Dec): { strandedOrderIds: string[] } {
    if (amount.lte(0)) throw validationError('amount must be positive');
    const a = this.core.accounts.get(slug);
    const h = this.core.wallets.holding(a.partyId, token);
    if (h.available.plus(h.locked).lt(amount))
      throw validationError(`Cannot withdraw more ${token} than the wallet holds`);
    const { fromLocked } = this.core.wallets.withdraw(a.partyId, token, amount);
    const stranded: string[] = [];
    let left = fromLocked;
    const backing = this.core.orders
      .ofParty(a.partyId)
      .filter((o) => isRestingOrder(o) && o.lockToken === token && o.lockAmount.gt(0))
      .reverse();
    for (const o of backing) {
      if (left.lte(0)) break;
      const take = left.lt(o.lockAmount) ? left : o.lockAmount;
      o.lockAmount = o.lockAmount.minus(take);
      left = left.minus(take);
      if (!o.stranded) {
        o.stranded = true;
        stranded.push(o.orderId);
        transition(this.core.orders.get(o.orderId)!, this.core.now(), 'stranded');
        this.core.truth.event('order.stranded', { orderId: o.orderId, partyId: o.partyId, token });
      }
    }
    this.core.truth.event('operator.withdraw', {
      accountSlug: slug,
      partyId: a.partyId,
      token,
      amount: toWire(amount),
      fromLocked: toWire(fromLocked),
      strandedOrderIds: stranded,
    });
    this.core.snapshotBalances('withdraw');
    return { strandedOrderIds: stranded };
  }

  addPreapproval(slug: string, token: string): void {
    this.core.accounts.get(slug).preapprovals.add(token);
    this.core.truth.event('operator.preapproval-added', { accountSlug: slug, token });
  }

  removePreapproval(slug: string, token: string): void {
    this.core.accounts.get(slug).preapprovals.delete(token);
    this.core.truth.event('operator.preapproval-removed', { accountSlug: slug, token });
  }

  /**
   * The manual work that clears a stranded (or any resting) order: it leaves the book, whatever
   * is still locked for it is released, and it reads CANCELLED.
   */
  forceCancel(orderId: string): void {
    const o = this.core.orders.get(orderId);
    if (!o || !isRestingOrder(o))
      throw new SimError(404, 'CONTRACT_NOT_FOUND', 'No resting order with that id');
    const book = this.core.book(o.pair);
    const entry = book.entryOf(o);
    if (entry) book.remove(entry);
    this.core.releaseLock(o);
    o.lockAmount = ZERO;
    transition(o, this.core.now(), 'operator-cancel', 'CANCELLED');
    this.core.truth.event('operator.force-cancel', { orderId, partyId: o.partyId });
    this.core.endTransaction('operator-cancel');
  }
}

/**
 * A submitted placement reaching the ledger, as one transaction:
 *
 * - the preapprovals of both pair tokens and the spending balance are asserted again (either
 *   missing fails the commit: the order reads REJECTED, nothing is locked);
 * - a LIMIT order locks its funds (BUY: price × quantity of quote; SELL: quantity of base)
 *   and, when it crosses the book, first executes as a taker at the resting prices (any price
 *   improvement on a BUY is unlocked at once); the residual then rests under one contract id,
 *   expires when below minQuoteAmount, or the order is FILLED;
 * - a MARKET order executes immediately against the book and its unfilled rest EXPIREs
 *   (immediate-or-cancel); it never rests and locks nothing.
 */
import { type Dec, ZERO } from '../../core/decimal.js';
import type { PreparedCommand } from './commands.js';
import type { EngineCore, Taker } from './engine-core.js';
import { type OrderRecord, isRestingOrder, remaining, transition } from './orders.js';

/** See the module doc. */
export function commitPlacement(core: EngineCore, cmd: PreparedCommand): void {
  if (cmd.state !== 'submitted') return;
  const o = core.orders.get(cmd.orderId);
  if (!o) return;
  const account = core.accounts.byPartyId(o.partyId);
  const now = core.now();
  const fail = (reason: string): void => {
    core.commands.setState(cmd, 'failed');
    transition(o, now, `commit-failed:${reason}`, 'REJECTED');
    core.truth.commit({
      kind: 'place',
      commandId: cmd.commandId,
      orderId: o.orderId,
      partyId: o.partyId,
      ok: false,
      reason,
    });
  };
  // A prepared transaction past its 5-minute deadline can no longer commit, however late it
  // reached the ledger: clients rely on this to settle "never committed".
  if (now > cmd.cacheExpiresAt) return fail('past-deadline');
  const missing = [o.base, o.quote].find((t) => !account?.preapprovals.has(t));
  if (missing !== undefined) return fail(`no preapproval for ${missing}`);

  const book = core.book(o.pair);
  const taker: Taker = { side: o.side, order: o };
  const fills = core.plan(book, taker, o.quantity, o.price);
  const need =
    o.price !== null
      ? o.side === 'BUY'
        ? o.price.times(o.quantity)
        : o.quantity
      : o.side === 'BUY'
        ? fills.reduce((s, f) => s.plus(f.entry.price.times(f.qty)), ZERO)
        : o.quantity;
  if (core.wallets.available(o.partyId, o.lockToken).lt(need)) return fail('insufficient funds');

  book.beforeChange();
  if (o.price !== null) {
    core.wallets.lock(o.partyId, o.lockToken, need);
    o.lockAmount = need;
  }
  o.committed = true;
  for (const fill of fills) {
    const trade = core.executeFill(book, fill, taker);
    takerLeg(core, o, fill.entry.price, fill.qty);
    o.fills.push({
      at: now,
      tradeId: trade.tradeId,
      price: trade.price,
      quantity: trade.quantity,
      role: 'taker',
      contractIdBefore: null,
      contractIdAfter: null,
    });
  }
  core.orders.assignContract(o, core.ids.contractId());
  for (const f of o.fills)
    if (f.role === 'taker' && f.contractIdAfter === null) f.contractIdAfter = o.contractId;
  const rest = remaining(o);
  const event = fills.length > 0 ? 'committed-crossing' : 'committed';
  if (rest.lte(0)) {
    core.releaseLock(o);
    transition(o, now, event, 'FILLED');
  } else if (o.price === null || core.belowMinimum(o.pair, rest, o.price)) {
    core.releaseLock(o);
    transition(o, now, event, 'EXPIRED');
  } else {
    core.rest(o);
    transition(o, now, event, o.filled.gt(0) ? 'PARTIALLY_FILLED' : 'OPEN');
  }
  core.commands.setState(cmd, 'committed');
  core.truth.commit({
    kind: 'place',
    commandId: cmd.commandId,
    orderId: o.orderId,
    partyId: o.partyId,
    ok: true,
  });
  core.endTransaction('place-commit');
}

/** The taker's leg of one fill of an account order executing at its commit. */
function takerLeg(core: EngineCore, o: OrderRecord, price: Dec, qty: Dec): void {
  const party = o.partyId;
  if (o.side === 'BUY') {
    const cost = price.times(qty);
    if (o.price !== null) {
      const reserved = o.price.times(qty);
      core.wallets.spendLocked(party, o.quote, cost);
      core.wallets.unlock(party, o.quote, reserved.minus(cost));
      o.lockAmount = o.lockAmount.minus(reserved);
    } else {
      core.wallets.debit(party, o.quote, cost);
    }
    core.wallets.credit(party, o.base, qty);
  } else {
    if (o.price !== null) {
      core.wallets.spendLocked(party, o.base, qty);
      o.lockAmount = o.lockAmount.minus(qty);
    } else {
      core.wallets.debit(party, o.base, qty);
    }
    core.wallets.credit(party, o.quote, price.times(qty));
  }
  o.filled = o.filled.plus(qty);
}

/**
 * A submitted cancel reaching the ledger. It archives the contract it was prepared against and
 * releases the lock in the same transaction. It fails (and the order stays as it is) when the
 * order filled or was cancelled meanwhile, when a partial fill archived that contract (the
 * residual lives under a new contract id), or when the order is stranded (its funds were
 * withdrawn, so the allocation cannot be released).
 */
export function commitCancel(core: EngineCore, cmd: PreparedCommand): void {
  if (cmd.state !== 'submitted') return;
  const o = core.orders.get(cmd.orderId);
  if (!o) return;
  const now = core.now();
  const fail = (reason: string): void => {
    core.commands.setState(cmd, 'failed');
    core.truth.commit({
      kind: 'cancel',
      commandId: cmd.commandId,
      orderId: o.orderId,
      partyId: o.partyId,
      ok: false,
      reason,
    });
  };
  if (now > cmd.cacheExpiresAt) return fail('past-deadline');
  if (o.status === 'FILLED') return fail('already filled');
  if (o.status === 'CANCELLED') return fail('already cancelled');
  if (!isRestingOrder(o)) return fail(`order is ${o.status ?? 'not committed'}`);
  if (o.contractId !== cmd.contractId) return fail('contract archived by a partial fill');
  if (o.stranded) return fail('stranded: backing funds were withdrawn');
  const book = core.book(o.pair);
  const entry = book.entryOf(o);
  if (entry) book.remove(entry);
  core.releaseLock(o);
  transition(o, now, 'cancel-committed', 'CANCELLED');
  core.commands.setState(cmd, 'committed');
  core.truth.commit({
    kind: 'cancel',
    commandId: cmd.commandId,
    orderId: o.orderId,
    partyId: o.partyId,
    ok: true,
  });
  core.endTransaction('cancel-commit');
}

/**
 * The journal's order writes. Every method here runs INSIDE a transaction opened by the
 * `Journal`; a throw anywhere rolls the whole write back, so the checks may come before or after
 * the inserts without ever leaving a partial change.
 */
import type { Clock } from '../../core/clock.js';
import { decText, decTextOrNull, encodeJson } from './codec.js';
import { JournalConflictError, JournalInputError } from './errors.js';
import type { OrderParams, Statements } from './statements.js';
import type { FillInput, JournalEvent, JournalOrder, SnapshotCodec, WriteResult } from './types.js';

/** See the module doc. */
export class OrderWrites<O extends JournalOrder> {
  /** Fill inserts attempted since the open (a reader's cache of the fills table keys on it). */
  fillInserts = 0;

  constructor(
    private readonly st: Statements,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly codec: SnapshotCodec<O>,
  ) {}

  /** The intent row, the order row and the first transition of a new order of ours. */
  intent(order: O): WriteResult {
    this.checkNew(order);
    this.st.insertIntent.run({
      local_key: order.key,
      slot: order.slot,
      pair: order.pair,
      side: order.side,
      type: order.type,
      price: decTextOrNull(order.price),
      quantity: decText(order.quantity),
      client_order_id: order.clientOrderId,
      at: this.clock.now(),
    });
    return this.insertNew(order, 'Created', null, []);
  }

  /** One state change; `prev === null` inserts an order without an intent (adopted). */
  transition(prev: O | null, next: O, event: JournalEvent | null, fills: readonly FillInput[]): WriteResult {
    if (prev === null) {
      return this.insertNew(next, event?.type ?? (next.flags.foreign ? 'Adopted' : 'Created'), event, fills);
    }
    if (prev.key !== next.key) throw new JournalConflictError('key', next.key, `prev has key ${prev.key}`);
    const row = this.st.orderState.get(next.key);
    if (row === undefined) throw new JournalConflictError('key', next.key, 'no such order in the journal');
    // Guards against a stale or reordered write: the stored state must be the one we move from.
    if (row.state !== prev.state) {
      throw new JournalConflictError('state', next.key, `journal has ${row.state}, prev is ${prev.state}`);
    }
    // prev's ids were checked and recorded when prev was written: only new ones need a look.
    const fresh = newIds(prev, next);
    this.checkIds(next.key, fresh);
    const seq = this.appendTransition(next.key, prev.state, next.state, event?.type ?? 'Updated', event);
    this.st.updateOrder.run(this.orderParams(next, seq));
    this.recordIds(next.key, fresh, seq);
    return { seq, fillsInserted: this.fills(next.key, fills) };
  }

  /**
   * Inserts fills, skipping an (orderId, cumulative) pair already stored. Returns how many were
   * new. Throws JournalInputError on a fill without orderId or with a non-positive delta.
   */
  fills(key: string | null, fills: readonly FillInput[]): number {
    let inserted = 0;
    for (const f of fills) {
      if (f.orderId === null) throw new JournalInputError('journal: a fill needs an orderId');
      if (f.quantity.lte(0) || f.filled.lt(f.quantity)) {
        throw new JournalInputError(
          `journal: fill of ${f.orderId} has delta ${decText(f.quantity)}, cumulative ${decText(f.filled)}`,
        );
      }
      const row = {
        order_id: f.orderId,
        local_key: f.key ?? key ?? this.st.keyOfOrderId.get(f.orderId)?.local_key ?? null,
        contract_id: f.contractId ?? null,
        pair: f.pair,
        side: f.side,
        price: decTextOrNull(f.price),
        filled: decText(f.filled),
        delta: decText(f.quantity),
        at: f.at ?? this.clock.now(),
      };
      this.fillInserts += 1;
      if (this.st.insertFill.run(row).changes === 1) {
        inserted += 1;
        continue;
      }
      // A re-applied fill is skipped; the same cumulative with another delta is a bug upstream.
      const existing = this.st.fillDelta.get(row.order_id, row.filled);
      if (existing !== undefined && existing.delta !== row.delta) {
        throw new JournalConflictError(
          'orderId',
          row.order_id,
          `fill at ${row.filled} is stored with delta ${existing.delta}, not ${row.delta}`,
        );
      }
    }
    return inserted;
  }

  private insertNew(
    order: O,
    eventType: string,
    event: JournalEvent | null,
    fills: readonly FillInput[],
  ): WriteResult {
    this.checkNew(order);
    // last_seq is set right after: the transition row needs the order row (foreign key) first.
    this.st.insertOrder.run(this.orderParams(order, 0));
    const seq = this.appendTransition(order.key, null, order.state, eventType, event);
    this.st.setLastSeq.run(seq, order.key);
    this.recordIds(order.key, idsOf(order), seq);
    return { seq, fillsInserted: this.fills(order.key, fills) };
  }

  /** Throws JournalConflictError when the key is taken or an id belongs to another order. */
  private checkNew(order: O): void {
    if (this.st.orderState.get(order.key) !== undefined) {
      throw new JournalConflictError('key', order.key, 'an order with this key is already journaled');
    }
    this.checkIds(order.key, idsOf(order));
  }

  /** Throws JournalConflictError when one of `ids` belongs (or belonged) to another key. */
  private checkIds(key: string, ids: OrderIds): void {
    const claims: ['clientOrderId' | 'orderId' | 'contractId', string, string | undefined][] = [];
    if (ids.clientOrderId !== null) {
      const owner = this.st.keyOfClientOrderId.get(ids.clientOrderId)?.local_key;
      claims.push(['clientOrderId', ids.clientOrderId, owner]);
    }
    if (ids.orderId !== null) {
      claims.push(['orderId', ids.orderId, this.st.keyOfOrderId.get(ids.orderId)?.local_key]);
    }
    for (const c of ids.contractIds) {
      claims.push(['contractId', c, this.st.keyOfContractId.get(c)?.local_key]);
    }
    for (const [kind, id, owner] of claims) {
      if (owner !== undefined && owner !== key) {
        throw new JournalConflictError(kind, id, `belongs to order ${owner}, not ${key}`);
      }
    }
  }

  /** Adds `ids` to the history tables. Ids only accumulate, never move. */
  private recordIds(key: string, ids: OrderIds, seq: number): void {
    if (ids.orderId !== null && this.st.keyOfOrderId.get(ids.orderId) === undefined) {
      this.st.insertOrderId.run(ids.orderId, key, seq);
    }
    for (const c of ids.contractIds) {
      if (this.st.keyOfContractId.get(c) === undefined) this.st.insertContractId.run(c, key, seq);
    }
  }

  private appendTransition(
    key: string,
    from: string | null,
    to: string,
    type: string,
    event: JournalEvent | null,
  ): number {
    const json = event === null ? null : encodeJson(event);
    const result = this.st.insertTransition.run(key, from, to, type, json, this.clock.now());
    return Number(result.lastInsertRowid);
  }

  private orderParams(order: O, seq: number): OrderParams {
    return {
      local_key: order.key,
      slot: order.slot,
      pair: order.pair,
      side: order.side,
      client_order_id: order.clientOrderId,
      order_id: order.orderId,
      contract_id: order.contractIds.at(-1) ?? null,
      state: order.state,
      filled: decText(order.filled),
      snapshot: this.codec.encode(order),
      is_foreign: order.flags.foreign ? 1 : 0,
      last_seq: seq,
      at: this.clock.now(),
    };
  }
}

/** The venue-facing ids of an order that the journal indexes. */
interface OrderIds {
  readonly clientOrderId: string | null;
  readonly orderId: string | null;
  readonly contractIds: readonly string[];
}

function idsOf(order: JournalOrder): OrderIds {
  return { clientOrderId: order.clientOrderId, orderId: order.orderId, contractIds: order.contractIds };
}

/** The ids `next` carries that `prev` did not. */
function newIds(prev: JournalOrder, next: JournalOrder): OrderIds {
  const had = new Set(prev.contractIds);
  return {
    clientOrderId: next.clientOrderId === prev.clientOrderId ? null : next.clientOrderId,
    orderId: next.orderId === prev.orderId ? null : next.orderId,
    contractIds: next.contractIds.filter((c) => !had.has(c)),
  };
}

import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import {
  JournalClosedError,
  JournalConflictError,
  JournalInputError,
  JournalReadOnlyError,
} from '../../../src/orders/journal/index.js';
import type { Journal } from '../../../src/orders/journal/index.js';
import { tableCounts, useTempStores } from './support/temp-store.js';
import { TOY_TERMINAL, applyToy, toy } from './support/toy-order.js';
import type { ToyEvent, ToyOrder } from './support/toy-order.js';

const stores = useTempStores();

/** Applies `event` to `o` and journals it (with its fills); returns the next order. */
function step(j: Journal<ToyOrder>, o: ToyOrder, event: ToyEvent): ToyOrder {
  const { order, fills } = applyToy(o, event);
  j.recordTransition(o, order, event, fills);
  return order;
}

/** An order that is OPEN under contract `c-1`, orderId `ord-<cid>`. */
function openOrder(j: Journal<ToyOrder>, cid = 'mm-1'): ToyOrder {
  const o = toy(cid);
  j.recordIntent(o);
  const prepared = step(j, o, { type: 'Prepared', orderId: `ord-${cid}`, at: 1 });
  return step(j, prepared, { type: 'Rested', contractId: `${cid}-c-1`, at: 2 });
}

describe('journal: intents and transitions', () => {
  it('records an intent as its intents row, orders row and first transition', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    const o = toy('mm-1', { price: dec('100.2500'), quantity: dec('1.50') });
    const { seq } = j.recordIntent(o);

    const raw = stores.raw(path);
    expect(raw.prepare('SELECT * FROM intents').get()).toMatchObject({
      local_key: 'mm-1',
      client_order_id: 'mm-1',
      side: 'BUY',
      type: 'LIMIT',
      price: '100.25',
      quantity: '1.5',
    });
    const stored = j.findByClientOrderId('mm-1');
    expect(stored).toMatchObject({
      key: 'mm-1',
      state: 'INTENT',
      orderId: null,
      contractId: null,
      lastSeq: seq,
    });
    expect(stored?.filled.toFixed()).toBe('0');
    expect(stored?.order.price.eq(dec('100.25'))).toBe(true);
    expect(j.transitions('mm-1')).toMatchObject([
      { seq, fromState: null, toState: 'INTENT', eventType: 'Created' },
    ]);
  });

  it('stores money as decimal TEXT and events as JSON with tagged decimals', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    const o = openOrder(j);
    step(j, o, { type: 'Filled', quantity: dec('0.25'), contractId: 'mm-1-c-2', at: 3 });

    const raw = stores.raw(path);
    const row = raw
      .prepare("SELECT filled, typeof(filled) AS t, snapshot FROM orders WHERE local_key = 'mm-1'")
      .get();
    expect(row).toMatchObject({ filled: '0.25', t: 'text' });
    expect((row as { snapshot: string }).snapshot).toContain('"filled":{"$dec":"0.25"}');
    const event = j.transitions('mm-1').at(-1)?.event as { quantity: unknown };
    expect(dec('0.25').eq(event.quantity as never)).toBe(true);
  });

  it('keeps a chained, append-only history and the current row in step', () => {
    const j = stores.open(stores.tempStore());
    const o = openOrder(j);
    const done = step(j, o, { type: 'Cancelled', at: 3 });
    const log = j.transitions('mm-1');
    expect(log.map((t) => [t.fromState, t.toState, t.eventType])).toEqual([
      [null, 'INTENT', 'Created'],
      ['INTENT', 'PREPARED', 'Prepared'],
      ['PREPARED', 'OPEN', 'Rested'],
      ['OPEN', 'CANCELLED', 'Cancelled'],
    ]);
    expect(log.map((t) => t.seq)).toEqual([...log.map((t) => t.seq)].sort((a, b) => a - b));
    expect(j.get('mm-1')).toMatchObject({ state: done.state, lastSeq: log.at(-1)?.seq });
    expect(j.lastSeq()).toBe(log.at(-1)?.seq);
  });

  it('resolves every historical contractId and orderId to the order', () => {
    const j = stores.open(stores.tempStore());
    let o = openOrder(j);
    o = step(j, o, { type: 'Filled', quantity: dec('0.25'), contractId: 'mm-1-c-2', at: 3 });
    o = step(j, o, { type: 'Filled', quantity: dec('0.25'), contractId: 'mm-1-c-3', at: 4 });

    expect(j.contractIds('mm-1')).toEqual(['mm-1-c-1', 'mm-1-c-2', 'mm-1-c-3']);
    for (const c of ['mm-1-c-1', 'mm-1-c-2', 'mm-1-c-3']) {
      expect(j.findByContractId(c)?.key).toBe('mm-1');
    }
    expect(j.findByContractId('mm-1-c-1')?.contractId).toBe('mm-1-c-3');
    expect(j.findByContractId('nope')).toBeUndefined();
    expect(j.findByOrderId('ord-mm-1')?.key).toBe('mm-1');

    // A re-prepare that changes the orderId: the old one still resolves.
    const reprepared: ToyOrder = { ...o, orderId: 'ord-mm-1-b', version: o.version + 1 };
    j.recordTransition(o, reprepared, { type: 'Reprepared' });
    expect(j.findByOrderId('ord-mm-1')?.orderId).toBe('ord-mm-1-b');
    expect(j.findByOrderId('ord-mm-1-b')?.key).toBe('mm-1');
  });

  it('adopts a foreign order with prev = null and no intent row', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    const foreign: ToyOrder = {
      ...toy('ext-1', { slot: null }),
      key: 'foreign:ord-9',
      orderId: 'ord-9',
      contractIds: ['c-9'],
      state: 'OPEN',
      flags: { foreign: true },
    };
    j.recordTransition(null, foreign, null);
    expect(j.findByOrderId('ord-9')).toMatchObject({
      key: 'foreign:ord-9',
      foreign: true,
      contractId: 'c-9',
    });
    expect(j.transitions('foreign:ord-9')[0]?.eventType).toBe('Adopted');
    expect(tableCounts(stores.raw(path)).intents).toBe(0);
  });

  it('loads open orders by terminal names or by predicate, in creation order', () => {
    const j = stores.open(stores.tempStore());
    const a = openOrder(j, 'mm-a');
    openOrder(j, 'mm-b');
    j.recordIntent(toy('mm-c'));
    step(j, a, { type: 'Cancelled', at: 9 });

    expect(j.loadOpenOrders(TOY_TERMINAL).map((s) => s.key)).toEqual(['mm-b', 'mm-c']);
    expect(j.loadOpenOrders((s) => s === 'CANCELLED').map((s) => s.key)).toEqual(['mm-b', 'mm-c']);
    expect(j.loadOpenOrders([]).map((s) => s.key)).toEqual(['mm-a', 'mm-b', 'mm-c']);
    expect(j.loadAll().map((s) => [s.key, s.state])).toEqual([
      ['mm-a', 'CANCELLED'],
      ['mm-b', 'OPEN'],
      ['mm-c', 'INTENT'],
    ]);
    const restored = j.loadOpenOrders(TOY_TERMINAL)[0]?.order;
    expect(restored?.contractIds).toEqual(['mm-b-c-1']);
    expect(restored?.quantity.eq(dec('1'))).toBe(true);
  });
});

describe('journal: conflicts and atomicity', () => {
  it('refuses a duplicate key, a taken clientOrderId and a contractId of another order', () => {
    const j = stores.open(stores.tempStore());
    const a = openOrder(j, 'mm-a');
    expect(() => j.recordIntent(toy('mm-a'))).toThrow(JournalConflictError);
    expect(() => j.recordIntent({ ...toy('mm-x'), clientOrderId: 'mm-a' })).toThrow(/clientOrderId mm-a/);

    const b = openOrder(j, 'mm-b');
    const stolen: ToyOrder = { ...b, contractIds: [...b.contractIds, a.contractIds[0]!], version: 9 };
    expect(() => j.recordTransition(b, stolen, { type: 'Rotated' })).toThrow(
      /contractId mm-a-c-1: belongs to order mm-a/,
    );
  });

  it('refuses a transition whose prev state is not the stored one (stale or reordered write)', () => {
    const j = stores.open(stores.tempStore());
    const o = openOrder(j);
    const before = j.lastSeq();
    const stalePrev: ToyOrder = { ...o, state: 'PREPARED' };
    const err = (() => {
      try {
        j.recordTransition(stalePrev, { ...o, state: 'CANCELLED' }, { type: 'Cancelled' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(JournalConflictError);
    expect((err as JournalConflictError).kind).toBe('state');
    expect(j.lastSeq()).toBe(before);
    expect(() => j.recordTransition(toy('ghost'), toy('ghost'), { type: 'X' })).toThrow(/no such order/);
  });

  it('writes nothing when a transition throws after its rows were written', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    const o = openOrder(j);
    const raw = stores.raw(path);
    const counts = tableCounts(raw);
    const row = j.get('mm-1');

    const { order } = applyToy(o, { type: 'Filled', quantity: dec('0.5'), contractId: 'mm-1-c-2', at: 3 });
    // The transition, order update and new contractId are written first; the bad fill comes last.
    const badFill = {
      orderId: null,
      pair: o.pair,
      side: o.side,
      price: o.price,
      quantity: dec('0.5'),
      filled: dec('0.5'),
    };
    expect(() => j.recordTransition(o, order, { type: 'Filled' }, [badFill])).toThrow(JournalInputError);

    expect(tableCounts(raw)).toEqual(counts);
    expect(j.get('mm-1')).toEqual(row);
    expect(j.findByContractId('mm-1-c-2')).toBeUndefined();
    // The same change, made correctly, still applies: the failed attempt left no trace.
    expect(step(j, o, { type: 'Filled', quantity: dec('0.5'), contractId: 'mm-1-c-2', at: 3 }).state).toBe(
      'PARTIALLY_FILLED',
    );
  });

  it('writes nothing when the snapshot cannot be encoded', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    const o = openOrder(j);
    const counts = tableCounts(stores.raw(path));
    const broken = { ...o, state: 'CANCELLED', weird: Number.NaN } as ToyOrder;
    expect(() => j.recordTransition(o, broken, { type: 'Cancelled' })).toThrow(/non-finite/);
    expect(tableCounts(stores.raw(path))).toEqual(counts);
    expect(j.get('mm-1')?.state).toBe('OPEN');
  });
});

describe('journal: clientOrderId counter, meta, lifecycle', () => {
  it('hands out strictly increasing suffixes that survive a reopen, with a new run id per run', () => {
    const path = stores.tempStore();
    const first = stores.open(path);
    const s1 = [first.nextClientOrderSuffix(), first.nextClientOrderSuffix()];
    expect(s1).toEqual([`${first.runId}-1`, `${first.runId}-2`]);
    expect(first.runId).toMatch(/^[a-z2-7]{8}$/);
    first.close();

    const second = stores.open(path);
    expect(second.runId).not.toBe(first.runId);
    expect(second.nextClientOrderSuffix()).toBe(`${second.runId}-3`);
    expect(second.clientOrderCounter()).toBe(3);
    expect(second.getMeta('run_counter')).toBe('2');
    expect(JSON.parse(second.getMeta('run.2')!)).toMatchObject({ runId: second.runId, pid: process.pid });
    expect(second.getMeta('current_run')).toBe(second.runId);
  });

  it('stores caller meta and refuses the journal-owned keys', () => {
    const j = stores.open(stores.tempStore());
    j.setMeta('recovery.watermark', '42');
    expect(j.getMeta('recovery.watermark')).toBe('42');
    expect(j.getMeta('missing')).toBeUndefined();
    expect(() => j.setMeta('client_order_counter', '0')).toThrow(JournalInputError);
    expect(() => j.setMeta('run.1', '{}')).toThrow(JournalInputError);
  });

  it('refuses every call after close; close is idempotent', () => {
    const j = stores.open(stores.tempStore());
    j.close();
    j.close();
    expect(() => j.loadAll()).toThrow(JournalClosedError);
    expect(() => j.recordIntent(toy('mm-1'))).toThrow(JournalClosedError);
  });

  it('opens read-only alongside the writer: sees its commits, refuses writes, takes no lock', () => {
    const path = stores.tempStore();
    const writer = stores.open(path);
    writer.recordIntent(toy('mm-1'));
    const reader = stores.open(path, { readOnly: true });
    expect(reader.runId).toBeNull();
    expect(reader.loadAll().map((s) => s.key)).toEqual(['mm-1']);
    writer.recordIntent(toy('mm-2'));
    expect(reader.findByClientOrderId('mm-2')?.state).toBe('INTENT');
    expect(() => reader.recordIntent(toy('mm-3'))).toThrow(JournalReadOnlyError);
    expect(() => reader.nextClientOrderSuffix()).toThrow(JournalReadOnlyError);
    expect(reader.integrityCheck()).toEqual([]);
  });
});

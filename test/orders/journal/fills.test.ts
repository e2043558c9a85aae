import { describe, expect, it } from 'vitest';
import { Dec, dec } from '../../../src/core/decimal.js';
import { JournalConflictError, JournalInputError } from '../../../src/orders/journal/index.js';
import type { FillInput, Journal } from '../../../src/orders/journal/index.js';
import { tableCounts, useTempStores } from './support/temp-store.js';
import { applyToy, toy } from './support/toy-order.js';
import type { ToyOrder } from './support/toy-order.js';

const stores = useTempStores();

function fill(filled: string, quantity: string, orderId: string | null = 'ord-1'): FillInput {
  return {
    orderId,
    pair: 'BTC/USDC',
    side: 'BUY',
    price: dec('100.25'),
    quantity: dec(quantity),
    filled: dec(filled),
    contractId: 'c-1',
    at: 1,
  };
}

function restingOrder(j: Journal<ToyOrder>): ToyOrder {
  let o = toy('mm-1');
  j.recordIntent(o);
  for (const event of [
    { type: 'Prepared', orderId: 'ord-1', at: 1 },
    { type: 'Rested', contractId: 'c-1', at: 2 },
  ] as const) {
    const next = applyToy(o, event).order;
    j.recordTransition(o, next, event);
    o = next;
  }
  return o;
}

describe('journal fills', () => {
  it('stores a re-applied fill once: UNIQUE (orderId, cumulative filled)', () => {
    const j = stores.open(stores.tempStore());
    expect(j.recordFill(fill('0.25', '0.25'))).toBe(true);
    expect(j.recordFill(fill('0.25', '0.25'))).toBe(false);
    // The same value written differently is the same fill: TEXT is canonicalised before UNIQUE.
    expect(j.recordFill(fill('0.250', '0.2500'))).toBe(false);
    expect(j.recordFill(fill('0.75', '0.5'))).toBe(true);
    expect(j.recordFill(fill('0.25', '0.25', 'ord-2'))).toBe(true);

    const mine = j.fills('ord-1');
    expect(mine.map((f) => [f.filled.toFixed(), f.delta.toFixed()])).toEqual([
      ['0.25', '0.25'],
      ['0.75', '0.5'],
    ]);
    expect(mine[0]?.price?.eq(dec('100.25'))).toBe(true);
    expect(j.fills()).toHaveLength(3);
  });

  it('refuses the same cumulative with a different delta (a double count upstream)', () => {
    const j = stores.open(stores.tempStore());
    j.recordFill(fill('0.5', '0.5'));
    expect(() => j.recordFill(fill('0.5', '0.25'))).toThrow(JournalConflictError);
    expect(j.fills('ord-1')).toHaveLength(1);
  });

  it('refuses a fill without orderId or with a non-positive delta', () => {
    const j = stores.open(stores.tempStore());
    expect(() => j.recordFill(fill('0.5', '0.5', null))).toThrow(JournalInputError);
    expect(() => j.recordFill(fill('0.5', '0'))).toThrow(JournalInputError);
    expect(() => j.recordFill(fill('0.25', '0.5'))).toThrow(JournalInputError);
    expect(j.fills()).toEqual([]);
  });

  it('writes a transition and its fills in one transaction, linked to the order', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    const o = restingOrder(j);
    const event = { type: 'Filled', quantity: dec('0.4'), contractId: 'c-2', at: 3 } as const;
    const { order, fills } = applyToy(o, event);
    expect(j.recordTransition(o, order, event, fills).fillsInserted).toBe(1);

    expect(j.fills('ord-1')).toMatchObject([{ key: 'mm-1', contractId: 'c-1' }]);
    // Re-applying the fill later (a recovery replaying a read) is a no-op.
    expect(j.recordFill(fills[0]!)).toBe(false);
    const later = { ...order, version: order.version + 1 };
    expect(j.recordTransition(order, later, { type: 'Snapshot' }, fills).fillsInserted).toBe(0);
    expect(tableCounts(stores.raw(path)).fills).toBe(1);
    const total = j.fills('ord-1').reduce((sum, f) => sum.plus(f.delta), new Dec(0));
    expect(total.eq(j.get('mm-1')!.filled)).toBe(true);
  });

  it('resolves the local key of a standalone fill from its orderId', () => {
    const j = stores.open(stores.tempStore());
    restingOrder(j);
    j.recordFill(fill('0.1', '0.1'));
    j.recordFill(fill('0.1', '0.1', 'ord-unknown'));
    expect(j.fills().map((f) => [f.orderId, f.key])).toEqual([
      ['ord-1', 'mm-1'],
      ['ord-unknown', null],
    ]);
  });
  it('fillsAfter answers an incremental reader from what it last read, and sees every new fill', () => {
    const j = stores.open(stores.tempStore());
    expect(j.fillsAfter(0)).toEqual([]);
    j.recordFill(fill('0.25', '0.25'));
    const first = j.fillsAfter(0);
    expect(first.map((f) => f.filled.toFixed())).toEqual(['0.25']);
    const seq = first[0]!.seq;
    expect(j.fillsAfter(seq)).toEqual([]);
    // A re-applied fill inserts nothing: still nothing after it.
    j.recordFill(fill('0.25', '0.25'));
    expect(j.fillsAfter(seq)).toEqual([]);
    j.recordFill(fill('0.75', '0.5'));
    expect(j.fillsAfter(seq).map((f) => f.filled.toFixed())).toEqual(['0.75']);
    // An earlier seq than the last one read still reads the store.
    expect(j.fillsAfter(0).map((f) => f.filled.toFixed())).toEqual(['0.25', '0.75']);
  });

  it('fillsAfter sees a fill written in a transition after an empty read', () => {
    const j = stores.open(stores.tempStore());
    const o = restingOrder(j);
    expect(j.fillsAfter(0)).toEqual([]);
    const event = { type: 'Filled', quantity: dec('0.4'), contractId: 'c-2', at: 3 } as const;
    const { order, fills } = applyToy(o, event);
    j.recordTransition(o, order, event, fills);
    expect(j.fillsAfter(0).map((f) => f.delta.toFixed())).toEqual(['0.4']);
  });
});

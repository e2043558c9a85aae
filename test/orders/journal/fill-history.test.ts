import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { Database } from '../../../src/orders/journal/sqlite-driver.js';
import type { FillInput } from '../../../src/orders/journal/index.js';
import { useTempStores } from './support/temp-store.js';

const stores = useTempStores();

function fill(
  orderId: string,
  pair: string,
  side: string,
  price: string,
  qty: string,
  filled: string,
  at: number,
): FillInput {
  return { orderId, pair, side, price: dec(price), quantity: dec(qty), filled: dec(filled), at };
}

describe('journal fill history', () => {
  it('joins each fill with its marks, filters by time, pair and party, and streams oldest first', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    j.recordFill(fill('o-1', 'BTC/USDC', 'BUY', '100', '0.5', '0.5', 1_000));
    j.recordFill(fill('o-1', 'BTC/USDC', 'BUY', '100', '0.25', '0.75', 2_000));
    j.recordFill(fill('o-2', 'ETH/USDC', 'SELL', '10', '3', '3', 3_000));
    const marks = [
      { orderId: 'o-1', filled: dec('0.5'), kind: 'reference' as const, value: '100.5', at: 1_000 },
      { orderId: 'o-1', filled: dec('0.5'), kind: 'markout_5s' as const, value: '-1.25', at: 6_000 },
    ];
    expect(j.recordFillMarks(marks)).toBe(2);
    // A mark is written once: the second write of the same kind is skipped, the first stays.
    expect(j.recordFillMarks([{ ...marks[0]!, value: '999' }])).toBe(0);
    j.flush();

    const all = [...j.fillHistory()];
    expect(all.map((r) => [r.orderId, r.quantity, r.at])).toEqual([
      ['o-1', '0.5', 1_000],
      ['o-1', '0.25', 2_000],
      ['o-2', '3', 3_000],
    ]);
    expect(all[0]).toMatchObject({
      reference: '100.5',
      fee: null,
      party: null,
      markouts: { 5: '-1.25', 30: null, 60: null, 300: null },
    });
    expect(all[1]!.reference).toBeNull();
    expect([...j.fillHistory({ since: 2_000, until: 3_000 })].map((r) => r.at)).toEqual([2_000]);
    expect([...j.fillHistory({ pair: 'ETH/USDC' })].map((r) => r.orderId)).toEqual(['o-2']);
    // The journal records no party yet (null: the store's one party): a party filter matches none.
    expect([...j.fillHistory({ party: 'party-a' })]).toEqual([]);
  });

  it('keeps fill_marks append-only, like fills', () => {
    const path = stores.tempStore();
    const j = stores.open(path);
    j.recordFill(fill('o-1', 'BTC/USDC', 'BUY', '100', '1', '1', 1_000));
    j.recordFillMarks([{ orderId: 'o-1', filled: dec('1'), kind: 'fee', value: '0', at: 1_000 }]);
    j.close();
    const db = stores.raw(path);
    expect(db.prepare('SELECT kind, value FROM fill_marks').all()).toEqual([{ kind: 'fee', value: '0' }]);
    db.close();
    const w = new Database(path);
    try {
      expect(() => w.prepare("UPDATE fill_marks SET value = '1'").run()).toThrow(
        'fill_marks are append-only',
      );
      expect(() => w.prepare('DELETE FROM fill_marks').run()).toThrow('fill_marks are append-only');
    } finally {
      w.close();
    }
  });
});

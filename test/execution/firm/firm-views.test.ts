import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { FirmFills } from '../../../src/execution/firm/firm-fills.js';
import { FirmInventory } from '../../../src/execution/firm/firm-views.js';
import { Inventory } from '../../../src/execution/inventory.js';
import { PartyWallets } from '../../../src/execution/firm/party-wallets.js';
import { newIntent, type TrackedOrder } from '../../../src/orders/fsm/index.js';
import type { OrderState } from '../../../src/orders/fsm/index.js';
import type { FillRecord } from '../../../src/orders/journal/index.js';

const fill = (seq: number, at: number, side: 'BUY' | 'SELL', qty: string): FillRecord => ({
  seq,
  orderId: `o${seq}`,
  key: null,
  contractId: null,
  pair: 'BTC/USDC',
  side,
  price: dec('60000'),
  filled: dec(qty),
  delta: dec(qty),
  at,
});

describe('the firm as one', () => {
  it("sums the parties' inventories per pair", () => {
    const a = Inventory.fromFills([
      { pair: 'BTC/USDC', side: 'BUY', price: dec('60000'), quantity: dec('0.3') },
    ]);
    const b = Inventory.fromFills([
      { pair: 'BTC/USDC', side: 'SELL', price: dec('61000'), quantity: dec('0.1') },
      { pair: 'ETH/USDC', side: 'BUY', price: dec('3000'), quantity: dec('2') },
    ]);
    const firm = new FirmInventory(() => [a, b]);
    expect(firm.get('BTC/USDC').base.toFixed()).toBe('0.2');
    expect(firm.get('BTC/USDC').quote.toFixed()).toBe('-11900');
    expect(firm.all().map((p) => [p.pair, p.base.toFixed(), p.fills])).toEqual([
      ['BTC/USDC', '0.2', 2],
      ['ETH/USDC', '2', 1],
    ]);
    expect(firm.fillCount).toBe(3);
  });

  it("numbers the parties' fills into one sequence, by time, each read taking only what is new", () => {
    const rowsA = [fill(1, 100, 'BUY', '0.1'), fill(2, 300, 'BUY', '0.2')];
    const rowsB: FillRecord[] = [fill(1, 200, 'SELL', '0.05')];
    const src = (rows: FillRecord[]) => ({
      state: 'ready',
      fillsAfter: (s: number) => rows.filter((r) => r.seq > s),
    });
    const fills = new FirmFills([src(rowsA), src(rowsB)]);
    expect(fills.after(0).map((r) => [r.seq, r.orderId, r.at])).toEqual([
      [1, 'o1', 100],
      [2, 'o1', 200],
      [3, 'o2', 300],
    ]);
    rowsB.push(fill(2, 400, 'BUY', '0.3'));
    expect(fills.after(3).map((r) => [r.seq, r.at])).toEqual([[4, 400]]);
    expect(fills.after(4)).toEqual([]);
  });

  it("a party's funds are its last read less what it placed since; the firm's balances the sum", () => {
    const w = new PartyWallets(['a', 'b']);
    w.record('a', 1_000, [
      { instrument: 'USDC', available: '10000', locked: '500' },
      { instrument: 'BTC', available: '1', locked: '0' },
    ]);
    expect(() => w.firm()).toThrow(/party b/);
    w.record('b', 1_000, [{ instrument: 'USDC', available: '2500', locked: '0' }]);
    expect(w.firm()).toEqual([
      { instrument: 'BTC', available: '1', locked: '0' },
      { instrument: 'USDC', available: '12500', locked: '500' },
    ]);
    const pairOf = () => ({ base: 'BTC', quote: 'USDC' });
    const funds = w.funds(
      'a',
      [],
      [
        { base: 'BTC', quote: 'USDC', side: 'BUY', price: dec('60000'), quantity: dec('0.1') },
        { base: 'BTC', quote: 'USDC', side: 'SELL', price: dec('61000'), quantity: dec('0.25') },
      ],
      pairOf,
    );
    expect([...funds!].map(([k, v]) => [k, v.toFixed()])).toEqual([
      ['USDC', '4000'],
      ['BTC', '0.75'],
    ]);
    expect(w.funds('c', [], [], pairOf)).toBeNull();
  });

  // A read sent at 1 000 while order `rested` was on the book. Each row: one active order of the
  // party, and what its funds are then (10 000 USDC and 1 BTC available in the read).
  const order = (
    key: string,
    state: OrderState,
    createdAt: number,
    side: 'BUY' | 'SELL',
    qty: string,
  ): TrackedOrder => ({
    ...newIntent({
      key,
      slot: 's',
      pair: 'BTC/USDC',
      side,
      price: dec('60000'),
      quantity: dec(qty),
      clientOrderId: key,
      at: createdAt,
    }),
    state,
  });
  it.each([
    [
      'resting when the read was sent: its lock is in the read',
      order('rested', 'OPEN', 500, 'BUY', '0.1'),
      '10000',
      '1',
    ],
    [
      'in flight across the read (created before, rests now): counted',
      order('crossed', 'OPEN', 900, 'BUY', '0.05'),
      '7000',
      '1',
    ],
    [
      'submitted before the read, not yet confirmed: counted',
      order('pending', 'SUBMITTED', 950, 'SELL', '0.25'),
      '10000',
      '0.75',
    ],
    ['created after the read: counted', order('later', 'PREPARING', 1_500, 'SELL', '0.2'), '10000', '0.8'],
  ])('%s', (_why, o, usdc, btc) => {
    const w = new PartyWallets(['a']);
    w.trackOrders(() => new Set(['rested']));
    const marks = w.marks();
    w.record(
      'a',
      1_000,
      [
        { instrument: 'USDC', available: '10000', locked: '6000' },
        { instrument: 'BTC', available: '1', locked: '0' },
      ],
      marks.get('a'),
    );
    const funds = w.funds('a', [o], [], () => ({ base: 'BTC', quote: 'USDC' }));
    expect([funds!.get('USDC')!.toFixed(), funds!.get('BTC')!.toFixed()]).toEqual([usdc, btc]);
  });

  it('a read recorded without marks counts every active order (errs low)', () => {
    const w = new PartyWallets(['a']);
    expect(w.marks().get('a')!.size).toBe(0);
    w.record('a', 1_000, [{ instrument: 'USDC', available: '10000', locked: '6000' }]);
    const funds = w.funds('a', [order('rested', 'OPEN', 500, 'BUY', '0.1')], [], () => ({
      base: 'BTC',
      quote: 'USDC',
    }));
    expect(funds!.get('USDC')!.toFixed()).toBe('4000');
  });
});

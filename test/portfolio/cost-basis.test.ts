import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { FLAT, costBasisOf, foldFill, unrealisedAt, type CostFill } from '../../src/portfolio/cost-basis.js';

const f = (side: string, price: string | null, qty: string, fee?: string): CostFill => ({
  side,
  price: price === null ? null : dec(price),
  quantity: dec(qty),
  ...(fee === undefined ? {} : { fee: dec(fee) }),
});

/** Each row: the fills, then the position, average entry, realised PnL and unrealised at the mark. */
const ROWS: {
  name: string;
  fills: CostFill[];
  position: string;
  average: string | null;
  realised: string;
  mark: string;
  unrealised: string;
}[] = [
  { name: 'no fills', fills: [], position: '0', average: null, realised: '0', mark: '100', unrealised: '0' },
  {
    name: 'two buys average by quantity',
    fills: [f('BUY', '100', '1'), f('BUY', '110', '3')],
    position: '4',
    average: '107.5',
    realised: '0',
    mark: '110',
    unrealised: '10',
  },
  {
    name: 'a partial sell realises against the average, which stays',
    fills: [f('BUY', '100', '1'), f('BUY', '110', '3'), f('SELL', '112', '1')],
    position: '3',
    average: '107.5',
    realised: '4.5',
    mark: '105',
    unrealised: '-7.5',
  },
  {
    name: 'selling the rest flattens: no average, everything realised',
    fills: [f('BUY', '100', '2'), f('SELL', '104', '1'), f('SELL', '98', '1')],
    position: '0',
    average: null,
    realised: '2',
    mark: '50',
    unrealised: '0',
  },
  {
    name: 'a flip through zero closes at the average and opens the rest at the fill price',
    fills: [f('BUY', '100', '2'), f('SELL', '105', '5')],
    position: '-3',
    average: '105',
    realised: '10',
    mark: '103',
    unrealised: '6',
  },
  {
    name: 'a short covered in part gains when bought back below its average',
    fills: [f('SELL', '200', '2'), f('SELL', '210', '2'), f('BUY', '190', '1')],
    position: '-3',
    average: '205',
    realised: '15',
    mark: '205',
    unrealised: '0',
  },
  {
    name: 'a short flipped long through zero',
    fills: [f('SELL', '50', '1'), f('BUY', '40', '3')],
    position: '2',
    average: '40',
    realised: '10',
    mark: '41',
    unrealised: '2',
  },
  {
    name: 'fees are charged to realised PnL on every fill',
    fills: [f('BUY', '100', '1', '0.1'), f('SELL', '101', '0.5', '0.05')],
    position: '0.5',
    average: '100',
    realised: '0.35',
    mark: '102',
    unrealised: '1',
  },
  {
    name: 'a fill without a price is left out and counted',
    fills: [f('BUY', '100', '1'), f('BUY', null, '5')],
    position: '1',
    average: '100',
    realised: '0',
    mark: '100',
    unrealised: '0',
  },
];

describe('cost basis (average cost)', () => {
  it.each(ROWS)('$name', (row) => {
    const b = costBasisOf(row.fills);
    expect({
      position: b.position.toFixed(),
      average: b.averagePrice?.toFixed() ?? null,
      realised: b.realised.toFixed(),
      unrealised: unrealisedAt(b, dec(row.mark))?.toFixed() ?? null,
    }).toEqual({
      position: row.position,
      average: row.average,
      realised: row.realised,
      unrealised: row.unrealised,
    });
  });

  it('without fees, realised + unrealised equals the marked PnL (quote + base × mark) on every prefix', () => {
    const fills = [
      f('BUY', '100', '1.5'),
      f('SELL', '103', '0.5'),
      f('SELL', '99', '3'),
      f('BUY', '97.25', '0.75'),
      f('BUY', '101', '2'),
      f('SELL', '102.5', '0.25'),
    ];
    const mark = dec('100.4');
    let b = FLAT;
    let base = dec('0');
    let quote = dec('0');
    for (const fill of fills) {
      b = foldFill(b, fill);
      const sign = fill.side === 'BUY' ? 1 : -1;
      base = base.plus(fill.quantity.times(sign));
      quote = quote.minus(fill.price!.times(fill.quantity).times(sign));
      expect(b.realised.plus(unrealisedAt(b, mark)!).toFixed()).toBe(quote.plus(base.times(mark)).toFixed());
    }
    expect(b.position.toFixed()).toBe(base.toFixed());
  });

  it('counts unpriced fills, has no unrealised PnL without a mark, and refuses a bad fill', () => {
    const b = costBasisOf([f('BUY', '100', '1'), f('SELL', null, '1')]);
    expect(b.unpriced).toBe(1);
    expect(unrealisedAt(b, null)).toBeNull();
    expect(() => foldFill(FLAT, f('BUY', '1', '0'))).toThrow(RangeError);
    expect(() => foldFill(FLAT, f('HOLD', '1', '1'))).toThrow('unknown fill side HOLD');
  });
});

import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import type { MidSample, TradeView } from '../../src/market/market-snapshot.js';
import { appendMid, midPrice } from '../../src/market/mid-history.js';
import { mergeTrades } from '../../src/market/trade-window.js';

const d = (s: string): Dec => new Dec(s);
const tv = (id: string, at: number): TradeView => ({ tradeId: id, price: d('1'), quantity: d('1'), at });
const ids = (ts: readonly TradeView[]): string[] => ts.map((t) => t.tradeId);

describe('mergeTrades', () => {
  it.each([
    {
      name: 'first poll',
      window: [],
      incoming: ['c@3', 'b@2', 'a@1'],
      keep: 10,
      want: ['c', 'b', 'a'],
      added: 3,
    },
    {
      name: 'overlapping poll',
      window: ['c@3', 'b@2', 'a@1'],
      incoming: ['e@5', 'd@4', 'c@3'],
      keep: 10,
      want: ['e', 'd', 'c', 'b', 'a'],
      added: 2,
    },
    {
      name: 'same poll again',
      window: ['c@3', 'b@2'],
      incoming: ['c@3', 'b@2'],
      keep: 10,
      want: ['c', 'b'],
      added: 0,
    },
    {
      name: 'bounded',
      window: ['c@3', 'b@2', 'a@1'],
      incoming: ['e@5', 'd@4'],
      keep: 3,
      want: ['e', 'd', 'c'],
      added: 2,
    },
    {
      name: 'evicted trade polled again stays out',
      window: ['e@5', 'd@4', 'c@3'],
      incoming: ['e@5', 'd@4', 'c@3', 'b@2'],
      keep: 3,
      want: ['e', 'd', 'c'],
      added: 0,
    },
    {
      name: 'duplicates inside one poll',
      window: [],
      incoming: ['a@1', 'a@1'],
      keep: 10,
      want: ['a'],
      added: 1,
    },
    {
      name: 'late trade sorted by time',
      window: ['c@3', 'a@1'],
      incoming: ['b@2'],
      keep: 10,
      want: ['c', 'b', 'a'],
      added: 1,
    },
  ])('$name', ({ window, incoming, keep, want, added }) => {
    const parse = (s: string): TradeView => {
      const [id, at] = s.split('@');
      return tv(id!, Number(at));
    };
    const r = mergeTrades(window.map(parse), incoming.map(parse), keep);
    expect(ids(r.trades)).toEqual(want);
    expect(r.added).toBe(added);
    expect(Object.isFrozen(r.trades) || r.added === 0).toBe(true);
  });

  it('returns the same window when nothing is new', () => {
    const w = Object.freeze([tv('a', 1)]);
    expect(mergeTrades(w, [tv('a', 1)], 5).trades).toBe(w);
  });
});

describe('appendMid / midPrice', () => {
  const lim = { keepMs: 3_000, maxSamples: 10 };
  const s = (at: number, p: string): MidSample => ({ at, price: d(p) });

  it('appends oldest first and trims by age relative to the newest sample', () => {
    let h: readonly MidSample[] = [];
    for (const [at, p] of [
      [0, '1'],
      [1_000, '2'],
      [2_000, '3'],
      [4_000, '4'],
    ] as const)
      h = appendMid(h, s(at, p), lim);
    expect(h.map((m) => m.at)).toEqual([1_000, 2_000, 4_000]);
    expect(Object.isFrozen(h)).toBe(true);
  });

  it('trims by count and ignores samples not newer than the last', () => {
    let h: readonly MidSample[] = [];
    for (let i = 0; i < 5; i++) h = appendMid(h, s(i, String(i + 1)), { keepMs: 1e9, maxSamples: 2 });
    expect(h.map((m) => m.at)).toEqual([3, 4]);
    expect(appendMid(h, s(4, '9'), lim)).toBe(h);
    expect(appendMid(h, s(2, '9'), lim)).toBe(h);
  });

  it('midPrice is (best bid + best ask) / 2, null on an empty side', () => {
    const lvl = (p: string) => ({ price: d(p), quantity: d('1') });
    expect(midPrice({ bids: [lvl('100.1')], asks: [lvl('100.2')] })!.toFixed()).toBe('100.15');
    expect(midPrice({ bids: [], asks: [lvl('1')] })).toBeNull();
    expect(midPrice({ bids: [lvl('1')], asks: [] })).toBeNull();
  });
});

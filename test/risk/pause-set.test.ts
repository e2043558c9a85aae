import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import type { Side } from '../../src/core/order-terms.js';
import {
  applyPauses,
  describeScope,
  pauseOf,
  stillPausing,
  withPause,
  withoutPauses,
  type PauseEntry,
  type PauseScope,
} from '../../src/risk/pause-set.js';
import type { DesiredQuote, StrategyResult } from '../../src/strategy/quote-types.js';

const PAIRS = ['BTC/USDC', 'ETH/USDC'];

function entry(
  pair: string | null,
  side: Side | null,
  reason: PauseEntry['reason'] = 'operator',
): PauseEntry {
  return {
    pair,
    side,
    reason,
    by: 'loopback 127.0.0.1',
    at: 1,
    detail: reason === 'kill-switch' ? 'drawdown' : '',
  };
}

function quote(pair: string, side: Side, level = 0): DesiredQuote {
  const x = new Dec(1);
  return {
    slot: `${pair}:${side}:${level}`,
    pair,
    side,
    level,
    price: x,
    quantity: x,
    reference: x,
    referenceAt: 0,
  };
}

const ALL_QUOTES = PAIRS.flatMap((p) =>
  (['BUY', 'SELL'] as const).flatMap((s) => [quote(p, s, 0), quote(p, s, 1)]),
);
const RESULT: StrategyResult = { quotes: ALL_QUOTES, skipped: [], references: {} };

describe('applyPauses', () => {
  it.each<{ name: string; set: PauseEntry[]; left: string[] }>([
    { name: 'nothing paused: every quote', set: [], left: ALL_QUOTES.map((q) => q.slot) },
    {
      name: 'a pair',
      set: [entry('BTC/USDC', null)],
      left: ['ETH/USDC:BUY:0', 'ETH/USDC:BUY:1', 'ETH/USDC:SELL:0', 'ETH/USDC:SELL:1'],
    },
    {
      name: 'a side of a pair',
      set: [entry('ETH/USDC', 'SELL')],
      left: [
        'BTC/USDC:BUY:0',
        'BTC/USDC:BUY:1',
        'BTC/USDC:SELL:0',
        'BTC/USDC:SELL:1',
        'ETH/USDC:BUY:0',
        'ETH/USDC:BUY:1',
      ],
    },
    {
      name: 'a side of every pair',
      set: [entry(null, 'BUY')],
      left: ['BTC/USDC:SELL:0', 'BTC/USDC:SELL:1', 'ETH/USDC:SELL:0', 'ETH/USDC:SELL:1'],
    },
    { name: 'the whole daemon', set: [entry(null, null, 'kill-switch')], left: [] },
  ])('$name', ({ set, left }) => {
    const out = applyPauses(RESULT, set, PAIRS);
    expect(out.quotes.map((q) => q.slot)).toEqual(left);
    // Every paused (pair, side) is a skip the reconciler cancels on (never keepOrders).
    const pausedSides = PAIRS.flatMap((p) => (['BUY', 'SELL'] as const).map((s) => [p, s] as const)).filter(
      ([p, s]) => pauseOf(set, p, s) !== null,
    );
    expect(out.skipped.map((k) => `${k.pair} ${k.side} ${k.keepOrders === true}`)).toEqual(
      pausedSides.map(([p, s]) => `${p} ${s} false`),
    );
    for (const k of out.skipped)
      expect(k.reason).toMatch(/^paused \((operator: loopback|kill-switch: drawdown)/);
  });
});

describe('pause and resume scopes', () => {
  it.each<{ name: string; set: PauseEntry[]; resume: PauseScope; left: string[]; still: string[] }>([
    {
      name: 'resume a pair lifts the pair and its sides',
      set: [entry('BTC/USDC', null), entry('BTC/USDC', 'BUY'), entry('ETH/USDC', null)],
      resume: { pair: 'BTC/USDC', side: null },
      left: ['ETH/USDC'],
      still: [],
    },
    {
      name: 'resume a side leaves the whole-pair pause, which still holds it',
      set: [entry('BTC/USDC', null), entry('BTC/USDC', 'SELL')],
      resume: { pair: 'BTC/USDC', side: 'SELL' },
      left: ['BTC/USDC'],
      still: ['BTC/USDC'],
    },
    {
      name: 'resume everything lifts the kill switch too',
      set: [entry(null, null, 'kill-switch'), entry('ETH/USDC', 'BUY')],
      resume: { pair: null, side: null },
      left: [],
      still: [],
    },
    {
      name: 'resume a pair under a daemon-wide pause: still paused by it',
      set: [entry(null, null, 'kill-switch')],
      resume: { pair: 'ETH/USDC', side: null },
      left: ['all pairs'],
      still: ['all pairs'],
    },
  ])('$name', ({ set, resume, left, still }) => {
    const r = withoutPauses(set, resume);
    expect(r.set.map(describeScope)).toEqual(left);
    expect(r.lifted.length).toBe(set.length - left.length);
    expect(stillPausing(r.set, resume).map(describeScope)).toEqual(still);
  });

  it('a pause of the same scope replaces the older one', () => {
    const set = withPause(withPause([], entry('BTC/USDC', null)), entry('BTC/USDC', null, 'kill-switch'));
    expect(set.map((e) => e.reason)).toEqual(['kill-switch']);
  });

  it('pauseOf names the widest pause', () => {
    const set = [entry('BTC/USDC', 'BUY'), entry(null, null, 'kill-switch')];
    expect(pauseOf(set, 'BTC/USDC', 'BUY')?.reason).toBe('kill-switch');
    expect(pauseOf([entry('BTC/USDC', 'BUY')], 'BTC/USDC', 'SELL')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';

import { afterFills } from '../../src/strategy/fill-reaction.js';
import { NOW, PAIR, pairParams } from './support/fixtures.js';

const SHAPE = { centerShiftBps: 2, bidBps: 20, askBps: 20 };
const ON = pairParams({ fillReaction: { widenBps: 6, forMs: 60_000 } }).fillReaction;

describe('afterFills: a side that just filled sits further out for a while', () => {
  it.each<{ name: string; fills: Record<string, number>; bid: number; ask: number }>([
    { name: 'no fill seen', fills: {}, bid: 20, ask: 20 },
    { name: 'bid filled 10 s ago', fills: { [`${PAIR}:BUY`]: NOW - 10_000 }, bid: 26, ask: 20 },
    { name: 'ask filled 59.9 s ago', fills: { [`${PAIR}:SELL`]: NOW - 59_900 }, bid: 20, ask: 26 },
    { name: 'bid filled 60 s ago: over', fills: { [`${PAIR}:BUY`]: NOW - 60_000 }, bid: 20, ask: 20 },
    { name: 'another pair filled', fills: { 'ETH/USDC:BUY': NOW }, bid: 20, ask: 20 },
    {
      name: 'both sides filled',
      fills: { [`${PAIR}:BUY`]: NOW - 1, [`${PAIR}:SELL`]: NOW - 1 },
      bid: 26,
      ask: 26,
    },
  ])('$name', ({ fills, bid, ask }) => {
    expect(afterFills(SHAPE, PAIR, NOW, fills, ON)).toEqual({ centerShiftBps: 2, bidBps: bid, askBps: ask });
  });

  it('is off by default', () => {
    const off = pairParams().fillReaction;
    expect(afterFills(SHAPE, PAIR, NOW, { [`${PAIR}:BUY`]: NOW }, off)).toBe(SHAPE);
  });
});

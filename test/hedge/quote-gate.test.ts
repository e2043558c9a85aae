import { describe, expect, it } from 'vitest';

import { Dec } from '../../src/core/decimal.js';
import { hedgeQuoteGate } from '../../src/hedge/quote-gate.js';

describe('hedgeQuoteGate', () => {
  it.each([
    {
      name: 'venue works: both sides open',
      pos: '0.4',
      failing: false,
      policy: 'stop',
      want: 'BUY ok | SELL ok',
    },
    {
      name: 'failing, long: no more buying',
      pos: '0.4',
      failing: true,
      policy: 'stop',
      want: 'BUY off | SELL ok',
    },
    {
      name: 'failing, short: no more selling',
      pos: '-0.4',
      failing: true,
      policy: 'stop',
      want: 'BUY ok | SELL off',
    },
    {
      name: 'failing, flat: both sides add',
      pos: '0',
      failing: true,
      policy: 'stop',
      want: 'BUY off | SELL off',
    },
    {
      name: 'failing, long, widen: buy further out',
      pos: '0.4',
      failing: true,
      policy: 'widen',
      want: 'BUY +25 | SELL ok',
    },
  ] as const)('$name', ({ pos, failing, policy, want }) => {
    const g = hedgeQuoteGate(new Dec(pos), failing, policy, 25);
    const show = (s: { quote: boolean; widenBps: number; reason: string | null }): string =>
      !s.quote ? 'off' : s.widenBps > 0 ? `+${s.widenBps}` : 'ok';
    expect(`BUY ${show(g.BUY)} | SELL ${show(g.SELL)}`).toBe(want);
    expect([g.BUY.reason, g.SELL.reason].includes('hedge-venue-failing')).toBe(failing);
  });
});

/** The hedged pairs in `/status`: absent without one; strings and the failure's reason with one. */
import { describe, expect, it } from 'vitest';

import { Dec } from '../../../src/core/decimal.js';
import type { PairHedgeReport } from '../../../src/hedge/hedging.js';
import { hedgeStatus } from '../../../src/observability/http/hedge-status.js';

const d = (x: string): Dec => new Dec(x);
const REPORT: PairHedgeReport = {
  pair: 'BTC/USDC',
  exchange: 'binance',
  symbol: 'BTC/USDT',
  dryRun: false,
  state: {
    positionBase: d('-0.4'),
    failing: true,
    failingSince: Date.UTC(2026, 10, 28, 9, 0, 0),
    lastError: new Error('HEDGE_INSUFFICIENT_FUNDS: no funds'),
    ordersSent: 3,
    filledBase: d('0.4'),
    feesQuote: d('10'),
    slippageQuote: d('2'),
    cashQuote: d('-20000'),
  },
  venueBase: d('0.5'),
  unhedgedBase: d('0.1'),
  lastHold: 'venue-failing',
  atCap: false,
  costQuote: d('12.000000001'),
  fills: 2,
};

describe('hedgeStatus', () => {
  it('is absent without a hedged pair', () => {
    expect(hedgeStatus([])).toEqual({});
  });

  it('shows each pair with decimals as strings, and the failure since when and why', () => {
    expect(hedgeStatus([REPORT])).toEqual({
      hedge: [
        {
          pair: 'BTC/USDC',
          exchange: 'binance',
          symbol: 'BTC/USDT',
          dryRun: false,
          positionBase: '-0.4',
          unhedgedBase: '0.1',
          failing: true,
          failingSince: '2026-11-28T09:00:00.000Z',
          lastError: 'HEDGE_INSUFFICIENT_FUNDS: no funds',
          atCap: false,
          lastHold: 'venue-failing',
          costQuote: '12',
          fills: 2,
        },
      ],
    });
  });

  it('a pair whose venue is not set up yet is failing, with no position', () => {
    const [s] = hedgeStatus([{ ...REPORT, state: null, unhedgedBase: null }]).hedge!;
    expect([s!.failing, s!.positionBase, s!.failingSince, s!.lastError]).toEqual([true, null, null, null]);
  });
});

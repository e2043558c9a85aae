import { describe, expect, it } from 'vitest';
import { FundingWatch } from '../../../src/daemon/reporting/party-views.js';
import type { PartyView } from '../../../src/observability/party-metrics.js';

const view = (ok: boolean): PartyView => ({
  name: 'b',
  active: true,
  reason: null,
  queued: 0,
  busyMs: 0,
  openOrders: 0,
  placed: 0,
  refused: 0,
  balances: {},
  funds: {},
  canFund: [{ pair: 'ETH/USDC', side: 'SELL', ok }],
});

describe('the funding watch', () => {
  it.each([
    {
      name: 'a dip shorter than the hold is not reported',
      steps: [
        [0, false],
        [30_000, false],
        [50_000, true],
      ],
      expected: [],
    },
    {
      name: 'a side unfunded for the hold is reported once, and its return',
      steps: [
        [0, false],
        [30_000, false],
        [60_000, false],
        [90_000, false],
        [120_000, true],
      ],
      expected: [
        [60_000, false],
        [120_000, true],
      ],
    },
    {
      name: 'funded all along: nothing',
      steps: [
        [0, true],
        [60_000, true],
      ],
      expected: [],
    },
  ] as const)('$name', ({ steps, expected }) => {
    const w = new FundingWatch(60_000);
    const got = steps.flatMap(([at, ok]) => w.observe([view(ok)], at).map((e) => [e.at, e.ok]));
    expect(got).toEqual(expected);
  });
});

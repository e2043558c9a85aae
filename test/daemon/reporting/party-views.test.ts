import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { firmPartyViews, FundingWatch } from '../../../src/daemon/reporting/party-views.js';
import type { PartyReport } from '../../../src/execution/firm/firm-engine.js';
import { PartyWallets } from '../../../src/execution/firm/party-wallets.js';
import type { DesiredQuote } from '../../../src/strategy/quote-types.js';
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

describe("a party's funding of a side", () => {
  const report = (funds: string | null): PartyReport => ({
    name: 'b',
    active: true,
    reason: null,
    queued: 0,
    busySince: null,
    busyMs: 0,
    openOrders: 0,
    placed: 0,
    refused: 0,
    funds: funds === null ? null : new Map([['ETH', dec(funds)]]),
  });
  const ask = { pair: 'ETH/USDC', side: 'SELL', price: dec('3000'), quantity: dec('5') } as DesiredQuote;
  // Each row: the party's last read of ETH (null: not read yet), what it can still lock, and
  // whether it counts as able to fund a SELL of 5 ETH.
  it.each([
    [
      'all its base rests in its own asks: quoting, not drifting',
      { available: '0', locked: '10' },
      '0',
      true,
    ],
    ['enough free base', { available: '6', locked: '0' }, '6', true],
    ['fills moved its base away: 3 ETH in all', { available: '1', locked: '2' }, '0', false],
    ['not read yet', null, null, true],
  ] as const)('%s', (_why, eth, funds, ok) => {
    const w = new PartyWallets(['b']);
    if (eth !== null) w.record('b', 1_000, [{ instrument: 'ETH', ...eth }]);
    const views = firmPartyViews({ report: () => [report(funds)] }, w, [ask], () => ({
      base: 'ETH',
      quote: 'USDC',
    }));
    expect(views.map((v) => v.canFund)).toEqual([[{ pair: 'ETH/USDC', side: 'SELL', ok }]]);
  });
});

import { describe, expect, it } from 'vitest';

import { dec } from '../../../src/core/decimal.js';
import { assessReadiness } from '../../../src/observability/http/readiness.js';
import type { DaemonStateView } from '../../../src/observability/http/state-view.js';
import { buildStatusReport } from '../../../src/observability/http/status-report.js';

const NOW = Date.UTC(2027, 0, 1, 12, 0, 0);

function view(over: Partial<DaemonStateView> = {}): DaemonStateView {
  return {
    now: NOW,
    pairs: [
      {
        pair: 'BTC/USDC',
        quotes: [
          {
            side: 'SELL',
            level: 0,
            price: dec('100.1'),
            remaining: dec('0.5'),
            referenceAt: NOW - 2_000,
            key: 'k-2',
          },
          { side: 'BUY', level: 1, price: dec('99.5'), remaining: dec('0.5'), referenceAt: null },
          {
            side: 'BUY',
            level: 0,
            price: dec('99.9'),
            remaining: dec('0.25'),
            referenceAt: NOW - 2_000,
            key: 'k-1',
          },
        ],
        reference: { price: dec('100'), at: NOW - 1_000 },
        inventory: { base: dec('0.1') },
        pnl: { marked: dec('-1.5') },
        cost: { averagePrice: dec('101.123456789'), realised: dec('2'), unrealised: null },
        riskState: 'active',
      },
    ],
    balances: { USDC: { available: dec('1000'), locked: dec('50') } },
    pollers: [
      { poller: 'book', pair: 'BTC/USDC', lastSuccessAt: NOW - 1_000 },
      { poller: 'balances', pair: null, lastSuccessAt: null },
    ],
    orderCounts: { OPEN: 3, FILLED: 0 },
    preflightPassed: true,
    account: { status: 'ACTIVE', authFailing: false },
    pipeline: { step: 'submit', key: 'k-9', since: NOW - 5_000 },
    lastFills: [
      {
        pair: 'BTC/USDC',
        side: 'BUY',
        price: dec('99.9'),
        quantity: dec('0.25'),
        at: NOW - 60_000,
        orderId: 'o-1',
      },
    ],
    ...over,
  };
}

describe('assessReadiness', () => {
  const opts = { marketDataMaxAgeMs: 5_000 };

  it('is ready when preflight passed, the key works, the account is ACTIVE and books are fresh', () => {
    expect(assessReadiness(view(), opts)).toEqual({ ready: true, reasons: [] });
  });

  it('lists every reason it is not', () => {
    const r = assessReadiness(
      view({
        preflightPassed: false,
        account: { status: 'SUSPENDED', authFailing: true },
        pollers: [
          { poller: 'book', pair: 'BTC/USDC', lastSuccessAt: NOW - 12_000 },
          { poller: 'book', pair: 'ETH/USDC', lastSuccessAt: null },
        ],
      }),
      opts,
    );
    expect(r.ready).toBe(false);
    expect(r.reasons).toEqual([
      'the startup preflight has not passed',
      'the API key is failing (401 on the last authenticated read)',
      'the account is SUSPENDED, not ACTIVE',
      'market data is stale: book BTC/USDC last polled 12.0 s ago (limit 5.0 s)',
      'market data is stale: book ETH/USDC has never been polled successfully',
    ]);
  });

  it('is not ready before the account is read or without market data', () => {
    expect(assessReadiness(view({ account: null, pollers: [] }), opts).reasons).toEqual([
      'the account has not been read yet',
      'no market data poller is running',
    ]);
  });
});

describe('buildStatusReport', () => {
  it('summarises per pair quotes, inventory, PnL, fills and the pipeline for a person', () => {
    const s = buildStatusReport(view(), { readiness: { ready: true, reasons: [] } });
    expect(s.at).toBe('2027-01-01T12:00:00.000Z');
    expect(s.ready).toEqual({ ready: true, reasons: [] });
    expect(s.pairs).toEqual([
      {
        pair: 'BTC/USDC',
        riskState: 'active',
        twoSided: true,
        reference: { price: '100', ageSeconds: 1 },
        bestBid: '99.9',
        bestAsk: '100.1',
        spreadBps: '20.00',
        quotes: [
          { side: 'BUY', level: 0, price: '99.9', remaining: '0.25', referenceAgeSeconds: 2, key: 'k-1' },
          { side: 'BUY', level: 1, price: '99.5', remaining: '0.5', referenceAgeSeconds: null, key: null },
          { side: 'SELL', level: 0, price: '100.1', remaining: '0.5', referenceAgeSeconds: 2, key: 'k-2' },
        ],
        inventory: { base: '0.1', quote: null },
        pnl: { realised: null, marked: '-1.5' },
        cost: { averageEntryPrice: '101.12345679', realised: '2', unrealised: null },
        sideMissing: [],
      },
    ]);
    expect(s.balances).toEqual({ USDC: { available: '1000', locked: '50' } });
    expect(s.orders).toEqual({ OPEN: 3 });
    expect(s.pipeline).toEqual({ step: 'submit', key: 'k-9', since: '2027-01-01T11:59:55.000Z' });
    expect(s.lastFills).toEqual([
      {
        pair: 'BTC/USDC',
        side: 'BUY',
        price: '99.9',
        quantity: '0.25',
        at: '2027-01-01T11:59:00.000Z',
        orderId: 'o-1',
      },
    ]);
    expect(s.pollers[1]).toEqual({ poller: 'balances', pair: null, lastSuccessAt: null, ageSeconds: null });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it('caps the fills listed', () => {
    const fill = view().lastFills![0]!;
    const s = buildStatusReport(view({ lastFills: Array.from({ length: 50 }, () => fill) }), { maxFills: 5 });
    expect(s.lastFills).toHaveLength(5);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { dec } from '../../src/core/decimal.js';
import { registerStateCollector } from '../../src/observability/state-collector.js';
import type {
  DaemonStateView,
  LiveQuoteView,
  PairStateView,
} from '../../src/observability/http/state-view.js';
import { pollerViewsFromSources } from '../../src/observability/http/state-view.js';
import { samplesOf } from './support/exposition.js';
import { T0, testMetrics, type TestMetrics } from './support/test-metrics.js';

let t: TestMetrics;
beforeEach(() => {
  t = testMetrics();
});
afterEach(() => t.close());

const quote = (
  side: 'BUY' | 'SELL',
  level: number,
  price: string,
  referenceAt: number | null = T0 - 2_000,
): LiveQuoteView => ({
  side,
  level,
  price: dec(price),
  remaining: dec('0.5'),
  referenceAt,
});

function pairView(over: Partial<PairStateView> = {}): PairStateView {
  return {
    pair: 'BTC/USDC',
    quotes: [quote('BUY', 0, '99.9'), quote('BUY', 1, '99.5'), quote('SELL', 0, '100.1')],
    reference: { price: dec('100'), at: T0 - 1_000 },
    inventory: { base: dec('-0.1'), quote: dec('10.01') },
    pnl: { realised: dec('0.3'), marked: dec('-1.25') },
    riskState: 'reducing',
    foreignOrders: 2,
    ...over,
  };
}

function view(over: Partial<DaemonStateView> = {}): DaemonStateView {
  return {
    now: T0,
    pairs: [pairView()],
    balances: {
      USDC: { available: dec('1000.5'), locked: dec('99.9') },
      BTC: { available: dec('1'), locked: dec('0') },
    },
    pollers: pollerViewsFromSources({ 'book:BTC/USDC': T0 - 1_500, balances: null }),
    orderCounts: { OPEN: 3, UNKNOWN: 1 },
    rateBudget: { tokens: 3, capacity: 4 },
    ...over,
  };
}

describe('registerStateCollector', () => {
  it('sets quoting, money, risk, orders, pollers and the rate budget from the view', async () => {
    registerStateCollector(t.metrics, () => view());
    const f = await t.scrape();
    const v = (name: string, labels: Record<string, string> = {}) =>
      samplesOf(f, name).find((s) => Object.entries(labels).every(([k, x]) => s.labels[k] === x))?.value;
    const btc = { pair: 'BTC/USDC' };
    expect(v('ledger_mm_live_quotes', { ...btc, side: 'buy', level: '1' })).toBe(1);
    expect(samplesOf(f, 'ledger_mm_live_quotes')).toHaveLength(3);
    expect(v('ledger_mm_quote_reference_age_seconds', { ...btc, side: 'sell', level: '0' })).toBe(2);
    expect(v('ledger_mm_quoted_best_bid_price', btc)).toBe(99.9);
    expect(v('ledger_mm_quoted_best_ask_price', btc)).toBe(100.1);
    expect(v('ledger_mm_quoted_spread_bps', btc)).toBeCloseTo(20, 9);
    expect(v('ledger_mm_reference_price', btc)).toBe(100);
    expect(v('ledger_mm_reference_age_seconds', btc)).toBe(1);
    expect(v('ledger_mm_two_sided', btc)).toBe(1);
    expect(v('ledger_mm_inventory_base', btc)).toBe(-0.1);
    expect(v('ledger_mm_inventory_quote', btc)).toBe(10.01);
    expect(v('ledger_mm_pnl_realised_quote', btc)).toBe(0.3);
    expect(v('ledger_mm_pnl_marked_quote', btc)).toBe(-1.25);
    expect(v('ledger_mm_balance_available', { token: 'USDC' })).toBe(1000.5);
    expect(v('ledger_mm_balance_locked', { token: 'USDC' })).toBe(99.9);
    expect(samplesOf(f, 'ledger_mm_risk_state').map((s) => [s.labels.state, s.value])).toEqual([
      ['active', 0],
      ['reducing', 1],
      ['halted', 0],
    ]);
    expect(v('ledger_mm_orders', { state: 'OPEN' })).toBe(3);
    expect(v('ledger_mm_orders', { state: 'UNKNOWN' })).toBe(1);
    expect(v('ledger_mm_orders', { state: 'STRANDED' })).toBe(0);
    expect(samplesOf(f, 'ledger_mm_orders')).toHaveLength(17);
    expect(v('ledger_mm_foreign_orders', btc)).toBe(2);
    expect(v('ledger_mm_poller_last_success_timestamp_seconds', { poller: 'book', pair: 'BTC/USDC' })).toBe(
      (T0 - 1_500) / 1000,
    );
    expect(v('ledger_mm_poller_last_success_timestamp_seconds', { poller: 'balances' })).toBe(0);
    expect(v('ledger_mm_rate_limit_tokens')).toBe(3);
    expect(v('ledger_mm_rate_limit_headroom_ratio')).toBe(0.75);
  });

  it('keeps an emptied slot at 0, and drops the series that no longer apply', async () => {
    let current = view();
    registerStateCollector(t.metrics, () => current);
    await t.scrape();
    current = view({
      pairs: [pairView({ quotes: [quote('BUY', 0, '99.9')], reference: null, riskState: null })],
    });
    const f = await t.scrape();
    const live = samplesOf(f, 'ledger_mm_live_quotes').map((s) => [s.labels.side, s.labels.level, s.value]);
    expect(live).toEqual([
      ['buy', '0', 1],
      ['buy', '1', 0],
      ['sell', '0', 0],
    ]);
    expect(samplesOf(f, 'ledger_mm_quoted_best_ask_price')).toEqual([]);
    expect(samplesOf(f, 'ledger_mm_quoted_spread_bps')).toEqual([]);
    expect(samplesOf(f, 'ledger_mm_reference_price')).toEqual([]);
    expect(samplesOf(f, 'ledger_mm_quote_reference_age_seconds')).toHaveLength(1);
    expect(samplesOf(f, 'ledger_mm_risk_state')).toEqual([]);
    expect(samplesOf(f, 'ledger_mm_two_sided')[0]?.value).toBe(0);
  });

  it('adds the time since the last refresh to two-sided seconds while the pair was two-sided', async () => {
    let now = T0;
    let twoSided = true;
    const c = registerStateCollector(t.metrics, () => view({ now, pairs: [pairView({ twoSided })] }));
    const seconds = () => t.value('ledger_mm_two_sided_seconds_total', { pair: 'BTC/USDC' });
    expect(await seconds()).toBe(0);
    now += 15_000;
    expect(await seconds()).toBe(15);
    twoSided = false;
    now += 15_000;
    expect(await seconds()).toBe(30); // two-sided over the interval: counted
    now += 15_000;
    expect(await seconds()).toBe(30); // one-sided over the interval: not counted
    twoSided = true;
    now += 5_000;
    c.refresh(); // the daemon may refresh between scrapes for finer accounting
    now += 5_000;
    expect(await seconds()).toBe(35);
    now -= 60_000; // a clock step back adds nothing
    expect(await seconds()).toBe(35);
  });

  it('sets the account status one-hot: the last read, or unknown before it or for a status not in the contract', async () => {
    let account: DaemonStateView['account'] = null;
    registerStateCollector(t.metrics, () => view({ account }));
    const statuses = async (): Promise<[string | undefined, number][]> =>
      samplesOf(await t.scrape(), 'ledger_mm_account_status').map((s) => [s.labels.status, s.value]);
    const oneHot = (on: string): [string, number][] =>
      ['ACTIVE', 'SUSPENDED', 'DISABLED', 'unknown'].map((s) => [s, s === on ? 1 : 0]);
    expect(await statuses()).toEqual(oneHot('unknown'));
    account = { status: 'ACTIVE', authFailing: false };
    expect(await statuses()).toEqual(oneHot('ACTIVE'));
    // A refused key leaves the last read standing (readiness reports the key).
    account = { status: 'ACTIVE', authFailing: true };
    expect(await statuses()).toEqual(oneHot('ACTIVE'));
    account = { status: 'SUSPENDED', authFailing: false };
    expect(await statuses()).toEqual(oneHot('SUSPENDED'));
    account = { status: 'DISABLED', authFailing: false };
    expect(await statuses()).toEqual(oneHot('DISABLED'));
    account = { status: 'PENDING_REVIEW', authFailing: false };
    expect(await statuses()).toEqual(oneHot('unknown'));
    expect(await t.value('ledger_mm_metrics_label_overflow_total')).toBe(0);
  });

  it('reads the view once per scrape', async () => {
    let calls = 0;
    registerStateCollector(t.metrics, () => {
      calls += 1;
      return view();
    });
    await t.metrics.scrape();
    expect(calls).toBe(1);
    await t.metrics.scrape();
    expect(calls).toBe(2);
  });

  it('keeps the previous values and counts the error when the view throws', async () => {
    let fail = false;
    const c = registerStateCollector(t.metrics, () => {
      if (fail) throw new Error('daemon not ready');
      return view();
    });
    expect(await t.value('ledger_mm_inventory_base', { pair: 'BTC/USDC' })).toBe(-0.1);
    fail = true;
    const f = await t.scrape();
    const v = (name: string) => samplesOf(f, name)[0]?.value;
    expect(v('ledger_mm_inventory_base')).toBe(-0.1);
    expect(v('ledger_mm_metrics_collect_errors_total')).toBe(1);
    expect(c.refresh()).toBe(false);
    c.unregister();
    expect(await t.value('ledger_mm_metrics_collect_errors_total')).toBe(2); // the direct refresh only
  });

  it('takes queue figures from the view when it has them', async () => {
    registerStateCollector(t.metrics, () =>
      view({ queues: { placement: { depth: 2, inFlight: 1, oldestWaitMs: 4_000 } } }),
    );
    expect(await t.value('ledger_mm_placement_queue_depth')).toBe(2);
    expect(await t.value('ledger_mm_placement_queue_oldest_age_seconds')).toBe(4);
  });

  it('never lets an unconfigured pair or a malformed token become a series; snake-cases pollers', async () => {
    registerStateCollector(t.metrics, () =>
      view({
        pairs: [pairView({ pair: 'XRP/USDC' })],
        balances: { 'bad token!': { available: dec('1'), locked: dec('0') } },
        pollers: [{ poller: 'account-recheck', pair: null, lastSuccessAt: T0 }],
      }),
    );
    const f = await t.scrape();
    expect(samplesOf(f, 'ledger_mm_poller_last_success_timestamp_seconds')[0]?.labels.poller).toBe(
      'account_recheck',
    );
    expect(samplesOf(f, 'ledger_mm_reference_price').map((s) => s.labels.pair)).toEqual(['other']);
    expect(samplesOf(f, 'ledger_mm_balance_available').map((s) => s.labels.token)).toEqual(['other']);
  });
});

describe('pollerViewsFromSources', () => {
  it('splits per-pair source names', () => {
    expect(pollerViewsFromSources({ pairs: 5, 'trades:ETH/USDC': null })).toEqual([
      { poller: 'pairs', pair: null, lastSuccessAt: 5 },
      { poller: 'trades', pair: 'ETH/USDC', lastSuccessAt: null },
    ]);
  });
});

/**
 * The metrics cost benchmark: a fully populated registry (2 pairs × 2 sides × 3 levels, every
 * order state, every stage observed, every endpoint with several statuses and codes, default
 * process metrics on) scraped `n` times. Prints figures; it is not a test. Run it with
 * `npm run bench:metrics` (build, then `scripts/bench-metrics.cjs`).
 */
import { sideLabel } from '../../observability/metrics/labels.js';
import { LIVE_MARKOUT_HORIZONS_S } from '../../observability/markout-tracker.js';
import { performance } from 'node:perf_hooks';

import { Dec, dec } from '../../core/decimal.js';
import { ExecutionEventHub, type Stage } from '../../execution/execution-events.js';
import { ORDER_STATES, type OrderState } from '../../orders/fsm/index.js';
import { ENDPOINTS } from '../../venue/endpoints.js';
import { VenueError } from '../../venue/errors.js';
import { bindExecutionEvents } from '../../observability/bind-events.js';
import { observeOrderObservation } from '../../observability/bind-registry.js';
import { observeConfigReload, observeRiskDenials } from '../../observability/control-events.js';
import { createMetrics, type Metrics } from '../../observability/metrics/create-metrics.js';
import { registerStateCollector } from '../../observability/state-collector.js';
import type { DaemonStateView, LiveQuoteView, PairStateView } from '../../observability/http/state-view.js';
import { bindVenueClientHooks } from '../../observability/venue-hooks.js';

import { ReferenceMetricsWriter } from '../../observability/reference-metrics.js';
import { PartyMetricsWriter, type PartyView } from '../../observability/party-metrics.js';
import { HedgeMetricsWriter } from '../../observability/hedge-metrics.js';
/** Figures of one run, ms per scrape. */
export interface MetricsBenchResult {
  readonly scrapes: number;
  readonly meanMs: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  /** Size of one exposition. */
  readonly bytes: number;
  /** Sample lines in one exposition. */
  readonly samples: number;
}

const PAIRS = ['BTC/USDC', 'ETH/USDC'] as const;
const STAGES: readonly Stage[] = [
  'prepare',
  'sign',
  'submit',
  'confirm',
  'cancel-prepare',
  'cancel-sign',
  'cancel-submit',
  'cancel-confirm',
];

/** A view of 2 pairs × 2 sides × 3 levels with everything set. */
export function benchView(now: number): DaemonStateView {
  const pairs: PairStateView[] = PAIRS.map((pair, i) => {
    const mid = new Dec(i === 0 ? '65000' : '3200');
    const quotes: LiveQuoteView[] = [];
    for (const side of ['BUY', 'SELL'] as const) {
      for (let level = 0; level < 3; level++) {
        const off = mid.times((level + 1) * 0.001);
        quotes.push({
          side,
          level,
          price: side === 'BUY' ? mid.minus(off) : mid.plus(off),
          remaining: new Dec('0.5'),
          referenceAt: now - 1_500,
          key: `${pair}:${side}:${level}`,
        });
      }
    }
    return {
      pair,
      quotes,
      reference: { price: mid, at: now - 1_000 },
      inventory: { base: new Dec('0.25'), quote: new Dec('-16000.5') },
      pnl: { realised: new Dec('12.5'), marked: new Dec('-3.25') },
      cost: { averagePrice: mid.minus(40), realised: new Dec('11.75'), unrealised: new Dec('10') },
      riskState: 'active',
      foreignOrders: 0,
      // Every family gets a series, this one included (a real view has it only for an empty side).
      sideMissing: [{ side: 'BUY', since: now - 95_000, reason: 'unknown-order', detail: 'bench' }],
    };
  });
  const orderCounts = Object.fromEntries(ORDER_STATES.map((s, i) => [s, i])) as Record<OrderState, number>;
  return {
    now,
    pairs,
    balances: {
      BTC: { available: new Dec('1.5'), locked: new Dec('1.5') },
      ETH: { available: new Dec('20'), locked: new Dec('3') },
      USDC: { available: new Dec('100000'), locked: new Dec('25000') },
    },
    pollers: [
      ...PAIRS.flatMap((pair) => [
        { poller: 'book', pair, lastSuccessAt: now - 1_000, consecutiveFailures: 0 },
        { poller: 'trades', pair, lastSuccessAt: now - 2_000, consecutiveFailures: 0 },
      ]),
      ...['orders', 'balances', 'account', 'pairs'].map((poller) => ({
        poller,
        pair: null,
        lastSuccessAt: now - 5_000,
        consecutiveFailures: 1,
      })),
    ],
    orderCounts,
    rateBudget: { tokens: 7, capacity: 10 },
    preflightPassed: true,
    account: { status: 'ACTIVE', authFailing: false },
    queues: {
      placement: { depth: 2, inFlight: 1, oldestWaitMs: 800 },
      cancel: { depth: 1, inFlight: 4, oldestWaitMs: 200 },
    },
    // Every family gets a series: one side paused by an operator.
    controls: {
      pauses: [
        {
          scope: 'ETH/USDC SELL',
          pair: 'ETH/USDC',
          side: 'SELL',
          reason: 'operator',
          by: 'bench',
          since: now,
          detail: '',
        },
      ],
      held: [
        {
          pair: 'ETH/USDC',
          side: 'SELL',
          reason: 'operator',
          by: 'bench',
          since: now,
          until: null,
          detail: '',
        },
      ],
      killSwitch: { enabled: false, scope: 'daemon', drawdown: null, profitLock: null, watches: [] },
    },
  };
}

/** Two parties of a firm, one of them out and short of quote. */
function benchParties(): PartyView[] {
  return ['a', 'b'].map((name, i) => ({
    name,
    active: i === 0,
    reason: i === 0 ? null : 'out of funds',
    queued: 1,
    busyMs: 60_000,
    openOrders: 4,
    placed: 20,
    refused: i,
    balances: { USDC: '50000', BTC: '1' },
    funds: { USDC: i === 0 ? '40000' : '0', BTC: '0.5' },
    canFund: PAIRS.flatMap((pair) =>
      (['BUY', 'SELL'] as const).map((side) => ({ pair, side, ok: i === 0 || side === 'SELL' })),
    ),
  }));
}

/** Feeds every event source so each metric has series. */
export function populate(metrics: Metrics, now: number): void {
  const hub = new ExecutionEventHub();
  bindExecutionEvents(metrics, hub);
  for (const stage of STAGES) {
    for (let i = 0; i < 50; i++) {
      const ms = stage.includes('sign') ? 0.2 + i * 0.01 : 500 + i * 600;
      hub.emit({ type: 'stage', stage, key: `k${i}`, ms, ok: i % 10 !== 0, at: now });
    }
  }
  for (const pair of PAIRS) {
    for (const side of ['BUY', 'SELL'] as const) {
      for (const kind of ['placed', 'ended', 'never-committed', 'unresolved'] as const) {
        const slot = `${pair}:${side}:0`;
        const ref = { intentId: 'i', slot, key: 'k', clientOrderId: 'c', orderId: 'o' };
        const outcome =
          kind === 'placed'
            ? { ...ref, kind, state: 'OPEN' as const, alreadyLive: false }
            : kind === 'unresolved'
              ? { ...ref, kind, state: 'UNKNOWN' as const }
              : { ...ref, kind, state: 'FILLED' as const };
        hub.emit({ type: 'placement', outcome, ms: 30_000, at: now });
      }
    }
  }
  for (const kind of ['cancelled', 'filled'] as const) {
    hub.emit({
      type: 'cancel',
      outcome: { key: 'k', orderId: 'o', filled: null, kind },
      ms: 20_000,
      at: now,
    });
  }
  hub.emit({ type: 'prepare-abandoned', key: 'k', reason: 'not-wanted', at: now });
  hub.emit({
    type: 'retry',
    operation: 'prepare',
    key: 'k',
    code: 'LEDGER_COMMAND_REJECTED',
    attempt: 1,
    at: now,
  });
  hub.emit({ type: 'unknown', key: 'k', code: 'CLIENT_TIMEOUT', at: now });
  hub.emit({ type: 'unknown-resolved', key: 'k', resolution: 'resting', state: 'OPEN', at: now });
  hub.emit({ type: 'echo-refused', operation: 'place', key: 'k', detail: 'price differs', at: now });
  hub.emit({ type: 'alarm', reason: 'stranded', key: 'k', detail: 'funds gone', at: now });
  observeConfigReload(metrics, { ok: true });
  new PartyMetricsWriter(metrics.parties).refresh(benchParties());
  const hooks = bindVenueClientHooks(metrics);
  for (const ep of Object.values(ENDPOINTS)) {
    for (const status of [200, 429, 502, undefined]) {
      for (let i = 0; i < 20; i++) {
        hooks.onResponse({
          endpoint: ep.label,
          method: ep.method,
          status,
          ...(status === 200 ? {} : { code: status === undefined ? 'CLIENT_TIMEOUT' : 'INTERNAL_ERROR' }),
          durationMs: 100 + i * 700,
        });
      }
    }
    const error = new VenueError({ code: 'RATE_LIMITED', message: 'slow down', status: 429, limit: 60 });
    hooks.onRateLimited({ endpoint: ep.label, limit: 60, error });
    hooks.onRetry({ endpoint: ep.label, attempt: 1, delayMs: 500, error });
  }
  for (const pair of PAIRS) {
    const order = { pair };
    for (const side of ['BUY', 'SELL'] as const) {
      const fill = {
        type: 'fill',
        key: 'k',
        orderId: 'o',
        clientOrderId: 'c',
        pair,
        side,
        price: new Dec('100'),
        quantity: new Dec('0.1'),
        filled: new Dec('0.1'),
        seq: 1,
        contractId: 'c1',
        at: now,
      } as const;
      observeOrderObservation(metrics, { type: 'fill', fill });
      for (const horizonS of LIVE_MARKOUT_HORIZONS_S) {
        metrics.markouts.markout.observe({ pair, side: sideLabel(side), horizon: String(horizonS) }, -1.5);
      }
    }
    observeOrderObservation(metrics, {
      type: 'order-rotated',
      rotated: { type: 'rotated', key: 'k', from: 'c1', to: 'c2', at: now },
      order,
    });
    observeOrderObservation(metrics, {
      type: 'order-alarm',
      alarm: { type: 'alarm', key: 'k', reason: 'cancelled-by-venue', detail: 'operator', at: now },
      order,
    });
    observeOrderObservation(metrics, { type: 'order-transition', cause: 'adopted' });
    const one = new Dec('1');
    const quote = { slot: `${pair}:BUY:0`, pair, side: 'BUY' as const, level: 0, price: one, quantity: one };
    const action = {
      type: 'place' as const,
      quote: { ...quote, reference: one, referenceAt: now },
      priority: 0,
    };
    observeRiskDenials(metrics, {
      denied: [{ action: { ...action, replaces: null }, reason: 'rate-limit', detail: 'budget spent' }],
    });
    observeOrderObservation(metrics, {
      type: 'order-terminal',
      terminal: { type: 'terminal', key: 'k', state: 'EXPIRED', at: now },
      order,
    });
  }
  new ReferenceMetricsWriter(metrics.reference).refresh(
    PAIRS.map((pair) => ({
      pair,
      minSources: 2,
      usable: 1,
      combination: { ok: false, reason: '1 of 2 reference sources usable, need 2', verdicts: [] },
      venueMidDeviationBps: 3.5,
      sources: [
        {
          id: 'binance:BTC/USDT',
          state: 'used',
          ageMs: 800,
          deviationBps: 1.2,
          errors: 2,
          outliers: 1,
          mode: 'websocket',
        },
        {
          id: 'kraken:BTC/USD',
          state: 'stale',
          ageMs: 12_000,
          deviationBps: -4,
          errors: 9,
          outliers: 0,
          mode: 'rest',
        },
      ],
    })),
  );
  new HedgeMetricsWriter(metrics.hedge).refresh(
    PAIRS.map((pair, i) => ({
      pair,
      exchange: 'binance',
      symbol: pair.replace('/USDC', '/USDT'),
      dryRun: false,
      state: {
        positionBase: dec('-0.4'),
        failing: i === 1,
        failingSince: i === 1 ? now - 90_000 : null,
        lastError: null,
        ordersSent: 12,
        filledBase: dec('3.1'),
        feesQuote: dec('77.5'),
        slippageQuote: dec('15.2'),
        cashQuote: dec('-1000'),
      },
      venueBase: dec('0.45'),
      unhedgedBase: dec('0.05'),
      lastHold: i === 0 ? 'at-cap' : 'venue-failing',
      atCap: i === 0,
      costQuote: dec('92.7'),
      fills: 11,
    })),
  );
}

/** Scrapes a fully populated registry `n` times; returns ms per scrape. */
export async function runMetricsBench(n = 200): Promise<MetricsBenchResult> {
  const now = Date.now();
  const metrics = createMetrics({ pairs: [...PAIRS], now: () => now });
  try {
    populate(metrics, now);
    registerStateCollector(metrics, () => benchView(now));
    const first = await metrics.scrape(); // warm-up, and the size figures
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await metrics.scrape();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const pct = (p: number): number =>
      times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0;
    return {
      scrapes: n,
      meanMs: times.reduce((a, b) => a + b, 0) / Math.max(1, n),
      p50Ms: pct(50),
      p95Ms: pct(95),
      maxMs: times.at(-1) ?? 0,
      bytes: Buffer.byteLength(first),
      samples: first.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length,
    };
  } finally {
    metrics.close();
  }
}

/** One line per figure, for the script. */
export function formatBench(r: MetricsBenchResult): string {
  const f = (x: number): string => x.toFixed(3);
  return [
    `scrapes: ${r.scrapes}`,
    `exposition: ${r.samples} samples, ${(r.bytes / 1024).toFixed(1)} KiB`,
    `ms per scrape: mean ${f(r.meanMs)}  p50 ${f(r.p50Ms)}  p95 ${f(r.p95Ms)}  max ${f(r.maxMs)}`,
  ].join('\n');
}

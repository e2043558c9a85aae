/**
 * The state-derived series, set on scrape from a {@link DaemonStateView}: quotes, reference,
 * two-sided time, balances, inventory, PnL, risk states, the account status, orders by state,
 * foreign orders, pollers, the rate budget and (when the view has them) the queues.
 *
 * Each refresh reads the view once, computes every value first, and only then replaces the
 * series, so a view that throws leaves the previous values in place (and is counted in
 * `ledger_mm_metrics_collect_errors_total`). Series of things that disappeared (a quote
 * cancelled, a token emptied from the wallet) disappear too, except the per-slot
 * `ledger_mm_live_quotes`, which stays at 0 for every slot ever seen, so "the slot is empty" is
 * a value and not a missing series.
 *
 * Two-sided time: at each refresh, the time since the previous refresh is added to
 * `ledger_mm_two_sided_seconds_total` when the pair was two-sided at the previous refresh (the
 * state known over that interval). Scrapes alone give scrape-interval resolution; the daemon may
 * call {@link StateCollector.refresh} every cycle for finer accounting.
 */
import { ORDER_STATES } from '../orders/fsm/index.js';
import type { Metrics } from './metrics/create-metrics.js';
import { ACCOUNT_STATUSES, RISK_STATES, accountStatusLabel } from './metrics/control-metrics.js';
import { sideLabel, snake } from './metrics/labels.js';
import { msToSeconds, toMetricNumber } from './metrics/metric-number.js';
import { summarizeQuotes } from './quote-summary.js';
import type { DaemonStateView } from './http/state-view.js';

/** See the module doc. */
export interface StateCollector {
  /** Reads the view and sets every derived series now. Returns false when the view threw. */
  refresh(): boolean;
  /** Stops refreshing on scrape (the series keep their last values). */
  unregister(): void;
}

type Labels = Record<string, string>;
interface Sample {
  readonly labels: Labels;
  readonly value: number;
}
type Plan = ReturnType<typeof plan>;

/** Registers `view` as the source of the state-derived series. */
export function registerStateCollector(metrics: Metrics, view: () => DaemonStateView): StateCollector {
  const twoSidedSince = new Map<string, { twoSided: boolean; at: number }>();
  const knownSlots = new Map<string, Labels>();

  const refresh = (): boolean => {
    let p: Plan;
    try {
      const v = view();
      p = plan(metrics, v);
      recordQueues(metrics, v);
    } catch {
      metrics.control.collectErrors.inc();
      return false;
    }
    apply(metrics, p, knownSlots, twoSidedSince);
    return true;
  };
  const remove = metrics.hooks.add(() => {
    refresh();
  });
  return { refresh, unregister: remove };
}

/** Every value of one refresh, as label sets and numbers. */
function plan(metrics: Metrics, v: DaemonStateView) {
  const L = metrics.labels;
  const sec = (at: number): number => msToSeconds(Math.max(0, v.now - at));
  const out = {
    now: v.now,
    live: [] as Sample[],
    quoteAge: [] as Sample[],
    bestBid: [] as Sample[],
    bestAsk: [] as Sample[],
    spread: [] as Sample[],
    reference: [] as Sample[],
    referenceAge: [] as Sample[],
    twoSided: [] as { pair: string; twoSided: boolean }[],
    sideMissing: [] as Sample[],
    inventoryBase: [] as Sample[],
    inventoryQuote: [] as Sample[],
    pnlRealised: [] as Sample[],
    pnlMarked: [] as Sample[],
    costBasis: [] as Sample[],
    costRealised: [] as Sample[],
    unrealised: [] as Sample[],
    risk: [] as Sample[],
    paused: (v.controls?.held ?? []).map((h) => ({
      labels: {
        pair: L.pair.value(h.pair),
        side: sideLabel(h.side),
        reason: L.reason.value(snake(h.reason)),
      },
      value: 1,
    })),
    account: ACCOUNT_STATUSES.map((status) => ({
      labels: { status },
      value: accountStatusLabel(v.account?.status ?? null) === status ? 1 : 0,
    })),
    foreign: [] as Sample[],
    available: [] as Sample[],
    locked: [] as Sample[],
    orders: ORDER_STATES.map((state) => ({ labels: { state }, value: v.orderCounts[state] ?? 0 })),
    pollerAt: [] as Sample[],
    pollerFailures: [] as Sample[],
    rate: null as { tokens: number; ratio: number } | null,
  };
  for (const p of v.pairs) {
    const pair = L.pair.value(p.pair);
    const slots = new Map<string, Sample>();
    for (const q of p.quotes) {
      const labels = { pair, side: sideLabel(q.side), level: L.level.value(String(q.level)) };
      const k = `${labels.side}|${labels.level}`;
      slots.set(k, { labels, value: (slots.get(k)?.value ?? 0) + 1 });
      putKnown(out.quoteAge, labels, q.referenceAt, sec);
    }
    out.live.push(...slots.values());
    const s = summarizeQuotes(p);
    const byPair = { pair };
    putKnown(out.bestBid, byPair, s.bestBid, toMetricNumber);
    putKnown(out.bestAsk, byPair, s.bestAsk, toMetricNumber);
    putKnown(out.spread, byPair, s.spreadBps, toMetricNumber);
    out.twoSided.push({ pair, twoSided: s.twoSided });
    for (const m of p.sideMissing ?? []) {
      const labels = { pair, side: sideLabel(m.side), reason: L.reason.value(snake(m.reason)) };
      out.sideMissing.push({ labels, value: sec(m.since) });
    }
    putKnown(out.reference, byPair, p.reference?.price, toMetricNumber);
    putKnown(out.referenceAge, byPair, p.reference?.at, sec);
    putKnown(out.inventoryBase, byPair, p.inventory?.base, toMetricNumber);
    putKnown(out.inventoryQuote, byPair, p.inventory?.quote, toMetricNumber);
    putKnown(out.pnlRealised, byPair, p.pnl?.realised, toMetricNumber);
    putKnown(out.pnlMarked, byPair, p.pnl?.marked, toMetricNumber);
    putKnown(out.costBasis, byPair, p.cost?.averagePrice, toMetricNumber);
    putKnown(out.costRealised, byPair, p.cost?.realised, toMetricNumber);
    putKnown(out.unrealised, byPair, p.cost?.unrealised, toMetricNumber);
    if (p.riskState !== null) {
      for (const state of RISK_STATES) {
        out.risk.push({ labels: { pair, state }, value: p.riskState === state ? 1 : 0 });
      }
    }
    putKnown(out.foreign, byPair, p.foreignOrders, count);
  }
  for (const [token, b] of Object.entries(v.balances ?? {})) {
    const labels = { token: L.token.value(token) };
    out.available.push({ labels, value: toMetricNumber(b.available) });
    out.locked.push({ labels, value: toMetricNumber(b.locked) });
  }
  for (const pv of v.pollers) {
    const labels = {
      poller: L.poller.value(snake(pv.poller)),
      pair: pv.pair === null ? '' : L.pair.value(pv.pair),
    };
    out.pollerAt.push({ labels, value: pv.lastSuccessAt === null ? 0 : msToSeconds(pv.lastSuccessAt) });
    putKnown(out.pollerFailures, labels, pv.consecutiveFailures, count);
  }
  const rb = v.rateBudget;
  if (rb !== undefined && rb !== null) {
    out.rate = {
      tokens: rb.tokens,
      ratio: rb.capacity > 0 ? Math.min(1, Math.max(0, rb.tokens / rb.capacity)) : 0,
    };
  }
  return out;
}

/**
 * Adds the sample of `labels` when `value` is known. An unknown value adds none, so the series
 * disappears at {@link replace} rather than keeping a stale value.
 */
function putKnown<T>(
  samples: Sample[],
  labels: Labels,
  value: T | null | undefined,
  toNumber: (value: T) => number,
): void {
  if (value !== null && value !== undefined) samples.push({ labels, value: toNumber(value) });
}

/** A count is a sample value as it is. */
function count(n: number): number {
  return n;
}

function recordQueues(metrics: Metrics, v: DaemonStateView): void {
  for (const name of ['placement', 'cancel'] as const) {
    const q = v.queues?.[name];
    if (q !== undefined) metrics.queues.record(name, { ...q, at: v.now });
  }
  metrics.queues.refresh();
}

interface SettableGauge {
  reset(): void;
  set(labels: Labels, value: number): void;
}

/** Replaces a gauge's series with `samples`. */
function replace(g: SettableGauge, samples: readonly Sample[]): void {
  g.reset();
  for (const s of samples) g.set(s.labels, s.value);
}

function apply(
  metrics: Metrics,
  p: Plan,
  knownSlots: Map<string, Labels>,
  twoSidedSince: Map<string, { twoSided: boolean; at: number }>,
): void {
  const { quoting: q, money: m, control: c, orders: o, venue: vm } = metrics;
  for (const s of p.live) knownSlots.set(`${s.labels.pair}|${s.labels.side}|${s.labels.level}`, s.labels);
  const live = new Map(p.live.map((s) => [`${s.labels.pair}|${s.labels.side}|${s.labels.level}`, s.value]));
  const liveQuotes = [...knownSlots].map(([k, labels]) => ({ labels, value: live.get(k) ?? 0 }));
  const series: readonly (readonly [SettableGauge, readonly Sample[]])[] = [
    [q.liveQuotes, liveQuotes],
    [q.quoteReferenceAge, p.quoteAge],
    [q.bestBid, p.bestBid],
    [q.bestAsk, p.bestAsk],
    [q.spreadBps, p.spread],
    [q.referencePrice, p.reference],
    [q.referenceAge, p.referenceAge],
    [q.sideMissingSeconds, p.sideMissing],
    [m.inventoryBase, p.inventoryBase],
    [m.inventoryQuote, p.inventoryQuote],
    [m.pnlRealised, p.pnlRealised],
    [m.pnlMarked, p.pnlMarked],
    [m.positionCostBasis, p.costBasis],
    [m.pnlCostRealised, p.costRealised],
    [m.pnlUnrealised, p.unrealised],
    [m.balanceAvailable, p.available],
    [m.balanceLocked, p.locked],
    [c.riskState, p.risk],
    [c.paused, p.paused],
    [c.accountStatus, p.account],
    [o.ordersByState, p.orders],
    [o.foreignOrders, p.foreign],
    [vm.pollerLastSuccess, p.pollerAt],
    [vm.pollerFailures, p.pollerFailures],
  ];
  for (const [gauge, samples] of series) replace(gauge, samples);
  q.twoSided.reset();
  for (const { pair, twoSided } of p.twoSided) {
    q.twoSided.set({ pair }, twoSided ? 1 : 0);
    const prev = twoSidedSince.get(pair);
    if (prev?.twoSided === true && p.now > prev.at)
      q.twoSidedSeconds.inc({ pair }, msToSeconds(p.now - prev.at));
    else q.twoSidedSeconds.inc({ pair }, 0);
    if (prev === undefined || p.now >= prev.at) twoSidedSince.set(pair, { twoSided, at: p.now });
  }
  if (p.rate !== null) {
    vm.rateTokens.set(p.rate.tokens);
    vm.rateHeadroom.set(p.rate.ratio);
  }
}

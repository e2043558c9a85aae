/**
 * The `/status` document: a JSON summary a person can read. Money is rendered as decimal strings
 * (never numbers: this is not the metrics boundary), times as ISO 8601, ages in seconds.
 */
import type { Dec } from '../../core/decimal.js';
import { toWire } from '../../core/decimal.js';
import { ORDER_STATES, type OrderState } from '../../orders/fsm/index.js';
import { summarizeQuotes } from '../quote-summary.js';
import type { Readiness } from './readiness.js';
import type { ControlsView, DaemonStateView, LiveQuoteView } from './state-view.js';

/** See the module doc. */
export interface StatusReport {
  readonly at: string;
  readonly ready?: Readiness;
  readonly pairs: readonly PairStatus[];
  readonly balances: Readonly<Record<string, { available: string; locked: string }>> | null;
  readonly orders: Readonly<Partial<Record<OrderState, number>>>;
  readonly pipeline: { step: string; key: string | null; since: string | null } | null;
  readonly queues: DaemonStateView['queues'] | null;
  readonly rateBudget: DaemonStateView['rateBudget'] | null;
  readonly lastFills: readonly {
    pair: string;
    side: string;
    price: string | null;
    quantity: string;
    at: string;
    orderId: string | null;
  }[];
  readonly pollers: readonly {
    poller: string;
    pair: string | null;
    lastSuccessAt: string | null;
    ageSeconds: number | null;
  }[];
  /** Quoting held on purpose: pauses (operator, kill switch), daily loss halts, the kill switch. */
  readonly controls?: ControlsStatus;
}

/** The controls in the status. */
export interface ControlsStatus {
  readonly pauses: readonly { scope: string; reason: string; by: string; since: string; detail: string }[];
  readonly held: readonly {
    pair: string;
    side: string;
    reason: string;
    by: string;
    since: string | null;
    until: string | null;
    detail: string;
  }[];
  readonly killSwitch: {
    enabled: boolean;
    scope: string;
    drawdown: string | null;
    profitLock: string | null;
    watches: readonly { key: string; pnl: string; peak: string; armedAt: string; tripped: boolean }[];
  };
}

/** One pair in the status. */
export interface PairStatus {
  readonly pair: string;
  readonly riskState: string | null;
  readonly twoSided: boolean;
  readonly reference: { price: string; ageSeconds: number } | null;
  readonly bestBid: string | null;
  readonly bestAsk: string | null;
  readonly spreadBps: string | null;
  readonly quotes: readonly {
    side: string;
    level: number;
    price: string;
    remaining: string;
    referenceAgeSeconds: number | null;
    key: string | null;
  }[];
  readonly inventory: { base: string; quote: string | null } | null;
  readonly pnl: { realised: string | null; marked: string } | null;
  /** Average-cost basis: average entry price (null when flat), realised and unrealised PnL. */
  readonly cost: { averageEntryPrice: string | null; realised: string; unrealised: string | null } | null;
  /** Sides without a resting quote: why, and for how long. */
  readonly sideMissing: readonly { side: string; reason: string; detail: string; seconds: number }[];
}

/** Options of {@link buildStatusReport}. */
export interface StatusReportOptions {
  /** Included as `ready` when given. */
  readonly readiness?: Readiness;
  /** Most fills listed. Default 20. */
  readonly maxFills?: number;
  /** The execution queues as their events last reported them, when the view has none. */
  readonly queues?: DaemonStateView['queues'];
}

/** Builds the status document from the daemon's state. */
export function buildStatusReport(view: DaemonStateView, opts: StatusReportOptions = {}): StatusReport {
  const age = (at: number): number => Math.max(0, Math.round(view.now - at)) / 1000;
  const iso = (at: number): string => new Date(at).toISOString();
  const orders: Partial<Record<OrderState, number>> = {};
  for (const s of ORDER_STATES) {
    const n = view.orderCounts[s] ?? 0;
    if (n > 0) orders[s] = n;
  }
  return {
    at: iso(view.now),
    ...(opts.readiness === undefined ? {} : { ready: opts.readiness }),
    pairs: view.pairs.map((p) => {
      const s = summarizeQuotes(p);
      return {
        pair: p.pair,
        riskState: p.riskState,
        twoSided: s.twoSided,
        reference:
          p.reference === null ? null : { price: str(p.reference.price), ageSeconds: age(p.reference.at) },
        bestBid: opt(s.bestBid),
        bestAsk: opt(s.bestAsk),
        spreadBps: s.spreadBps === null ? null : s.spreadBps.toFixed(2),
        quotes: [...p.quotes].sort(byQuote).map((q) => ({
          side: q.side,
          level: q.level,
          price: str(q.price),
          remaining: str(q.remaining),
          referenceAgeSeconds: q.referenceAt === null ? null : age(q.referenceAt),
          key: q.key ?? null,
        })),
        inventory:
          p.inventory === null
            ? null
            : { base: str(p.inventory.base), quote: opt(p.inventory.quote ?? null) },
        pnl: p.pnl === null ? null : { realised: opt(p.pnl.realised ?? null), marked: str(p.pnl.marked) },
        cost:
          p.cost == null
            ? null
            : {
                averageEntryPrice: opt(p.cost.averagePrice?.toDecimalPlaces(8) ?? null),
                realised: str(p.cost.realised.toDecimalPlaces(8)),
                unrealised: opt(p.cost.unrealised?.toDecimalPlaces(8) ?? null),
              },
        sideMissing: (p.sideMissing ?? []).map((m) => ({
          side: m.side,
          reason: m.reason,
          detail: m.detail,
          seconds: age(m.since),
        })),
      };
    }),
    balances:
      view.balances === null
        ? null
        : Object.fromEntries(
            Object.entries(view.balances).map(([t, b]) => [
              t,
              { available: str(b.available), locked: str(b.locked) },
            ]),
          ),
    orders,
    pipeline:
      view.pipeline === undefined || view.pipeline === null
        ? null
        : {
            step: view.pipeline.step,
            key: view.pipeline.key ?? null,
            since:
              view.pipeline.since === undefined || view.pipeline.since === null
                ? null
                : iso(view.pipeline.since),
          },
    queues: view.queues ?? opts.queues ?? null,
    rateBudget: view.rateBudget ?? null,
    lastFills: (view.lastFills ?? []).slice(0, opts.maxFills ?? 20).map((f) => ({
      pair: f.pair,
      side: f.side,
      price: opt(f.price),
      quantity: str(f.quantity),
      at: iso(f.at),
      orderId: f.orderId ?? null,
    })),
    pollers: view.pollers.map((p) => ({
      poller: p.poller,
      pair: p.pair,
      lastSuccessAt: p.lastSuccessAt === null ? null : iso(p.lastSuccessAt),
      ageSeconds: p.lastSuccessAt === null ? null : age(p.lastSuccessAt),
    })),
    ...(view.controls === undefined ? {} : { controls: controlsStatus(view.controls, iso) }),
  };
}

function controlsStatus(c: ControlsView, iso: (at: number) => string): ControlsStatus {
  const k = c.killSwitch;
  return {
    pauses: c.pauses.map((p) => ({
      scope: p.scope,
      reason: p.reason,
      by: p.by,
      since: iso(p.since),
      detail: p.detail,
    })),
    held: c.held.map((h) => ({
      pair: h.pair,
      side: h.side,
      reason: h.reason,
      by: h.by,
      since: h.since === null ? null : iso(h.since),
      until: h.until === null ? null : iso(h.until),
      detail: h.detail,
    })),
    killSwitch: {
      enabled: k.enabled,
      scope: k.scope,
      drawdown: opt(k.drawdown),
      profitLock: opt(k.profitLock),
      watches: k.watches.map((w) => ({
        key: w.key,
        pnl: str(w.pnl),
        peak: str(w.peak),
        armedAt: str(w.armedAt),
        tripped: w.tripped,
      })),
    },
  };
}

function str(d: Dec): string {
  return toWire(d);
}

function opt(d: Dec | null): string | null {
  return d === null ? null : toWire(d);
}

function byQuote(a: LiveQuoteView, b: LiveQuoteView): number {
  return a.side === b.side ? a.level - b.level : a.side === 'BUY' ? -1 : 1;
}

/**
 * The figures the tables print, in order, each with its label, how it is rendered and how it
 * compares. The summary, the compare table and the HTML report all read this list.
 */
import { Dec } from '../../../core/decimal.js';
import type { RunFigures } from './figures.js';

/** Which way is better, for reading a ratio. */
export type Better = 'higher' | 'lower' | 'zero' | 'none';

/** How a figure's value reads: a share, a duration, money, a count, bps, or a plain number. */
export type FigureFormat = 'pct' | 'ms' | 'money' | 'count' | 'bps' | 'number';

/** One row of the tables. */
export interface FigureDef {
  readonly key: string;
  readonly label: string;
  readonly better: Better;
  readonly format: FigureFormat;
  /** The value to compare: a number, a `Dec` (money), or null when the run has none. */
  value(f: RunFigures): number | Dec | null;
  /** The value as printed. */
  text(f: RunFigures): string;
}

const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const fixed = (x: number | null, digits: number, unit = ''): string =>
  x === null ? '-' : `${x.toFixed(digits)}${unit}`;

const markoutAt = (f: RunFigures, h: number): number | null =>
  f.markouts.find((m) => m.horizonS === h)?.bps ?? null;

/** A value of a figure as printed (also a mean, a minimum or a maximum over runs). */
export function formatValue(format: FigureFormat, v: number | Dec | null): string {
  if (v === null) return format === 'ms' ? 'never' : '-';
  const x = typeof v === 'number' ? v : v.toNumber();
  switch (format) {
    case 'pct':
      return pct(x);
    case 'ms':
      return secs(x);
    case 'money':
      return typeof v === 'number' ? x.toFixed(4) : v.toFixed(4);
    case 'count':
      return Number.isInteger(x) ? String(x) : x.toFixed(1);
    case 'bps':
      return fixed(x, 2, ' bps');
    case 'number':
      return fixed(x, 1);
  }
}

function def(
  key: string,
  label: string,
  better: Better,
  value: (f: RunFigures) => number | Dec | null,
  format: FigureFormat,
  text?: (f: RunFigures) => string,
): FigureDef {
  return { key, label, better, format, value, text: text ?? ((f) => formatValue(format, value(f))) };
}

/** Every figure, in the order printed. */
export const FIGURES: readonly FigureDef[] = [
  def(
    'twoSidedAfterFirst',
    'two-sided uptime (after first two-sided)',
    'higher',
    (f) => f.twoSidedAfterFirst,
    'pct',
  ),
  def('twoSidedOverall', 'two-sided uptime (whole run)', 'higher', (f) => f.twoSidedOverall, 'pct'),
  def('twoSidedBound', 'two-sided bound after full fills (venue)', 'none', (f) => f.twoSidedBound, 'pct'),
  def('fullFills', 'orders filled in full', 'none', (f) => f.fullFills, 'count'),
  def(
    'timeToFirstTwoSidedMs',
    'time to first two-sided quote',
    'lower',
    (f) => f.timeToFirstTwoSidedMs,
    'ms',
  ),
  def('timeToAllTwoSidedMs', 'time to every pair two-sided', 'lower', (f) => f.timeToAllTwoSidedMs, 'ms'),
  def('requoteP50Ms', 'requote latency p50', 'lower', (f) => f.requoteP50Ms, 'ms'),
  def('requoteP95Ms', 'requote latency p95', 'lower', (f) => f.requoteP95Ms, 'ms'),
  def('requoteTowardP50Ms', 'requote p50, move toward the order', 'lower', (f) => f.requoteTowardP50Ms, 'ms'),
  def('requoteAwayP50Ms', 'requote p50, move away from the order', 'lower', (f) => f.requoteAwayP50Ms, 'ms'),
  def('pipelineUtilisation', 'placement pipeline busy', 'none', (f) => f.pipelineUtilisation, 'pct'),
  def('placementsPerHour', 'placements per hour', 'none', (f) => f.placementsPerHour, 'number'),
  def('cancelsPerHour', 'cancels per hour', 'none', (f) => f.cancelsPerHour, 'number'),
  def('abandonedPrepares', 'abandoned prepares', 'lower', (f) => f.abandonedPrepares, 'count'),
  def('abandonedToxic', 'of them toxic at signing', 'lower', (f) => f.abandonedBy['toxic'] ?? 0, 'count'),
  def(
    'abandonedBand',
    'of them out of their band at signing',
    'lower',
    (f) => f.abandonedBy['band'] ?? 0,
    'count',
  ),
  def(
    'noPartyPlacements',
    'placements no party could take (firm)',
    'lower',
    (f) =>
      Object.entries(f.placementOutcomes).reduce((n, [k, v]) => (k.startsWith('no-party:') ? n + v : n), 0),
    'count',
  ),
  def('expiredPrepares', 'expired prepares', 'lower', (f) => f.expiredPrepares, 'count'),
  def('fills', 'fills', 'higher', (f) => f.fills, 'count'),
  def('volumeQuote', 'volume (quote)', 'higher', (f) => new Dec(f.volumeQuote), 'money'),
  def('avgQuotedSpreadBps', 'average quoted spread', 'none', (f) => f.avgQuotedSpreadBps, 'bps'),
  def('spreadCapturedBps', 'spread captured per volume', 'higher', (f) => f.spreadCapturedBps, 'bps'),
  def('spreadCaptured', 'spread captured (quote)', 'higher', (f) => new Dec(f.spreadCaptured), 'money'),
  def(
    'inventoryValueMean',
    'inventory value mean (quote)',
    'none',
    (f) => new Dec(f.inventoryValueMean),
    'money',
  ),
  def(
    'inventoryValueStd',
    'inventory value std (quote)',
    'lower',
    (f) => new Dec(f.inventoryValueStd),
    'money',
  ),
  def('pnl', 'PnL (quote, marked to reference)', 'higher', (f) => new Dec(f.pnl), 'money'),
  def(
    'inventoryRevaluation',
    'inventory revaluation (quote; PnL − spread captured)',
    'none',
    (f) => new Dec(f.inventoryRevaluation),
    'money',
  ),
  ...[5, 30, 60, 300].map((h) =>
    def(
      `markout${h}Bps`,
      `markout at ${h} s (reference move from our side)`,
      'higher',
      (f) => markoutAt(f, h),
      'bps',
    ),
  ),
  def(
    'adverseSelection60',
    'adverse selection (quote; markout loss at 60 s)',
    'lower',
    (f) => new Dec(f.adverseSelection60),
    'money',
  ),
  def('maxDrawdown', 'maximum drawdown (quote)', 'lower', (f) => new Dec(f.maxDrawdown), 'money'),
  def(
    'netInventoryValueStd',
    'net inventory value std (quote; with the hedge venue)',
    'lower',
    (f) => new Dec(f.net.netInventoryValueStd),
    'money',
  ),
  def(
    'pnlNet',
    'PnL net of hedge cost (quote; both venues)',
    'higher',
    (f) => new Dec(f.net.pnlNet),
    'money',
  ),
  def('hedgeCost', 'hedge cost (quote; fees + slippage)', 'lower', (f) => new Dec(f.net.hedgeCost), 'money'),
  def(
    'netMaxDrawdown',
    'maximum drawdown, net (quote)',
    'lower',
    (f) => new Dec(f.net.netMaxDrawdown),
    'money',
  ),
  def('hedgeFills', 'hedge fills', 'none', (f) => f.net.hedgeFills, 'count'),
  def(
    'halts',
    'halts (count, time halted)',
    'zero',
    (f) => f.halts.count,
    'count',
    (f) => `${f.halts.count}, ${secs(f.halts.totalMs)}`,
  ),
  def('haltedMs', 'time halted', 'zero', (f) => f.halts.totalMs, 'ms'),
  def(
    'guardTrips',
    'inventory guard trips (reducing only)',
    'lower',
    (f) => f.guardTrips.count,
    'count',
    (f) => `${f.guardTrips.count}, ${secs(f.guardTrips.totalMs)}`,
  ),
  def('invariantBreaks', 'invariant breaks', 'zero', (f) => f.invariantBreaks.total, 'count'),
];

/**
 * `of ÷ base` for two values of one figure, or null when it means nothing (a missing value, a
 * zero base). Money ratios are taken in `Dec`.
 */
export function ratio(of: number | Dec | null, base: number | Dec | null): number | null {
  if (of === null || base === null) return null;
  const a = typeof of === 'number' ? new Dec(of) : of;
  const b = typeof base === 'number' ? new Dec(base) : base;
  if (b.isZero() || !a.isFinite() || !b.isFinite()) return null;
  return Number(a.div(b).toFixed(4));
}

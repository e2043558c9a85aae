import { Dec } from '../../core/decimal.js';
import type { RunFigures } from './figures.js';

/**
 * The figures the tables print, in order, each with its label, how it is rendered and how it
 * compares. The summary, the compare table and the HTML report all read this list.
 */

/** Which way is better, for reading a ratio. */
export type Better = 'higher' | 'lower' | 'zero' | 'none';

/** One row of the tables. */
export interface FigureDef {
  readonly key: string;
  readonly label: string;
  readonly better: Better;
  /** The value to compare: a number, a `Dec` (money), or null when the run has none. */
  value(f: RunFigures): number | Dec | null;
  /** The value as printed. */
  text(f: RunFigures): string;
}

const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;
const secs = (ms: number | null): string => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);
const fixed = (x: number | null, digits: number, unit = ''): string =>
  x === null ? '-' : `${x.toFixed(digits)}${unit}`;

function def(
  key: string,
  label: string,
  better: Better,
  value: (f: RunFigures) => number | Dec | null,
  text: (f: RunFigures) => string,
): FigureDef {
  return { key, label, better, value, text };
}

/** Every figure, in the order printed. */
export const FIGURES: readonly FigureDef[] = [
  def(
    'twoSidedAfterFirst',
    'two-sided uptime (after first two-sided)',
    'higher',
    (f) => f.twoSidedAfterFirst,
    (f) => pct(f.twoSidedAfterFirst),
  ),
  def(
    'twoSidedOverall',
    'two-sided uptime (whole run)',
    'higher',
    (f) => f.twoSidedOverall,
    (f) => pct(f.twoSidedOverall),
  ),
  def(
    'twoSidedBound',
    'two-sided bound after full fills (venue)',
    'none',
    (f) => f.twoSidedBound,
    (f) => pct(f.twoSidedBound),
  ),
  def(
    'fullFills',
    'orders filled in full',
    'none',
    (f) => f.fullFills,
    (f) => String(f.fullFills),
  ),
  def(
    'timeToFirstTwoSidedMs',
    'time to first two-sided quote',
    'lower',
    (f) => f.timeToFirstTwoSidedMs,
    (f) => secs(f.timeToFirstTwoSidedMs),
  ),
  def(
    'timeToAllTwoSidedMs',
    'time to every pair two-sided',
    'lower',
    (f) => f.timeToAllTwoSidedMs,
    (f) => secs(f.timeToAllTwoSidedMs),
  ),
  def(
    'requoteP50Ms',
    'requote latency p50',
    'lower',
    (f) => f.requoteP50Ms,
    (f) => secs(f.requoteP50Ms),
  ),
  def(
    'requoteP95Ms',
    'requote latency p95',
    'lower',
    (f) => f.requoteP95Ms,
    (f) => secs(f.requoteP95Ms),
  ),
  def(
    'pipelineUtilisation',
    'placement pipeline busy',
    'none',
    (f) => f.pipelineUtilisation,
    (f) => pct(f.pipelineUtilisation),
  ),
  def(
    'placementsPerHour',
    'placements per hour',
    'none',
    (f) => f.placementsPerHour,
    (f) => fixed(f.placementsPerHour, 1),
  ),
  def(
    'cancelsPerHour',
    'cancels per hour',
    'none',
    (f) => f.cancelsPerHour,
    (f) => fixed(f.cancelsPerHour, 1),
  ),
  def(
    'abandonedPrepares',
    'abandoned prepares',
    'lower',
    (f) => f.abandonedPrepares,
    (f) => String(f.abandonedPrepares),
  ),
  def(
    'expiredPrepares',
    'expired prepares',
    'lower',
    (f) => f.expiredPrepares,
    (f) => String(f.expiredPrepares),
  ),
  def(
    'fills',
    'fills',
    'higher',
    (f) => f.fills,
    (f) => String(f.fills),
  ),
  def(
    'volumeQuote',
    'volume (quote)',
    'higher',
    (f) => new Dec(f.volumeQuote),
    (f) => f.volumeQuote,
  ),
  def(
    'avgQuotedSpreadBps',
    'average quoted spread',
    'none',
    (f) => f.avgQuotedSpreadBps,
    (f) => fixed(f.avgQuotedSpreadBps, 2, ' bps'),
  ),
  def(
    'spreadCapturedBps',
    'spread captured per volume',
    'higher',
    (f) => f.spreadCapturedBps,
    (f) => fixed(f.spreadCapturedBps, 2, ' bps'),
  ),
  def(
    'spreadCaptured',
    'spread captured (quote)',
    'higher',
    (f) => new Dec(f.spreadCaptured),
    (f) => f.spreadCaptured,
  ),
  def(
    'inventoryValueMean',
    'inventory value mean (quote)',
    'none',
    (f) => new Dec(f.inventoryValueMean),
    (f) => f.inventoryValueMean,
  ),
  def(
    'inventoryValueStd',
    'inventory value std (quote)',
    'lower',
    (f) => new Dec(f.inventoryValueStd),
    (f) => f.inventoryValueStd,
  ),
  def(
    'pnl',
    'PnL (quote, marked to reference)',
    'higher',
    (f) => new Dec(f.pnl),
    (f) => f.pnl,
  ),
  def(
    'maxDrawdown',
    'maximum drawdown (quote)',
    'lower',
    (f) => new Dec(f.maxDrawdown),
    (f) => f.maxDrawdown,
  ),
  def(
    'invariantBreaks',
    'invariant breaks',
    'zero',
    (f) => f.invariantBreaks.total,
    (f) => String(f.invariantBreaks.total),
  ),
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

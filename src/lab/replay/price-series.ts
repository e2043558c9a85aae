/**
 * A recorded price series for replay, from rows read out of a file: timestamps made into ms,
 * checked (numbers, order, gaps), and turned into the market model's `replay` section. Every
 * refusal names the file and the line (a CSV line, or a Parquet row counted from 1) so the
 * fix is plain. Nothing is interpolated: between rows the last price holds, and a gap wider
 * than the maximum is an error, never bridged.
 */
import type { ReplayConfig } from '../../sim/market/dynamics-config.js';

/** The largest gap between consecutive rows replay accepts unless told, ms. */
export const DEFAULT_MAX_GAP_MS = 60_000;

/** One row: where it came from, its time (ms since the epoch) and its price. */
export interface PriceRow {
  /** CSV line number, or Parquet row number (1-based). */
  readonly line: number;
  readonly timeMs: number;
  readonly price: number;
}

/** A series that cannot be replayed; the message names the file and line. */
export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}

/**
 * A timestamp as ms since the epoch: an ISO 8601 date-time (no zone means UTC), or a number of
 * seconds, milliseconds, microseconds or nanoseconds since the epoch told apart by magnitude
 * (≥ 10¹⁷ ns, ≥ 10¹⁴ µs as Tardis writes, ≥ 10¹¹ ms as Binance writes, else seconds, which may
 * have a fraction). Null when it is none of these.
 */
export function parseTimestamp(value: unknown): number | null {
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.getTime() : null;
  if (typeof value === 'bigint') return fromEpochNumber(Number(value));
  if (typeof value === 'number') return Number.isFinite(value) ? fromEpochNumber(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return fromEpochNumber(Number(text));
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) return null;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const ms = Date.parse(zoned.replace(' ', 'T'));
  return Number.isFinite(ms) ? ms : null;
}

function fromEpochNumber(x: number): number | null {
  if (!(x >= 0)) return null;
  if (x >= 1e17) return x / 1e6;
  if (x >= 1e14) return x / 1e3;
  if (x >= 1e11) return x;
  return x * 1000;
}

/** A price: a finite number > 0 (a plain decimal in text). */
export function parsePrice(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : null;
  if (typeof value === 'bigint') return value > 0n ? Number(value) : null;
  if (typeof value !== 'string' || !/^\s*\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(value)) return null;
  const x = Number(value);
  return Number.isFinite(x) && x > 0 ? x : null;
}

/** What {@link toReplay} checks the rows against. */
export interface SeriesLimits {
  /** The widest gap between consecutive rows, ms. */
  readonly maxGapMs: number;
  /** The run's length: the series must cover it, ms. */
  readonly durationMs: number;
}

/**
 * The replay section of `rows` (in file order): times from the first row. Rows at the same time
 * are kept in order (the last one's price holds from then, as with trades in one millisecond).
 * Throws {@link ReplayError} for an empty series, a row earlier than the one before, a gap wider
 * than `maxGapMs`, or a series shorter than the run.
 */
export function toReplay(source: string, rows: readonly PriceRow[], limits: SeriesLimits): ReplayConfig {
  const first = rows[0];
  if (first === undefined) throw new ReplayError(`${source}: no rows`);
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    if (b.timeMs < a.timeMs)
      throw new ReplayError(
        `${source}:${b.line}: rows are not sorted by time (${iso(b.timeMs)} comes after ${iso(a.timeMs)} on line ${a.line})`,
      );
    if (b.timeMs - a.timeMs > limits.maxGapMs)
      throw new ReplayError(
        `${source}:${b.line}: a gap of ${secs(b.timeMs - a.timeMs)} since line ${a.line}, more than the maximum of ${secs(limits.maxGapMs)} (--max-gap); nothing is interpolated`,
      );
  }
  const span = rows[rows.length - 1]!.timeMs - first.timeMs;
  if (span < limits.durationMs)
    throw new ReplayError(
      `${source}: the series covers ${hours(span)} (${iso(first.timeMs)} to ${iso(first.timeMs + span)}), the run ${hours(limits.durationMs)}: shorten --hours or give a longer series`,
    );
  return {
    source,
    times: rows.map((r) => r.timeMs - first.timeMs),
    prices: rows.map((r) => r.price),
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();
const secs = (ms: number): string => `${(ms / 1000).toFixed(3).replace(/\.?0+$/, '')} s`;
const hours = (ms: number): string =>
  ms < 3_600_000 ? secs(ms) : `${(ms / 3_600_000).toFixed(3).replace(/\.?0+$/, '')} h`;

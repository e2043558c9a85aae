/**
 * The series the report's charts draw, as plain numbers (the output boundary: prices and money
 * become JS numbers here, for drawing only). Times are ms since the run's start. Long series are
 * thinned to a few thousand points: the reference keeps each bucket's low and high, so the line
 * keeps its envelope.
 */
import type { Dec } from '../../../core/decimal.js';
import type { RunDetail } from '../figures/figures.js';
import type { OccupancyBucket } from '../figures/pipeline-figures.js';

/** `[t, value]`; value null where a step has no quote. */
export type Point = readonly [number, number | null];

/** The charts of one pair. */
export interface PairSeries {
  readonly pair: string;
  readonly reference: readonly Point[];
  /** Best own bid and ask, as steps (each holds until the next point). */
  readonly bid: readonly Point[];
  readonly ask: readonly Point[];
  /** `[t, price, +1 buy | −1 sell]`. */
  readonly fills: readonly (readonly [number, number, number])[];
}

/** Everything the HTML report draws. */
export interface ChartSeries {
  readonly durationMs: number;
  readonly pairs: readonly PairSeries[];
  /** Total trading PnL, quote units. */
  readonly pnl: readonly Point[];
  /** Inventory value (position × reference) per pair, quote units. */
  readonly inventory: readonly { readonly pair: string; readonly points: readonly Point[] }[];
  readonly occupancy: readonly OccupancyBucket[];
}

const num = (d: Dec | null): number | null => (d === null ? null : Number(d.toFixed(6)));

/** Thins `[t, v]` points to at most ~2 × `buckets`, keeping each bucket's low and high. */
export function envelope(times: readonly number[], values: readonly number[], buckets: number): Point[] {
  if (times.length <= 2 * buckets) return times.map((t, i) => [t, values[i]!] as const);
  const t0 = times[0]!;
  const width = (times[times.length - 1]! - t0) / buckets || 1;
  const out: Point[] = [];
  let i = 0;
  while (i < times.length) {
    const bucket = Math.floor((times[i]! - t0) / width);
    let lo = i;
    let hi = i;
    let j = i;
    for (; j < times.length && Math.floor((times[j]! - t0) / width) === bucket; j++) {
      if (values[j]! < values[lo]!) lo = j;
      if (values[j]! > values[hi]!) hi = j;
    }
    for (const k of lo <= hi ? [lo, hi] : [hi, lo]) {
      const last = out[out.length - 1];
      if (last === undefined || last[0] !== times[k]) out.push([times[k]!, values[k]!]);
    }
    i = j;
  }
  return out;
}

/** The chart series of a run from its detail. */
export function chartSeries(detail: RunDetail, from: number, to: number): ChartSeries {
  const pairs = [...detail.steps.keys()].map((pair): PairSeries => {
    const ref = detail.references.get(pair);
    const times: number[] = [];
    const values: number[] = [];
    ref?.times.forEach((t, i) => {
      if (t > to) return;
      times.push(Math.max(0, t - from));
      values.push(num(ref.prices[i]!)!);
    });
    const steps = detail.steps.get(pair) ?? [];
    return {
      pair,
      reference: envelope(times, values, 1_200),
      bid: steps.map((s) => [s.at - from, num(s.bid)] as const),
      ask: steps.map((s) => [s.at - from, num(s.ask)] as const),
      fills: detail.fills
        .filter((f) => f.pair === pair)
        .map((f) => [f.at - from, num(f.price)!, f.side === 'BUY' ? 1 : -1] as const),
    };
  });
  const m = detail.money;
  return {
    durationMs: to - from,
    pairs,
    pnl: m.t.map((t, i) => [t, num(m.pnl[i]!)] as const),
    inventory: Object.entries(m.inventoryValue).map(([pair, values]) => ({
      pair,
      points: m.t.map((t, i) => [t, num(values[i]!)] as const),
    })),
    occupancy: detail.occupancy.map((b) => ({
      t: b.t,
      prepare: Number(b.prepare.toFixed(4)),
      sign: Number(b.sign.toFixed(4)),
      submit: Number(b.submit.toFixed(4)),
      confirm: Number(b.confirm.toFixed(4)),
    })),
  };
}

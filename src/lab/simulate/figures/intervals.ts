/**
 * Time intervals over the venue's ground truth: when an order was on the book, unions and
 * intersections of such intervals, and how many of a set were open at once. Clock milliseconds;
 * an interval is half-open, `[start, end)`, and `end` may be `Infinity` (still open).
 */
import type { OrderTruth } from '../../../sim/truth/ground-truth.js';
import { isRestingStatus, isTerminalStatus } from '../../../core/order-status.js';

/** A half-open time interval `[start, end)`, clock ms. */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

/**
 * When an order was on the book, from the venue's own history: from its first resting status to
 * the first final status after it (`Infinity` while it still rests); null if it never rested.
 */
export function liveInterval(o: Pick<OrderTruth, 'history'>): Interval | null {
  const start = o.history.find((h) => isRestingStatus(h.status))?.at;
  if (start === undefined) return null;
  const end = o.history.find((h) => h.at >= start && isTerminalStatus(h.status))?.at ?? Infinity;
  return { start, end };
}

/** The union of `intervals`, sorted and disjoint (touching intervals merge). */
export function union(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ start: i.start, end: i.end });
  }
  return out;
}

/** The intersection of two sorted, disjoint lists (as {@link union} returns them). */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const start = Math.max(x.start, y.start);
    const end = Math.min(x.end, y.end);
    if (start < end) out.push({ start, end });
    if (x.end < y.end) i++;
    else j++;
  }
  return out;
}

/** Total length of a disjoint list within `[from, to)`. */
export function measure(list: readonly Interval[], from: number, to: number): number {
  let sum = 0;
  for (const i of list) sum += Math.max(0, Math.min(i.end, to) - Math.max(i.start, from));
  return sum;
}

/**
 * The most intervals open at the same instant. An interval ending when another starts does not
 * overlap it.
 */
export function maxConcurrent(intervals: readonly Interval[]): number {
  const edges: [number, number][] = [];
  for (const i of intervals) edges.push([i.start, 1], [i.end, -1]);
  // Ends before starts at the same instant.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let max = 0;
  for (const [, d] of edges) max = Math.max(max, (open += d));
  return max;
}

/** Pairs `[i, j]` (i < j) of intervals that overlap. */
export function overlappingPairs(intervals: readonly Interval[]): [number, number][] {
  const out: [number, number][] = [];
  const order = intervals.map((_, i) => i).sort((a, b) => intervals[a]!.start - intervals[b]!.start);
  for (let x = 0; x < order.length; x++) {
    const a = intervals[order[x]!]!;
    for (let y = x + 1; y < order.length; y++) {
      const b = intervals[order[y]!]!;
      if (b.start >= a.end) break;
      out.push([Math.min(order[x]!, order[y]!), Math.max(order[x]!, order[y]!)]);
    }
  }
  return out;
}

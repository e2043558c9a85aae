/**
 * What the daemon learns about each of its fills after the fill is journaled, turned into the
 * journal's append-only fill marks (`fill_marks`, see `src/orders/journal/fill-history.ts`):
 *
 * - `reference`: the reference price the last quote cycle quoted around, when the fill is seen;
 * - `fee`: `0` once the preflight has passed (it passes only for a fee-exempt account, and a
 *   registered market maker pays nothing on a fill); nothing when the preflight has not passed;
 * - `markout_<h>s`: the markout at 5, 30, 60 and 300 s as the live {@link MarkoutTracker}
 *   measures it (the ownless book mid's move from the fill, signed from our side, bps).
 *
 * Fed by the daemon's event stream (each `fill`, each `cycle`); the writes go to an injected
 * sink (the order engine's journal). A failing write is reported to `onError` and never thrown
 * into the daemon: the marks are history, no decision rests on them.
 */
import type { Dec } from '../core/decimal.js';
import type { MarketSnapshot, OwnOrderView } from '../market/market-snapshot.js';
import { isFillMarkoutHorizon, markoutKind, type FillMarkInput } from '../orders/journal/index.js';
import { ownlessMid } from './metrics/markout-metrics.js';
import { LIVE_MARKOUT_HORIZONS_S, MarkoutTracker } from './markout-tracker.js';

/** Options of {@link FillMarks}. */
export interface FillMarksOptions {
  readonly now: () => number;
  /** Stores marks; null while there is no journal to write to (before the engine starts). */
  readonly sink: () => ((marks: readonly FillMarkInput[]) => unknown) | null;
  /** The reference price of a pair as the last quote cycle had it, or null. */
  readonly reference: (pair: string) => Dec | null;
  /** True once the preflight (fee exemption included) has passed. */
  readonly feeExempt: () => boolean;
  readonly onError?: (error: unknown) => void;
}

/** What the marks read of the daemon's events (structurally). */
export type FillMarksEvent =
  | {
      readonly type: 'fill';
      readonly fill: {
        readonly orderId: string | null;
        readonly pair: string;
        readonly side: 'BUY' | 'SELL';
        readonly filled: Dec;
      };
    }
  | {
      readonly type: 'cycle';
      readonly report: { readonly snapshot: MarketSnapshot; readonly own: readonly OwnOrderView[] };
    }
  | { readonly type: string };

/** See the module doc. */
export class FillMarks {
  private readonly tracker: MarkoutTracker;

  constructor(private readonly o: FillMarksOptions) {
    this.tracker = new MarkoutTracker({ now: o.now, horizonsS: LIVE_MARKOUT_HORIZONS_S });
  }

  /** Feeds one daemon event. Never throws. */
  observe(e: FillMarksEvent): void {
    try {
      if (e.type === 'fill' && 'fill' in e) this.onFill(e.fill);
      else if (e.type === 'cycle' && 'report' in e) this.onCycle(e.report);
    } catch (err) {
      this.o.onError?.(err);
    }
  }

  private onFill(fill: Extract<FillMarksEvent, { type: 'fill' }>['fill']): void {
    if (fill.orderId === null) return;
    const id = { orderId: fill.orderId, filled: fill.filled };
    const at = this.o.now();
    const marks: FillMarkInput[] = [];
    const reference = this.o.reference(fill.pair);
    if (reference !== null) marks.push({ ...id, kind: 'reference', value: reference.toFixed(), at });
    if (this.o.feeExempt()) marks.push({ ...id, kind: 'fee', value: '0', at });
    this.write(marks);
    this.tracker.onFill(fill.pair, fill.side, id);
  }

  private onCycle(report: Partial<Extract<FillMarksEvent, { type: 'cycle' }>['report']>): void {
    const { snapshot, own } = report;
    if (snapshot?.pairs === undefined || own === undefined) return;
    const marks: FillMarkInput[] = [];
    for (const pair of Object.keys(snapshot.pairs)) {
      const book = snapshot.pairs[pair]?.book;
      const mid = ownlessMid(snapshot, own, pair);
      if (book == null || mid === null) continue;
      for (const s of this.tracker.onMid(pair, mid, book.receivedAt)) {
        if (s.fill === undefined || !isFillMarkoutHorizon(s.horizonS)) continue;
        marks.push({
          ...s.fill,
          kind: markoutKind(s.horizonS),
          value: s.bps.toFixed(2),
          at: book.receivedAt,
        });
      }
    }
    this.write(marks);
  }

  private write(marks: readonly FillMarkInput[]): void {
    if (marks.length === 0) return;
    const sink = this.o.sink();
    if (sink !== null) sink(marks);
  }
}

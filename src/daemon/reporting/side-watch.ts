/**
 * Watches every configured pair's two sides across quote cycles. A side is missing while no order
 * of ours rests on it. An episode starts at the first cycle that sees it missing; once it has
 * lasted more than two pipeline cycles (the time one placement takes, prepare to rest, measured
 * from the stages) it is reported once (`side-missing`, a WARN naming the cause), and its end
 * once (`side-restored`). The cause is re-read every cycle (the metric shows the current one).
 * A side whose placement merely waits its turn in the pipeline (`queued`) is not warned about:
 * that is the venue's pace, not a stop (the metric still shows it).
 */
import type { Side } from '../../core/order-terms.js';
import type { CycleReport } from '../trading/quote-cycle.js';
import { sideMissingCause, type AwaitingOrder } from './side-missing-cause.js';
import type { SideMissingCause } from './side-missing-reasons.js';

const SIDES: readonly Side[] = ['BUY', 'SELL'];

/** One side's current episode. */
export interface SideEpisode {
  readonly pair: string;
  readonly side: Side;
  readonly since: number;
  readonly cause: SideMissingCause;
  readonly warned: boolean;
}

/** What {@link SideWatch.observe} reports. */
export type SideWatchEvent =
  | {
      readonly type: 'side-missing';
      readonly pair: string;
      readonly side: Side;
      readonly cause: SideMissingCause;
      readonly missingMs: number;
      readonly at: number;
    }
  | {
      readonly type: 'side-restored';
      readonly pair: string;
      readonly side: Side;
      readonly missingMs: number;
      readonly at: number;
    };

/** The time one placement takes (prepare + submit + confirm), from an EWMA of successful stages. */
export class PipelineCycle {
  private readonly ms = new Map<string, number>();

  /** `defaultMs`: the estimate before any stage was seen (the venue's realistic 45 s). */
  constructor(private readonly defaultMs = 45_000) {}

  /** Feeds one stage duration. */
  observe(stage: string, ms: number, ok: boolean): void {
    if (!ok || (stage !== 'prepare' && stage !== 'submit' && stage !== 'confirm')) return;
    const prev = this.ms.get(stage);
    this.ms.set(stage, prev === undefined ? ms : prev * 0.8 + ms * 0.2);
  }

  /** The current estimate, ms (at least 1 s). */
  get estimateMs(): number {
    if (this.ms.size < 3) return this.defaultMs;
    let sum = 0;
    for (const v of this.ms.values()) sum += v;
    return Math.max(1_000, sum);
  }
}

/** See the module doc. */
export class SideWatch {
  private readonly episodes = new Map<string, SideEpisode>();

  constructor(private readonly cycle: PipelineCycle) {}

  /** The current episode of (pair, side), or null while it is quoted. */
  episode(pair: string, side: Side): SideEpisode | null {
    return this.episodes.get(`${pair}|${side}`) ?? null;
  }

  /** Every current episode. */
  all(): SideEpisode[] {
    return [...this.episodes.values()];
  }

  /** Reads one cycle; `awaiting` are our orders whose placement outcome is unknown. */
  observe(report: CycleReport, awaiting: readonly AwaitingOrder[]): SideWatchEvent[] {
    const events: SideWatchEvent[] = [];
    const now = report.at;
    for (const { pair } of report.positions) {
      for (const side of SIDES) {
        const id = `${pair}|${side}`;
        const prev = this.episodes.get(id);
        const resting = report.own.some((o) => o.pair === pair && o.side === side && o.resting);
        if (resting) {
          if (prev !== undefined) {
            this.episodes.delete(id);
            if (prev.warned)
              events.push({ type: 'side-restored', pair, side, missingMs: now - prev.since, at: now });
          }
          continue;
        }
        const cause = sideMissingCause(report, pair, side, awaiting);
        const since = prev?.since ?? now;
        // Waiting its turn is the venue's pace, not a stop: the metric shows it, no WARN.
        const due = cause.reason !== 'queued' && now - since > 2 * this.cycle.estimateMs;
        const warn = prev?.warned !== true && due;
        this.episodes.set(id, { pair, side, since, cause, warned: prev?.warned === true || warn });
        if (warn) events.push({ type: 'side-missing', pair, side, cause, missingMs: now - since, at: now });
      }
    }
    return events;
  }
}

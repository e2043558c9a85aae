/**
 * The placement pipeline as the venue saw it. The venue allows one placement per party in flight,
 * from the prepare's arrival until the commit (or failure); a prepare never submitted holds it
 * only until it is answered. Busy time is the union of those spans; the phases of each placement
 * (prepare call, the gap to the submission, the submission call, the wait for the commit) feed
 * the occupancy chart.
 */
import type { SimCapture } from '../run/capture.js';
import { type Interval, measure, union } from './intervals.js';

/** The phases of one placement, clock ms (null when the placement never got there). */
export interface PlacementPhases {
  /** The party whose pipeline ran it. */
  readonly partyId: string;
  readonly prepare: Interval;
  /** From the prepare's answer to the submission's arrival (signing, the freshness check). */
  readonly sign: Interval | null;
  readonly submit: Interval | null;
  /** From the submission's answer to the commit. */
  readonly confirm: Interval | null;
}

/** Counts and shares of the placement pipeline over a run. */
export interface PipelineFigures {
  /** Busy share of the run, 0–1. */
  readonly utilisation: number;
  /** Placement prepares the venue received. */
  readonly prepares: number;
  /** Placements committed (resting or ended at once). */
  readonly placements: number;
  /** Cancels committed. */
  readonly cancels: number;
  /** Prepares never submitted (the daemon walked away before signing). */
  readonly abandonedPrepares: number;
  /** Of those, the ones the venue expired (its 5-minute cache deadline passed). */
  readonly expiredPrepares: number;
  /** Placements whose commit failed (REJECTED). */
  readonly failedPlacements: number;
}

/** The phases of every placement of the run, by prepare arrival. */
export function placementPhases(c: SimCapture): PlacementPhases[] {
  const prepares = new Map<string, { start: number; end: number }>();
  const submits = new Map<string, { start: number; end: number }>();
  for (const call of c.calls) {
    if (call.orderId === undefined) continue;
    const span = { start: call.startedAt, end: call.endedAt ?? c.end };
    if (call.endpoint === 'prepare' && !prepares.has(call.orderId)) prepares.set(call.orderId, span);
    if (call.endpoint === 'submit' && call.commandKind !== 'cancel' && call.verdict === 'valid')
      submits.set(call.orderId, span);
  }
  return [...c.spans]
    .sort((a, b) => a.preparedAt - b.preparedAt)
    .map((s) => {
      const p = prepares.get(s.orderId) ?? { start: s.preparedAt, end: s.preparedAt };
      const sub = submits.get(s.orderId) ?? null;
      const settled = s.settledAt ?? (sub === null ? null : c.end);
      return {
        partyId: s.partyId,
        prepare: p,
        sign: sub === null ? null : { start: p.end, end: sub.start },
        submit: sub,
        confirm:
          sub === null || settled === null ? null : { start: sub.end, end: Math.max(sub.end, settled) },
      };
    });
}

/** When the pipeline was busy: each placement from its prepare to its commit (or its answer). */
export function busyIntervals(phases: readonly PlacementPhases[]): Interval[] {
  return union(phases.map((p) => ({ start: p.prepare.start, end: (p.confirm ?? p.prepare).end })));
}

/** {@link PipelineFigures} of a run. */
export function pipelineFigures(c: SimCapture, phases: readonly PlacementPhases[]): PipelineFigures {
  const submitted = new Set(c.orders.filter((o) => o.submitted).map((o) => o.orderId));
  const abandoned = c.spans.filter((s) => !submitted.has(s.orderId));
  const span = c.end - c.start;
  return {
    // The mean busy share of the parties' pipelines (one party: its pipeline's).
    utilisation:
      span > 0
        ? c.partyIds.reduce(
            (sum, id) => sum + measure(busyIntervals(phases.filter((p) => p.partyId === id)), c.start, c.end),
            0,
          ) /
          (span * c.partyIds.length)
        : 0,
    prepares: c.spans.length,
    placements: c.commits.filter((x) => x.kind === 'place' && x.ok).length,
    cancels: c.commits.filter((x) => x.kind === 'cancel' && x.ok).length,
    abandonedPrepares: abandoned.length,
    expiredPrepares: abandoned.filter((s) => s.outcome === 'abandoned').length,
    failedPlacements: c.commits.filter((x) => x.kind === 'place' && !x.ok).length,
  };
}

/** Busy share of each phase per bucket of `bucketMs` over `[from, to)`, for the occupancy chart. */
export interface OccupancyBucket {
  /** Bucket start, ms since the run's start. */
  readonly t: number;
  readonly prepare: number;
  readonly sign: number;
  readonly submit: number;
  readonly confirm: number;
}

/** Per-bucket busy shares of each phase. */
export function occupancy(
  phases: readonly PlacementPhases[],
  from: number,
  to: number,
  bucketMs: number,
): OccupancyBucket[] {
  const kinds = ['prepare', 'sign', 'submit', 'confirm'] as const;
  const lists = Object.fromEntries(kinds.map((k) => [k, union(phases.flatMap((p) => p[k] ?? []))])) as Record<
    (typeof kinds)[number],
    Interval[]
  >;
  const out: OccupancyBucket[] = [];
  for (let t = from; t < to; t += bucketMs) {
    const end = Math.min(to, t + bucketMs);
    const share = (k: (typeof kinds)[number]): number => measure(lists[k], t, end) / (end - t);
    out.push({
      t: t - from,
      prepare: share('prepare'),
      sign: share('sign'),
      submit: share('submit'),
      confirm: share('confirm'),
    });
  }
  return out;
}

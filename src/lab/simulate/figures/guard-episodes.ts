/**
 * Every halt and guard trip of a simulated run, from the risk gate's verdict of each quote cycle:
 * an episode opens when a (pair, rule) first appears among the verdict's reasons and closes at the
 * first cycle without it. `max-inventory` only puts a pair in reducing mode (a guard trip); every
 * other rule halts the pair (or, with a null pair, the whole account).
 *
 * The start of a run is not a halt: the account is `not-ready` until its first read and a book
 * `stale-book` until its first poll. Account-wide reasons count once the verdict was first ready,
 * a pair's once it was first active.
 */
import type { RiskRule, RiskVerdict } from '../../../risk/risk-types.js';

/** Whether an episode stopped quoting (`halt`) or only allowed reducing the position. */
export type GuardKind = 'halt' | 'reducing';

/** One episode; times are clock ms. */
export interface GuardEpisode {
  /** The pair, or null for a condition of the whole account. */
  readonly pair: string | null;
  readonly rule: RiskRule;
  readonly kind: GuardKind;
  readonly start: number;
  /** When the first cycle without it ran; the run's end when it was still on. */
  readonly end: number;
  /** The gate's detail when it opened. */
  readonly detail: string;
}

/** The kind of a rule's episode. */
export function guardKind(rule: RiskRule): GuardKind {
  return rule === 'max-inventory' ? 'reducing' : 'halt';
}

interface Open {
  readonly pair: string | null;
  readonly rule: RiskRule;
  readonly start: number;
  readonly detail: string;
}

/** Folds verdicts into episodes; see the module doc. */
export class GuardEpisodes {
  private readonly open = new Map<string, Open>();
  private readonly closed: GuardEpisode[] = [];
  private readonly activePairs = new Set<string>();
  private accountReady = false;

  /** Takes the verdict of the cycle that ran at `at`. */
  observe(at: number, verdict: Pick<RiskVerdict, 'reasons' | 'pairStates' | 'ready'>): void {
    const seen = new Set<string>();
    for (const r of verdict.reasons) {
      const counts = r.pair === null ? this.accountReady : this.activePairs.has(r.pair);
      if (!counts) continue;
      const key = `${r.pair ?? ''}\0${r.rule}`;
      seen.add(key);
      if (!this.open.has(key))
        this.open.set(key, { pair: r.pair, rule: r.rule, start: at, detail: r.detail });
    }
    for (const [key, o] of this.open) {
      if (seen.has(key)) continue;
      this.open.delete(key);
      this.closed.push({ ...o, kind: guardKind(o.rule), end: at });
    }
    if (verdict.ready) this.accountReady = true;
    for (const [pair, state] of Object.entries(verdict.pairStates)) {
      if (state === 'active') this.activePairs.add(pair);
    }
  }

  /** Every episode, oldest first; those still open end at `end`. */
  episodes(end: number): GuardEpisode[] {
    const still = [...this.open.values()].map((o) => ({ ...o, kind: guardKind(o.rule), end }));
    return [...this.closed, ...still].sort((a, b) => a.start - b.start);
  }
}

/** The figures of a run's episodes of one kind. */
export interface GuardSummary {
  readonly count: number;
  /** Summed duration of the episodes, ms (overlapping episodes each count). */
  readonly totalMs: number;
  /** Count and summed duration by rule. */
  readonly byRule: Readonly<Partial<Record<RiskRule, { readonly count: number; readonly totalMs: number }>>>;
}

/** Counts and durations of the episodes of `kind`. */
export function summariseGuards(episodes: readonly GuardEpisode[], kind: GuardKind): GuardSummary {
  const byRule: Partial<Record<RiskRule, { count: number; totalMs: number }>> = {};
  let count = 0;
  let totalMs = 0;
  for (const e of episodes) {
    if (e.kind !== kind) continue;
    const ms = Math.max(0, e.end - e.start);
    count += 1;
    totalMs += ms;
    const r = (byRule[e.rule] ??= { count: 0, totalMs: 0 });
    r.count += 1;
    r.totalMs += ms;
  }
  return { count, totalMs, byRule };
}

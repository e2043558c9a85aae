/**
 * How durable a write is when the method returns.
 * - `durable`: committed with an fsync (WAL, `synchronous = FULL`) before the method returns: it
 *   survives a crash and a power cut. Every change a venue call depends on is written this way,
 *   before the call.
 * - `relaxed`: written into the open group transaction, which the next durable write commits
 *   with itself (one fsync for all), or the group timer after `groupCommitMs`. A crash before that
 *   loses it, never half of it and never without what was written after it. Only for changes
 *   whose loss leaves an order one step back, in a state recovery settles by reading the venue.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import { JournalFailedError } from './errors.js';
import type { Db } from './schema.js';
import type { Statements } from './statements.js';

/** See the module doc. */
export type Durability = 'durable' | 'relaxed';

/** Counters of the journal's `stats()`. */
export interface JournalStats {
  /** Order writes (intents, transitions, fills, counter bumps), durable and relaxed. */
  readonly writes: number;
  /** Of which relaxed. */
  readonly relaxedWrites: number;
  /** Commits made (each one fsync). */
  readonly commits: number;
}

/** What {@link GroupCommit} runs on: the store, its statements and the group's timer. */
export interface GroupCommitInit {
  /** The store's path, for the error a failed commit leaves. */
  readonly path: string;
  readonly db: Db;
  readonly st: Statements;
  readonly timers: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** How long relaxed writes wait for a durable one; 0 commits each write at once. */
  readonly groupMs: number;
}

/**
 * The group commit of one journal: runs each write as a transaction (a savepoint inside an open
 * group), keeps relaxed writes in one open transaction until a durable write or the timer commits
 * them, and remembers a failed commit so that every later write throws it (the store no longer
 * matches memory).
 */
export class GroupCommit {
  private readonly db: Db;
  private readonly st: Statements;
  private readonly timers: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  private readonly groupMs: number;
  private readonly path: string;
  private readonly inTransaction: <T>(fn: () => T) => T;
  private groupTimer: TimerHandle | null = null;
  private failure: JournalFailedError | null = null;
  private counts = { writes: 0, relaxedWrites: 0, commits: 0 };
  private stopped = false;

  constructor(init: GroupCommitInit) {
    this.db = init.db;
    this.st = init.st;
    this.timers = init.timers;
    this.groupMs = init.groupMs;
    this.path = init.path;
    const txn = init.db.transaction((fn: () => unknown) => fn());
    this.inTransaction = <T>(fn: () => T): T => txn.immediate(fn) as T;
  }

  /** Write and commit counters since the open. */
  stats(): JournalStats {
    return { ...this.counts };
  }

  /** True while relaxed writes wait in the open group. */
  get pending(): boolean {
    return this.db.inTransaction;
  }

  /** Runs `fn` in a transaction of its own, outside the counters (the journal's bookkeeping). */
  transaction<T>(fn: () => T): T {
    return this.inTransaction(fn);
  }

  /**
   * Runs `fn` as one write. Inside an open group it runs as a savepoint, so a throw undoes this
   * write only and the group's earlier writes stay. A relaxed write opens the group if needed;
   * a durable one commits the group with itself. Throws the failure of an earlier commit.
   */
  write<T>(fn: () => T, durability: Durability): T {
    if (this.failure !== null) throw this.failure;
    const relaxed = durability === 'relaxed' && this.groupMs > 0;
    const grouped = this.db.inTransaction;
    if (relaxed && !grouped) {
      this.st.beginGroup.run();
      this.groupTimer = this.timers.setTimeout(() => this.commitOnTimer(), this.groupMs);
    }
    let result: T;
    try {
      result = this.inTransaction(fn);
    } catch (err) {
      // The first write of a group undone leaves an empty group: drop it.
      if (relaxed && !grouped) this.rollbackEmptyGroup();
      throw err;
    }
    this.counts.writes += 1;
    if (relaxed) this.counts.relaxedWrites += 1;
    else if (grouped) this.commit();
    else this.counts.commits += 1;
    return result;
  }

  /** Commits the waiting group now (no-op when none). */
  flush(): void {
    if (this.db.inTransaction) this.commit();
  }

  /** The last commit before the store closes: the waiting group, unless a commit failed before. */
  flushBeforeClose(): void {
    if (this.failure === null && this.db.inTransaction) this.commit();
  }

  /** No more commits: the timer is cleared and one already due does nothing. */
  stop(): void {
    this.stopped = true;
    this.clearGroupTimer();
  }

  /** Drops the waiting group, as a crash would (for `closeAsCrash`). */
  dropGroup(): void {
    if (this.db.inTransaction) this.st.rollbackGroup.run();
  }

  private commit(): void {
    this.clearGroupTimer();
    try {
      this.st.commitGroup.run();
      this.counts.commits += 1;
    } catch (err) {
      // The group's writes are gone with it: the store no longer matches memory.
      this.failure = new JournalFailedError(this.path, err);
      if (this.db.inTransaction) this.st.rollbackGroup.run();
      throw this.failure;
    }
  }

  private commitOnTimer(): void {
    this.groupTimer = null;
    if (this.stopped || !this.db.inTransaction) return;
    try {
      this.commit();
    } catch {
      // Kept in `failure`: the next write throws it (a timer has nobody to throw to).
    }
  }

  private rollbackEmptyGroup(): void {
    this.clearGroupTimer();
    if (this.db.inTransaction) this.st.rollbackGroup.run();
  }

  private clearGroupTimer(): void {
    if (this.groupTimer === null) return;
    this.timers.clearTimeout(this.groupTimer);
    this.groupTimer = null;
  }
}

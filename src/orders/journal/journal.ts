/**
 * The durable order journal (SQLite): {@link Journal} stores every order of ours, each state
 * transition with the fills it produced, contract and order id histories, fill marks, meta values
 * and the clientOrderId counter. A durable write is committed (fsync) when it returns, so the
 * order registry writes here before the venue call that depends on the change; relaxed writes
 * are grouped. It owns the store and its lock for one process; recovery, `fills` and
 * `cancel-all` read it.
 */
import { systemClock } from '../../core/clock.js';
import type { Clock } from '../../core/clock.js';
import { ControlLog, type ControlChange, type ControlChangeInput } from './control-log.js';
import { JournalClosedError, JournalInputError, JournalReadOnlyError } from './errors.js';
import {
  FillHistory,
  type FillHistoryFilter,
  type FillHistoryRow,
  type FillMarkInput,
} from './fill-history.js';
import { GroupCommit, type Durability, type JournalStats } from './group-commit.js';
import { OrderWrites } from './order-writes.js';
import { OWN_META_KEYS, nextSuffix, randomRunId, registerRun } from './runs.js';
import type { Db, MigrationReport } from './schema.js';
import { prepareStatements, toFillRecord, toStoredOrder, toTransitionRow } from './statements.js';
import type { OrderRow, Statements } from './statements.js';
import type { LockHolder, StoreLock } from './store-lock.js';
import type {
  FillInput,
  FillRecord,
  JournalEvent,
  JournalOrder,
  SnapshotCodec,
  StoredOrder,
  TerminalStates,
  TransitionRow,
  WriteResult,
} from './types.js';

/** The journal's clock: its timestamps, and the group-commit timer when it has one. */
export type JournalClock = Pick<Clock, 'now'> & Partial<Pick<Clock, 'setTimeout' | 'clearTimeout'>>;

/** @internal What {@link Journal}'s constructor takes (see `openJournal`). */
export interface JournalInit<O> {
  readonly path: string;
  readonly db: Db;
  readonly lock: StoreLock | null;
  readonly clock: JournalClock;
  readonly codec: SnapshotCodec<O>;
  readonly schema: MigrationReport | null;
  readonly groupMs: number;
}

/**
 * The durable order journal. Every method is synchronous. A write either stores everything or
 * nothing, and a durable write has been committed with an fsync when it returns: call it BEFORE
 * the venue call that depends on the change, and skip the call if it throws. Relaxed writes are
 * grouped (see {@link Durability}); reads through this object see them at once.
 */
export class Journal<O extends JournalOrder = JournalOrder> {
  readonly path: string;
  /** Random id of this process run (null when read-only); part of every clientOrderId suffix. */
  readonly runId: string | null;
  /** The previous holder when this open took over a stale lock (after a crash), else null. */
  readonly staleLock: LockHolder | null;
  /** What the open migrated; null when read-only. */
  readonly schema: MigrationReport | null;
  private readonly db: Db;
  private readonly st: Statements;
  private readonly lock: StoreLock | null;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly codec: SnapshotCodec<O>;
  private readonly writes: OrderWrites<O>;
  private readonly group: GroupCommit;
  private readonly history: FillHistory;
  private readonly controls: ControlLog;
  private closed = false;
  /**
   * What the last {@link fillsAfter} query proved, while no fill insert has run since: no stored
   * fill has a seq above `maxSeq`. Only a writable journal keeps it (it holds the store's lock, so
   * every insert goes through {@link OrderWrites}); a rollback only removes rows, so it stays true.
   */
  private fillsKnown: { readonly inserts: number; readonly maxSeq: number } | null = null;

  /** @internal Use {@link openJournal}. */
  constructor(init: JournalInit<O>) {
    this.path = init.path;
    this.db = init.db;
    this.lock = init.lock;
    this.clock = init.clock;
    const { setTimeout, clearTimeout } = init.clock;
    const timers =
      setTimeout !== undefined && clearTimeout !== undefined
        ? { setTimeout: setTimeout.bind(init.clock), clearTimeout: clearTimeout.bind(init.clock) }
        : systemClock;
    this.codec = init.codec;
    this.schema = init.schema;
    this.staleLock = init.lock?.staleTakenOver ?? null;
    this.st = prepareStatements(init.db);
    this.group = new GroupCommit({
      path: init.path,
      db: init.db,
      st: this.st,
      timers,
      groupMs: init.groupMs,
    });
    this.writes = new OrderWrites(this.st, init.clock, init.codec);
    this.history = new FillHistory(init.db);
    this.controls = new ControlLog(init.db);
    this.runId = init.lock === null ? null : this.startRun();
  }

  /** Write and commit counters since the open. */
  stats(): JournalStats {
    return this.group.stats();
  }

  /** True while relaxed writes wait in the open group. */
  get pending(): boolean {
    return this.group.pending;
  }

  /** Commits the relaxed writes waiting in the group now (no-op when none). */
  flush(): void {
    this.assertOpen();
    this.group.flush();
  }

  /**
   * Records a new order of ours: the `intents` row, its `orders` row and its first transition
   * (from null, event type `Created`), in one durable transaction. Throws JournalConflictError
   * when the key or an id is already taken.
   */
  recordIntent(order: O): WriteResult {
    return this.write(() => this.writes.intent(order), 'durable');
  }

  /**
   * Records one state change in ONE transaction: the transition row, the order's current row,
   * its contractId/orderId history, and `fills` (the fills the change produced, so inventory can
   * never disagree with `filled`). `prev === null` records an order not created by
   * {@link recordIntent} (an adopted foreign order). Throws JournalConflictError, with nothing
   * written, when `prev` is not what the journal holds or an id belongs to another order.
   * `durability` defaults to `durable`; see {@link Durability} before relaxing it.
   */
  recordTransition(
    prev: O | null,
    next: O,
    event: JournalEvent | null,
    fills: readonly FillInput[] = [],
    durability: Durability = 'durable',
  ): WriteResult {
    return this.write(() => this.writes.transition(prev, next, event, fills), durability);
  }

  /** Stores one fill on its own. Returns false when the same (orderId, cumulative) is already stored. */
  recordFill(fill: FillInput): boolean {
    return this.write(() => this.writes.fills(null, [fill]) === 1, 'durable');
  }

  /**
   * Stores what was learnt about fills after they were stored (reference, fee, markouts), each
   * once: a mark already stored is skipped. Relaxed: no venue call depends on a mark, so it
   * commits with the next durable write or the group timer. Returns how many were new.
   */
  recordFillMarks(marks: readonly FillMarkInput[]): number {
    return this.write(() => this.history.record(marks), 'relaxed');
  }

  /**
   * The fills matching `filter` with their order's clientOrderId and their marks, oldest first,
   * streamed from a cursor (see {@link FillHistory.iterate}).
   */
  fillHistory(filter: FillHistoryFilter = {}): IterableIterator<FillHistoryRow> {
    this.assertOpen();
    return this.history.iterate(filter);
  }

  /**
   * A fresh clientOrderId suffix, `<runId>-<counter base36>`. The counter is durable and
   * committed before this returns, so a suffix is never handed out twice, even across crashes;
   * the random run id also keeps suffixes unique if the store is restored from an old backup.
   */
  nextClientOrderSuffix(): string {
    const runId = this.writableRunId();
    return this.write(() => nextSuffix(this.st, runId), 'durable');
  }

  /** The current value of the clientOrderId counter (the last one handed out). */
  clientOrderCounter(): number {
    return Number(this.getMeta('client_order_counter') ?? '0');
  }

  /** Orders whose state is not terminal, in creation order: what recovery must resolve. */
  loadOpenOrders(terminal: TerminalStates): StoredOrder<O>[] {
    this.assertOpen();
    if (typeof terminal === 'function') return this.loadAll().filter((o) => !terminal(o.state));
    return this.st.notInStates.all(JSON.stringify(terminal)).map((r) => toStoredOrder(r, this.codec));
  }

  /** Every order, in creation order. */
  loadAll(): StoredOrder<O>[] {
    this.assertOpen();
    return this.st.all.all().map((r) => toStoredOrder(r, this.codec));
  }

  /** The order stored under a local key. */
  get(key: string): StoredOrder<O> | undefined {
    this.assertOpen();
    return this.decoded(this.st.byKey.get(key));
  }

  /** The order with this clientOrderId. */
  findByClientOrderId(clientOrderId: string): StoredOrder<O> | undefined {
    this.assertOpen();
    return this.decoded(this.st.byClientOrderId.get(clientOrderId));
  }

  /** The order that has, or ever had, this orderId. */
  findByOrderId(orderId: string): StoredOrder<O> | undefined {
    this.assertOpen();
    return this.decoded(this.st.byOrderId.get(orderId));
  }

  /** The order that has, or ever had, this contractId; compare with `.contractId` for "current". */
  findByContractId(contractId: string): StoredOrder<O> | undefined {
    this.assertOpen();
    return this.decoded(this.st.byContractId.get(contractId));
  }

  /** Every contractId the order ever had, oldest first. */
  contractIds(key: string): string[] {
    this.assertOpen();
    return this.st.contractHistory.all(key).map((r) => r.contract_id);
  }

  /** Stored fills, oldest first; of one orderId when given. */
  fills(orderId?: string): FillRecord[] {
    this.assertOpen();
    const rows = orderId === undefined ? this.st.allFills.all() : this.st.fillsOf.all(orderId);
    return rows.map(toFillRecord);
  }

  /** Stored fills after sequence number `seq`, oldest first (an incremental reader's catch-up). */
  fillsAfter(seq: number): FillRecord[] {
    this.assertOpen();
    const known = this.fillsKnown;
    if (known !== null && known.inserts === this.writes.fillInserts && seq >= known.maxSeq) return [];
    const rows = this.st.fillsAfter.all(seq);
    if (this.runId !== null) {
      this.fillsKnown = { inserts: this.writes.fillInserts, maxSeq: rows.at(-1)?.seq ?? seq };
    }
    return rows.map(toFillRecord);
  }

  /** The transition log, oldest first; of one order when `key` is given. */
  transitions(key?: string): TransitionRow[] {
    this.assertOpen();
    const rows = key === undefined ? this.st.allTransitions.all() : this.st.transitionsOf.all(key);
    return rows.map(toTransitionRow);
  }

  /** Sequence number of the last transition (0 when none). */
  lastSeq(): number {
    this.assertOpen();
    return this.st.lastSeq.get()?.seq ?? 0;
  }

  /**
   * Appends a pause or resume to the control log (durable on return: write it before acting on
   * it); returns its sequence number.
   */
  recordControlChange(change: ControlChangeInput): number {
    return this.write(() => this.controls.append(change), 'durable');
  }

  /** The control log, oldest first. */
  controlChanges(): ControlChange[] {
    this.assertOpen();
    return this.controls.changes();
  }

  /** A meta value. */
  getMeta(key: string): string | undefined {
    this.assertOpen();
    return this.st.getMeta.get(key)?.value;
  }

  /** Sets a meta value (durable on return). The journal's own keys are refused. */
  setMeta(key: string, value: string): void {
    this.writableRunId();
    if (OWN_META_KEYS.test(key))
      throw new JournalInputError(`journal: meta key ${key} is owned by the journal`);
    this.write(() => this.st.setMeta.run(key, value), 'durable');
  }

  /** Runs SQLite's integrity and foreign-key checks; returns the problems (empty when sound). */
  integrityCheck(): string[] {
    this.assertOpen();
    const problems = (this.db.pragma('integrity_check') as { integrity_check: string }[])
      .map((r) => r.integrity_check)
      .filter((m) => m !== 'ok');
    const fk = this.db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
    return [...problems, ...fk.map((r) => `foreign key: ${r.table} row ${r.rowid} → missing ${r.parent}`)];
  }

  /**
   * Commits the waiting group, closes the store and releases the lock. Idempotent. Throws
   * JournalFailedError when that last commit fails (the store and lock are released anyway).
   */
  close(): void {
    if (this.closed) return;
    try {
      this.group.flushBeforeClose();
    } finally {
      this.closed = true;
      this.group.stop();
      try {
        this.db.close();
      } finally {
        this.lock?.release();
      }
    }
  }

  /**
   * Closes the store as a crash (SIGKILL, power cut) would leave it: relaxed writes still
   * waiting in the group are dropped, durable ones stay; the lock is released. For crash tests
   * and fault injection; a daemon closes with {@link close}.
   */
  closeAsCrash(): void {
    if (this.closed) return;
    this.closed = true;
    this.group.stop();
    try {
      this.group.dropGroup();
      this.db.close();
    } finally {
      this.lock?.release();
    }
  }

  private startRun(): string {
    const run = {
      runId: randomRunId(),
      pid: process.pid,
      startedAt: this.clock.now(),
      staleLockPid: this.staleLock?.pid ?? null,
    };
    this.group.transaction(() => registerRun(this.st, run));
    return run.runId;
  }

  /** One write through the group commit (see {@link Durability}); refused when read-only or closed. */
  private write<T>(fn: () => T, durability: Durability): T {
    this.writableRunId();
    return this.group.write(fn, durability);
  }

  private writableRunId(): string {
    this.assertOpen();
    if (this.runId === null) throw new JournalReadOnlyError(this.path);
    return this.runId;
  }

  private assertOpen(): void {
    if (this.closed) throw new JournalClosedError(this.path);
  }

  private decoded(row: OrderRow | undefined): StoredOrder<O> | undefined {
    return row === undefined ? undefined : toStoredOrder(row, this.codec);
  }
}

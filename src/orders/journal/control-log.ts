/**
 * The control log: every pause and resume of quoting (by an operator, or by the kill switch), one
 * append-only row each (`control_changes`, schema version 3). The pause set in force is the fold
 * of the log, so it survives a restart however the process ended: the daemon writes a change
 * (durably) before it acts on it, and reads the whole log back when its journal opens.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** A connection (`schema.ts`'s `Db`; not imported from there, which imports this file's table). */
type Db = BetterSqlite3.Database;

/** What a change does: a scope paused, or the pauses within a scope lifted. */
export type ControlAction = 'pause' | 'resume';

/** One change as written. `pair`/`side` null: every pair / both sides. */
export interface ControlChangeInput {
  readonly action: ControlAction;
  readonly pair: string | null;
  readonly side: 'BUY' | 'SELL' | null;
  /** Why (`operator`, `kill-switch`). */
  readonly reason: string;
  /** Who asked (a token id and address, or `kill-switch`). */
  readonly by: string;
  readonly detail: string;
  readonly at: number;
}

/** One change as read, with its sequence number. */
export interface ControlChange extends ControlChangeInput {
  readonly seq: number;
}

/** The table (migration 3). */
export const CONTROL_LOG_SQL = `
CREATE TABLE control_changes (
  seq    INTEGER PRIMARY KEY AUTOINCREMENT,
  action TEXT NOT NULL CHECK (action IN ('pause', 'resume')),
  pair   TEXT,
  side   TEXT CHECK (side IS NULL OR side IN ('BUY', 'SELL')),
  reason TEXT NOT NULL,
  by     TEXT NOT NULL,
  detail TEXT NOT NULL,
  at     INTEGER NOT NULL
) STRICT;

CREATE TRIGGER control_changes_no_update BEFORE UPDATE ON control_changes
  BEGIN SELECT RAISE(ABORT, 'control_changes are append-only'); END;
CREATE TRIGGER control_changes_no_delete BEFORE DELETE ON control_changes
  BEGIN SELECT RAISE(ABORT, 'control_changes are append-only'); END;
`;

interface Row {
  seq: number;
  action: ControlAction;
  pair: string | null;
  side: 'BUY' | 'SELL' | null;
  reason: string;
  by: string;
  detail: string;
  at: number;
}

/** The control log's statements of one connection. */
export class ControlLog {
  private readonly insert;
  private readonly all;

  constructor(db: Db) {
    this.insert = db.prepare<[string, string | null, string | null, string, string, string, number], void>(
      'INSERT INTO control_changes (action, pair, side, reason, by, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.all = db.prepare<[], Row>(
      'SELECT seq, action, pair, side, reason, by, detail, at FROM control_changes ORDER BY seq',
    );
  }

  /** Appends a change (inside the caller's transaction); returns its sequence number. */
  append(c: ControlChangeInput): number {
    return Number(this.insert.run(c.action, c.pair, c.side, c.reason, c.by, c.detail, c.at).lastInsertRowid);
  }

  /** Every change, oldest first. */
  changes(): ControlChange[] {
    return this.all.all().map((r) => ({ ...r }));
  }
}

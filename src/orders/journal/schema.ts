/**
 * The journal's SQLite schema and connection settings: the forward-only migrations (STRICT
 * tables; money as decimal TEXT, never REAL; append-only fills and fill marks), the schema
 * version, and the pragmas that make "journal before IO" hold (WAL with `synchronous = FULL`:
 * a returned commit survives a crash and a power loss). Run by `openJournal` on every open.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { CONTROL_LOG_SQL } from './control-log.js';
import { JournalSchemaError } from './errors.js';

/** A better-sqlite3 connection. */
export type Db = BetterSqlite3.Database;

/** One forward migration. Applied once, in its own transaction, in version order. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  /** SQL run with `db.exec`, or a function for migrations that need to transform rows. */
  readonly up: string | ((db: Db) => void);
}

/**
 * Version 1. Conventions: every table is STRICT (a money column holds TEXT, never a REAL);
 * money and quantities are canonical decimal TEXT (see `decText`); times are INTEGER epoch ms;
 * snapshots and events are JSON TEXT with tagged decimals (see `codec.ts`).
 */
const V1 = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE intents (
  local_key       TEXT PRIMARY KEY,
  slot            TEXT,
  pair            TEXT NOT NULL,
  side            TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  type            TEXT NOT NULL,
  price           TEXT,
  quantity        TEXT NOT NULL,
  client_order_id TEXT,
  created_at      INTEGER NOT NULL
) STRICT;

CREATE TABLE orders (
  local_key       TEXT PRIMARY KEY,
  slot            TEXT,
  pair            TEXT NOT NULL,
  side            TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  client_order_id TEXT UNIQUE,
  order_id        TEXT UNIQUE,
  contract_id     TEXT,
  state           TEXT NOT NULL,
  filled          TEXT NOT NULL,
  snapshot        TEXT NOT NULL CHECK (json_valid(snapshot)),
  is_foreign      INTEGER NOT NULL CHECK (is_foreign IN (0, 1)),
  last_seq        INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX orders_state ON orders (state);
CREATE INDEX orders_slot ON orders (slot) WHERE slot IS NOT NULL;
CREATE INDEX orders_pair_side ON orders (pair, side);
CREATE INDEX orders_contract_id ON orders (contract_id) WHERE contract_id IS NOT NULL;

CREATE TABLE transitions (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  local_key  TEXT NOT NULL REFERENCES orders (local_key),
  from_state TEXT,
  to_state   TEXT NOT NULL,
  event_type TEXT NOT NULL,
  event      TEXT CHECK (event IS NULL OR json_valid(event)),
  at         INTEGER NOT NULL
) STRICT;
CREATE INDEX transitions_key ON transitions (local_key, seq);

-- Every contractId (and orderId) an order ever had resolves to it: a partial fill rotates the
-- contractId, a re-prepare may change the orderId.
CREATE TABLE contract_ids (
  contract_id TEXT PRIMARY KEY,
  local_key   TEXT NOT NULL REFERENCES orders (local_key),
  seq         INTEGER NOT NULL REFERENCES transitions (seq)
) STRICT;
CREATE INDEX contract_ids_key ON contract_ids (local_key, seq);

CREATE TABLE order_ids (
  order_id  TEXT PRIMARY KEY,
  local_key TEXT NOT NULL REFERENCES orders (local_key),
  seq       INTEGER NOT NULL REFERENCES transitions (seq)
) STRICT;
CREATE INDEX order_ids_key ON order_ids (local_key, seq);

-- UNIQUE (order_id, filled): the same cumulative fill applied twice is stored once.
CREATE TABLE fills (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id    TEXT NOT NULL,
  local_key   TEXT REFERENCES orders (local_key),
  contract_id TEXT,
  pair        TEXT NOT NULL,
  side        TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price       TEXT,
  filled      TEXT NOT NULL,
  delta       TEXT NOT NULL,
  at          INTEGER NOT NULL,
  UNIQUE (order_id, filled)
) STRICT;
CREATE INDEX fills_key ON fills (local_key) WHERE local_key IS NOT NULL;

-- The audit tables are append-only, enforced by the store itself.
CREATE TRIGGER transitions_no_update BEFORE UPDATE ON transitions
  BEGIN SELECT RAISE(ABORT, 'transitions are append-only'); END;
CREATE TRIGGER transitions_no_delete BEFORE DELETE ON transitions
  BEGIN SELECT RAISE(ABORT, 'transitions are append-only'); END;
CREATE TRIGGER fills_no_update BEFORE UPDATE ON fills
  BEGIN SELECT RAISE(ABORT, 'fills are append-only'); END;
CREATE TRIGGER fills_no_delete BEFORE DELETE ON fills
  BEGIN SELECT RAISE(ABORT, 'fills are append-only'); END;

INSERT INTO meta (key, value) VALUES ('client_order_counter', '0'), ('run_counter', '0');
`;

/**
 * Fill history (issue 28), a self-contained entry that can be renumbered. `fills` gains a
 * nullable `party` column (the party that filled; null: the store's one party, until several
 * parties share a store) and an index on time. What is learnt about a fill after it is stored
 * (the daemon's reference price when it saw the fill, the fee, each markout as its horizon
 * passes) goes into `fill_marks`: append-only like `fills`, keyed by the fill's
 * (order_id, filled) and one row per kind, so the fills rows themselves are never updated.
 */
const FILL_HISTORY = `
ALTER TABLE fills ADD COLUMN party TEXT;
CREATE INDEX fills_at ON fills (at);

CREATE TABLE fill_marks (
  order_id TEXT NOT NULL,
  filled   TEXT NOT NULL,
  kind     TEXT NOT NULL,
  value    TEXT NOT NULL,
  at       INTEGER NOT NULL,
  PRIMARY KEY (order_id, filled, kind)
) STRICT;

CREATE TRIGGER fill_marks_no_update BEFORE UPDATE ON fill_marks
  BEGIN SELECT RAISE(ABORT, 'fill_marks are append-only'); END;
CREATE TRIGGER fill_marks_no_delete BEFORE DELETE ON fill_marks
  BEGIN SELECT RAISE(ABORT, 'fill_marks are append-only'); END;
`;

/** The migrations of this build, ascending. Append only; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, description: 'initial schema', up: V1 },
  { version: 2, description: 'fill history: fills.party, fill_marks', up: FILL_HISTORY },
  { version: 3, description: 'control log: control_changes (pause and resume)', up: CONTROL_LOG_SQL },
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * The page cache of a journal connection, KiB: SQLite's own default. The journal's hot pages are
 * the newest (appends, the open orders' rows and their index entries); older pages are read back
 * from the OS page cache when a lookup needs them, which a daemon does rarely (recovery, reads by
 * an old id).
 */
export const JOURNAL_CACHE_KIB = 2_000;

/**
 * Connection settings, applied on every open (they are per connection, except journal_mode).
 *
 * - `journal_mode = WAL`: a commit appends to the log, readers (an operator's `ledger-mm orders`)
 *   never block the writer and the writer never blocks them.
 * - `synchronous = FULL`: every commit fsyncs the WAL before `COMMIT` returns. This is what
 *   "journal before IO" rests on: once a write method returns, the row survives a process crash
 *   AND a power loss, so the venue call made next can always be found again. WAL's `NORMAL`
 *   would survive a process crash but may lose the last commits on power loss, i.e. forget an
 *   order the venue already holds.
 * - `foreign_keys = ON`: transitions, id history and fills cannot point at a missing order.
 * - `busy_timeout`: a checkpoint racing an operator's reader waits instead of failing.
 * - `cache_size`: {@link JOURNAL_CACHE_KIB} of page cache per connection. better-sqlite3 is
 *   compiled with 16 000 KiB, and the journal only grows, so a daemon's page cache (memory
 *   outside the JS heap) grew with the file for hours: about 4 MiB an hour in paper mode.
 *
 * Deliberately NOT `locking_mode = EXCLUSIVE`: in WAL mode it holds the database lock for the
 * connection's lifetime, so every other reader (the operator CLI, a hot backup) would fail with
 * SQLITE_BUSY while the daemon runs. One-writer-per-store is enforced by the store lock file
 * instead (see `store-lock.ts`), which also names the holder in its error.
 */
export function applyPragmas(db: Db, readOnly: boolean): void {
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${JOURNAL_CACHE_KIB}`);
  if (!readOnly) {
    const mode = db.pragma('journal_mode = WAL', { simple: true }) as string;
    if (mode.toLowerCase() !== 'wal')
      throw new JournalSchemaError(`journal: WAL mode unavailable (got ${mode})`);
  }
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
}

/** The store's schema version: 0 for an empty database. */
export function schemaVersion(db: Db): number {
  const table = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'schema_version'")
    .get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number | null };
  return row.v ?? 0;
}

/** What {@link migrate} did. */
export interface MigrationReport {
  readonly from: number;
  readonly to: number;
  readonly applied: readonly number[];
}

/**
 * Brings the store forward to the last of `migrations`. Each migration runs in its own
 * immediate transaction together with its `schema_version` row, so a crash mid-migration leaves
 * the previous version intact. Idempotent. Throws {@link JournalSchemaError} when the store is
 * newer than this build (never downgrade or guess).
 */
export function migrate(db: Db, now: number, migrations: readonly Migration[] = MIGRATIONS): MigrationReport {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT',
  );
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new JournalSchemaError(`journal: migration ${i} has version ${m.version}, expected ${i + 1}`);
  });
  const from = schemaVersion(db);
  const target = migrations.at(-1)?.version ?? 0;
  if (from > target) {
    throw new JournalSchemaError(
      `journal schema version ${from} is newer than this build supports (${target}); upgrade ledger-mm`,
    );
  }
  const applied: number[] = [];
  const insert = db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)');
  for (const m of migrations) {
    if (m.version <= from) continue;
    db.transaction(() => {
      if (typeof m.up === 'string') db.exec(m.up);
      else m.up(db);
      insert.run(m.version, m.description, now);
    }).immediate();
    applied.push(m.version);
  }
  return { from, to: Math.max(from, target), applied };
}

/**
 * Checks a store opened read-only: it must already be at exactly this build's version (a
 * read-only open cannot migrate). Throws {@link JournalSchemaError} otherwise.
 */
export function assertSchemaCurrent(db: Db, path: string): void {
  const v = schemaVersion(db);
  if (v !== SCHEMA_VERSION) {
    throw new JournalSchemaError(
      `journal ${path} has schema version ${v}, this build reads ${SCHEMA_VERSION}; open it read-write once to migrate`,
    );
  }
}

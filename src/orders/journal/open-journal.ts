/**
 * Opening the order journal: {@link openJournal} takes the store lock (one process per store),
 * opens the SQLite file through the driver this Node can run, applies the connection pragmas and
 * migrates the schema, then hands back the {@link Journal}. A read-only open, for operator tools
 * beside a running daemon, takes no lock, migrates nothing and writes nothing.
 */
import { Database } from './sqlite-driver.js';
import { systemClock } from '../../core/clock.js';
import { decimalJsonCodec } from './codec.js';
import { JournalInputError } from './errors.js';
import { Journal, type JournalClock } from './journal.js';
import { applyPragmas, assertSchemaCurrent, migrate, type Db } from './schema.js';
import { acquireStoreLock } from './store-lock.js';
import type { JournalOrder, SnapshotCodec } from './types.js';

/** Default of {@link JournalOptions.groupCommitMs}. */
export const DEFAULT_GROUP_COMMIT_MS = 250;

/** Options of {@link openJournal}. */
export interface JournalOptions<O> {
  /** The SQLite file. Parent directories are created; `<path>.lock.sqlite` holds the store lock (see store-lock.ts). */
  readonly path: string;
  /**
   * Source of the journal's own timestamps (`at`, `created_at`, `updated_at`) and, when it has
   * them, of the group-commit timer (else the global timers).
   */
  readonly clock?: JournalClock;
  /**
   * How long relaxed writes may wait for a durable one to commit with before they are committed
   * on their own. 0 commits each write at once. Default {@link DEFAULT_GROUP_COMMIT_MS}.
   */
  readonly groupCommitMs?: number;
  /** Snapshot codec; defaults to JSON with tagged decimals ({@link decimalJsonCodec}). */
  readonly codec?: SnapshotCodec<O>;
  /**
   * For operator tools reading a store a daemon may hold: no lock, no migration, no writes.
   * WAL lets it read while the daemon writes.
   */
  readonly readOnly?: boolean;
}

/**
 * Opens (creating and migrating as needed) the durable order journal and takes the store lock.
 * Throws `StoreLockedError` when another live process, or another journal in this process,
 * holds the store.
 */
export function openJournal<O extends JournalOrder = JournalOrder>(options: JournalOptions<O>): Journal<O> {
  const clock = options.clock ?? systemClock;
  const codec = options.codec ?? decimalJsonCodec<O>();
  if (options.readOnly === true) {
    const db = new Database(options.path, { readonly: true, fileMustExist: true });
    try {
      applyPragmas(db, true);
      assertSchemaCurrent(db, options.path);
      return new Journal<O>({ path: options.path, db, lock: null, clock, codec, schema: null, groupMs: 0 });
    } catch (err) {
      db.close();
      throw err;
    }
  }
  const lock = acquireStoreLock(options.path);
  let db: Db | undefined;
  try {
    db = new Database(options.path);
    applyPragmas(db, false);
    const schema = migrate(db, clock.now());
    const groupMs = options.groupCommitMs ?? DEFAULT_GROUP_COMMIT_MS;
    if (!Number.isFinite(groupMs) || groupMs < 0) {
      throw new JournalInputError(`journal: groupCommitMs must be >= 0, got ${groupMs}`);
    }
    return new Journal<O>({ path: options.path, db, lock, clock, codec, schema, groupMs });
  } catch (err) {
    db?.close();
    lock.release();
    throw err;
  }
}

/**
 * One process per store. Two daemons on one store would be two signers for one party, which
 * breaks the venue's one-prepare-at-a-time rule and lets both believe they own the same orders.
 *
 * The lock is a kernel lock: an exclusive SQLite lock (POSIX `fcntl` record locks) on a small
 * database next to the store, `<store>.lock.sqlite`, taken in `locking_mode=EXCLUSIVE` and held by
 * one open connection for the process's lifetime. The kernel drops it when the process dies, by
 * any death (kill -9, an OOM kill, a stop timeout), so a recreated container starts cleanly
 * whatever its hostname, pid or clock; and a second live process is refused on the same host and
 * on every host that mounts the store on a filesystem with POSIX locks (a local volume, NFSv4,
 * CephFS, EFS). Within one process SQLite tracks its own connections' locks, so a second open in
 * the same process is refused too.
 *
 * `<store>.lock` is a JSON note beside it naming the holder (pid, host, start time, a nonce),
 * written once the kernel lock is held and removed on release. It only informs: a refused open
 * names the holder from it, and a note left by a dead holder is reported as taken over. The lock
 * database is never deleted (a process may be waiting on that inode).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Database } from './sqlite-driver.js';

/** What the lock's note says about its holder. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** Epoch ms. */
  readonly startedAt: number;
  readonly nonce: string;
}

/** The store is held by another live process (or another journal in this one). */
export class StoreLockedError extends Error {
  override readonly name = 'StoreLockedError';
  constructor(
    /** The store path. */
    readonly path: string,
    /** The holder's note, `<store>.lock`. */
    readonly lockPath: string,
    /** Null when the note could not be read (being written, or removed by hand). */
    readonly holder: LockHolder | null,
  ) {
    super(
      holder === null
        ? `store ${path} is locked by another process (its note ${lockPath} is unreadable); only one process may use a store (one signer per party)`
        : `store ${path} is locked by pid ${holder.pid} on ${holder.host} since ${new Date(holder.startedAt).toISOString()}; ` +
            `only one process may use a store (one signer per party). The lock is held by the kernel for that live process: stop it first`,
    );
  }
}

/** A held store lock. */
export interface StoreLock {
  /** The holder's note. */
  readonly lockPath: string;
  readonly holder: LockHolder;
  /** The note of a previous holder that died holding the store (a crash), else null. */
  readonly staleTakenOver: LockHolder | null;
  /** Drops the kernel lock and deletes the note if it is still ours. Idempotent. */
  release(): void;
}

/**
 * How long an open waits for the lock before refusing: long enough to ride out another process's
 * probe ({@link storeLockHeld} holds a shared lock for microseconds), short enough to refuse a
 * second daemon at once.
 */
const ACQUIRE_WAIT_MS = 500;

/** The kernel lock's database of the store at `storePath`. */
export function lockDatabasePath(storePath: string): string {
  return `${storePath}.lock.sqlite`;
}

/**
 * Takes the lock of the store at `storePath`, creating parent directories. Throws
 * {@link StoreLockedError} when a live process holds it.
 */
export function acquireStoreLock(storePath: string): StoreLock {
  const lockPath = `${storePath}.lock`;
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  const db = new Database(lockDatabasePath(storePath), { timeout: ACQUIRE_WAIT_MS });
  const holder: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    // Wall clock, not the injected one: the note is read by other processes and by operators.
    startedAt: Date.now(),
    nonce: randomBytes(8).toString('hex'),
  };
  try {
    // EXCLUSIVE locking mode: once written, the connection keeps its exclusive lock until closed.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), note TEXT NOT NULL)');
    db.prepare('INSERT OR REPLACE INTO holder (id, note) VALUES (1, ?)').run(JSON.stringify(holder));
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    if (isBusy(err)) throw new StoreLockedError(storePath, lockPath, readStoreLock(storePath));
    throw err;
  }
  // The kernel lock is ours: any note still there is a dead holder's.
  let staleTakenOver: LockHolder | null;
  try {
    staleTakenOver = readStoreLock(storePath);
    writeNote(lockPath, holder);
  } catch (err) {
    db.close();
    throw err;
  }
  let released = false;
  return {
    lockPath,
    holder,
    staleTakenOver,
    release() {
      if (released) return;
      released = true;
      try {
        // Never delete a note that is no longer ours (an operator removed ours and another took it).
        if (readStoreLock(storePath)?.nonce === holder.nonce) fs.rmSync(lockPath, { force: true });
      } finally {
        db.close();
      }
    },
  };
}

/**
 * True when a live process holds the store's kernel lock (this one included). Takes a shared
 * lock for an instant; never creates the lock database.
 */
export function storeLockHeld(storePath: string): boolean {
  let db: Database;
  try {
    db = new Database(lockDatabasePath(storePath), { readonly: true, fileMustExist: true, timeout: 0 });
  } catch {
    return false; // never locked on this filesystem (or by a version before the kernel lock)
  }
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return false;
  } catch (err) {
    if (isBusy(err)) return true;
    throw err;
  } finally {
    db.close();
  }
}

/** Reads the holder's note of the store at `storePath`, or null when there is no readable note. */
export function readStoreLock(storePath: string): LockHolder | null {
  const raw = readOrNull(`${storePath}.lock`);
  return raw === null ? null : parseHolder(raw);
}

/** Writes the note through a temporary file and a rename: a reader sees the old or the new one. */
function writeNote(lockPath: string, holder: LockHolder): void {
  const tmp = `${lockPath}.${process.pid}-${holder.nonce}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, lockPath);
}

function parseHolder(raw: string): LockHolder | null {
  try {
    const v = JSON.parse(raw) as Partial<LockHolder>;
    if (!Number.isSafeInteger(v.pid) || (v.pid ?? 0) <= 0) return null;
    if (typeof v.host !== 'string' || typeof v.nonce !== 'string' || typeof v.startedAt !== 'number')
      return null;
    return { pid: v.pid!, host: v.host, startedAt: v.startedAt, nonce: v.nonce };
  } catch {
    return null;
  }
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT') return null;
    throw err;
  }
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

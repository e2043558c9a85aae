import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One process per store. Two daemons on one store would be two signers for one party, which
 * breaks the venue's one-prepare-at-a-time rule and lets both believe they own the same orders.
 *
 * The lock is a file next to the store, `<store>.lock`, created with O_EXCL (`'wx'`), holding
 * the owner's pid, host, start time and a random nonce. A lock whose pid is no longer alive on
 * this host (a kill -9, a power loss) is stale and taken over. A second open in the same
 * process sees its own live pid and is refused like any other; a lock with our pid that this
 * process does not hold is a previous incarnation's (a container restarts its daemon under the
 * same pid, often 1) and is stale.
 *
 * Known limits: pid reuse by another process can make a stale lock look held (the error names
 * the file to delete; comparing process start times was rejected because a wall-clock step could
 * then make a live lock look stale, which is the dangerous direction); a lock written on another
 * host is never considered stale.
 */

/** What a lock file says about its holder. */
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
    readonly lockPath: string,
    /** Null when the lock file could not be read (being written, or garbage). */
    readonly holder: LockHolder | null,
  ) {
    super(
      holder === null
        ? `store ${path} is locked (${lockPath} is unreadable); if no ledger-mm process uses this store, delete ${lockPath}`
        : `store ${path} is locked by pid ${holder.pid} on ${holder.host} since ${new Date(holder.startedAt).toISOString()}; ` +
            `only one process may use a store (one signer per party). If pid ${holder.pid} is not a ledger-mm process, delete ${lockPath}`,
    );
  }
}

/** A held store lock. */
export interface StoreLock {
  readonly lockPath: string;
  readonly holder: LockHolder;
  /** The previous holder when a stale lock was taken over, else null. */
  readonly staleTakenOver: LockHolder | null;
  /** Deletes the lock file if it is still ours. Idempotent. */
  release(): void;
}

/** How old an unreadable lock file must be before it counts as a crash leftover. */
const UNREADABLE_GRACE_MS = 10_000;
const ATTEMPTS = 3;

/** Nonces of the locks this process holds; shared by every copy of this module in the process. */
const heldHere: Set<string> = ((globalThis as Record<symbol, Set<string> | undefined>)[
  Symbol.for('ledger-mm.store-locks')
] ??= new Set<string>());

/**
 * Takes the lock of the store at `storePath`, creating parent directories. Throws
 * {@link StoreLockedError} when a live process holds it.
 */
export function acquireStoreLock(storePath: string): StoreLock {
  const lockPath = `${storePath}.lock`;
  const holder: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    // Wall clock, not the injected one: the lock is read by other processes and by operators.
    startedAt: Date.now(),
    nonce: randomBytes(8).toString('hex'),
  };
  const content = `${JSON.stringify(holder)}\n`;
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  let staleTakenOver: LockHolder | null = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (tryCreate(lockPath, content)) return held(lockPath, holder, staleTakenOver);
    const raw = readOrNull(lockPath);
    if (raw === null) continue; // released between our create and read: try again
    const current = parseHolder(raw);
    if (current === null) {
      if (!olderThan(lockPath, UNREADABLE_GRACE_MS)) throw new StoreLockedError(storePath, lockPath, null);
    } else if (current.host !== os.hostname() || isHeld(current)) {
      throw new StoreLockedError(storePath, lockPath, current);
    }
    if (removeIfUnchanged(lockPath, raw)) staleTakenOver = current ?? staleTakenOver;
  }
  const last = readOrNull(lockPath);
  throw new StoreLockedError(storePath, lockPath, last === null ? null : parseHolder(last));
}

/** True when the holder (on this host) is alive and, if it has our pid, is really us. */
function isHeld(holder: LockHolder): boolean {
  if (holder.pid === process.pid) return heldHere.has(holder.nonce);
  return isAlive(holder.pid);
}

function held(lockPath: string, holder: LockHolder, staleTakenOver: LockHolder | null): StoreLock {
  heldHere.add(holder.nonce);
  let released = false;
  return {
    lockPath,
    holder,
    staleTakenOver,
    release() {
      if (released) return;
      released = true;
      heldHere.delete(holder.nonce);
      const raw = readOrNull(lockPath);
      // Never delete a lock that is no longer ours (an operator removed ours and another took it).
      if (raw !== null && parseHolder(raw)?.nonce === holder.nonce) fs.rmSync(lockPath, { force: true });
    },
  };
}

/** Creates the lock file with O_EXCL; false when it already exists. */
function tryCreate(lockPath: string, content: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, 'wx', 0o600);
  } catch (err) {
    if (errno(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Removes a stale lock only if it still holds `raw`. The file is first renamed to a name only we
 * use, then checked: if a racing process had meanwhile replaced it with a fresh lock, that lock
 * is put back (link fails harmlessly if yet another one exists) and we report nothing removed.
 */
function removeIfUnchanged(lockPath: string, raw: string): boolean {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (err) {
    if (errno(err) === 'ENOENT') return false;
    throw err;
  }
  const moved = readOrNull(aside);
  if (moved !== raw) {
    try {
      fs.linkSync(aside, lockPath);
    } catch (err) {
      if (errno(err) !== 'EEXIST') throw err;
    }
  }
  fs.rmSync(aside, { force: true });
  return moved === raw;
}

/** True when `pid` exists (EPERM: it exists but belongs to another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) !== 'ESRCH';
  }
}

/** Reads the holder of the lock of `storePath`, or null when there is no readable lock. */
export function readStoreLock(storePath: string): LockHolder | null {
  const raw = readOrNull(`${storePath}.lock`);
  return raw === null ? null : parseHolder(raw);
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
    if (errno(err) === 'ENOENT') return null;
    throw err;
  }
}

function olderThan(file: string, ms: number): boolean {
  try {
    // File mtimes are wall-clock time, so this compares with the wall clock, not the injected one.
    return Date.now() - fs.statSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

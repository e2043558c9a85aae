/**
 * Read-only access to the order journal for operator commands. A read-only open takes no lock,
 * migrates nothing and writes nothing, so it works next to a running daemon (SQLite WAL lets it
 * read while the daemon writes). A store that does not exist is reported, never created.
 */
import { existsSync } from 'node:fs';
import {
  openJournal,
  readStoreLock,
  storeLockHeld,
  type Journal,
  type LockHolder,
  type StoredOrder,
} from '../../orders/journal/index.js';
import { TERMINAL_STATES, type TrackedOrder } from '../../orders/fsm/index.js';
import type { Order } from '../../venue/schemas.js';
import { errorText } from './operator-setup.js';

/** The journal as an operator command sees it. */
export type JournalRead =
  | { readonly kind: 'open'; readonly path: string; readonly journal: Journal<TrackedOrder> }
  | { readonly kind: 'missing'; readonly path: string }
  | { readonly kind: 'error'; readonly path: string; readonly message: string };

/** Local states that need a person: the order may be on the book and cannot be settled alone. */
export { ATTENTION_STATES } from '../../orders/fsm/index.js';

/** Opens the store at `path` read-only; `missing` when there is no store there. Close it after use. */
export function readJournal(path: string): JournalRead {
  if (!existsSync(path)) return { kind: 'missing', path };
  try {
    return { kind: 'open', path, journal: openJournal<TrackedOrder>({ path, readOnly: true }) };
  } catch (err) {
    return { kind: 'error', path, message: errorText(err) };
  }
}

/** Closes the journal of `read`, if it was opened. */
export function closeJournalRead(read: JournalRead): void {
  if (read.kind === 'open') read.journal.close();
}

/** One line saying what the journal read came to, for the text output. */
export function describeJournalRead(read: JournalRead): string {
  switch (read.kind) {
    case 'open':
      return `journal ${read.path}`;
    case 'missing':
      return `journal ${read.path} does not exist (no daemon has used this store): no order is known to it`;
    case 'error':
      return `journal ${read.path} could not be read: ${read.message}`;
  }
}

/** The journal part of a command's JSON output. */
export function journalReadJson(read: JournalRead): { path: string; exists: boolean; error: string | null } {
  return {
    path: read.path,
    exists: read.kind !== 'missing',
    error: read.kind === 'error' ? read.message : null,
  };
}

/** The journal's record of a venue order: by orderId (current or past), else by clientOrderId. */
export function journalRecordOf(read: JournalRead, order: Order): StoredOrder<TrackedOrder> | undefined {
  if (read.kind !== 'open') return undefined;
  const byOrderId = read.journal.findByOrderId(order.orderId);
  if (byOrderId !== undefined) return byOrderId;
  const coid = order.clientOrderId ?? null;
  return coid === null ? undefined : read.journal.findByClientOrderId(coid);
}

/** The journal's non-terminal orders, in creation order (empty when there is no journal). */
export function nonTerminalOrders(read: JournalRead): StoredOrder<TrackedOrder>[] {
  return read.kind === 'open' ? read.journal.loadOpenOrders(TERMINAL_STATES) : [];
}

/**
 * The live process holding the store's kernel lock (a running daemon), as its note names it, or
 * null when none does. A note left by a dead process is not a holder (the kernel dropped its lock).
 */
export function liveStoreHolder(path: string): LockHolder | null {
  if (!storeLockHeld(path)) return null;
  return (
    readStoreLock(path) ?? { pid: 0, host: 'unknown (the lock note is unreadable)', startedAt: 0, nonce: '' }
  );
}

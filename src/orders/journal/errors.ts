/** Base class of the journal's own errors. */
export class JournalError extends Error {
  override readonly name: string = 'JournalError';
}

/** Which id a conflict is about. */
export type JournalConflictKind = 'key' | 'clientOrderId' | 'orderId' | 'contractId' | 'state';

/**
 * A write that contradicts the store: an id that already belongs to another order, an unknown
 * or already-existing key, or a `prev` whose state is not the stored one (a stale or
 * out-of-order write). The transaction was rolled back: nothing was written, and the caller must
 * not perform the IO that depended on the write.
 */
export class JournalConflictError extends JournalError {
  override readonly name = 'JournalConflictError';
  constructor(
    readonly kind: JournalConflictKind,
    readonly id: string,
    readonly detail: string,
  ) {
    super(`journal conflict on ${kind} ${id}: ${detail}`);
  }
}

/** The store's schema is newer than this build, or otherwise unusable. */
export class JournalSchemaError extends JournalError {
  override readonly name = 'JournalSchemaError';
}

/** A method was called after `close()`. */
export class JournalClosedError extends JournalError {
  override readonly name = 'JournalClosedError';
  constructor(readonly path: string) {
    super(`journal ${path} is closed`);
  }
}

/** A write on a journal opened with `readOnly: true`. */
export class JournalReadOnlyError extends JournalError {
  override readonly name = 'JournalReadOnlyError';
  constructor(readonly path: string) {
    super(`journal ${path} was opened read-only`);
  }
}

/** An argument the journal cannot store (for example a fill without an orderId). */
export class JournalInputError extends JournalError {
  override readonly name = 'JournalInputError';
}

/**
 * A commit failed (disk full, I/O error): the writes it carried are lost, so the store no longer
 * matches what the process holds in memory. Every later write throws this, with the first
 * failure as `cause`, until the process restarts and recovers from the store and the venue.
 */
export class JournalFailedError extends JournalError {
  override readonly name = 'JournalFailedError';
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`journal ${path} failed to commit: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

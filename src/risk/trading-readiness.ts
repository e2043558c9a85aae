/**
 * Whether the account may trade and whether a pair's data is fresh enough to quote on.
 *
 * The account: not read yet, not ACTIVE (a SUSPENDED or DISABLED account is refused new
 * placements, its resting orders continue), or its API key failing (401) means "place nothing"
 * — but no forced cancels either, since the venue would refuse them too or leaves the orders
 * alone anyway. Everything else keeps running, so trading resumes by itself on the first good
 * account read.
 *
 * A pair's book: stale when its last good poll is older than `staleBookMs`; the pair then
 * places nothing and its quotes are cancelled. A pair never polled yet is given `staleBookMs`
 * from the gate's first evaluation before its orders are cancelled, so a restart does not pull
 * every quote before the first book poll has had a chance.
 */
import type { AccountView, BookView } from '../market/market-snapshot.js';

/** Why the account cannot trade, or null when it can. */
export function accountNotReady(account: AccountView | null): string | null {
  if (account === null) return 'the account has not been read yet';
  if (account.authFailing) return 'the API key is failing (401 on the last authenticated read)';
  if (account.status !== 'ACTIVE') return `the account is ${account.status}, not ACTIVE`;
  return null;
}

/** A pair's book freshness. */
export interface BookFreshness {
  readonly stale: boolean;
  /** True when the stale pair's quotes must be cancelled. */
  readonly cancel: boolean;
  readonly detail: string;
}

/** The freshness of `book` at `now`. */
export function bookFreshness(
  book: BookView | null,
  now: number,
  staleBookMs: number,
  gateStartedAt: number,
): BookFreshness {
  if (book === null) {
    const waited = now - gateStartedAt;
    return {
      stale: true,
      cancel: waited > staleBookMs,
      detail: `no book poll has succeeded yet (${waited} ms since the gate started)`,
    };
  }
  const age = now - book.receivedAt;
  if (age > staleBookMs) {
    return {
      stale: true,
      cancel: true,
      detail: `last good book poll ${age} ms ago, limit ${staleBookMs} ms`,
    };
  }
  return { stale: false, cancel: false, detail: '' };
}

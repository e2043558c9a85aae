/**
 * Catches a book that polls fine but no longer moves: the venue serves GET /orderbook from a
 * cached projection, and a projection that stopped refreshing answers every poll with the same
 * snapshot (same `asOf.sequence`). The market state cannot tell that from a quiet book (an equal
 * sequence is "nothing changed"), so the daemon looks for proof that the book DID change:
 *
 * - a public trade of the pair executed after the current sequence was first seen (a trade
 *   always changes the book); `executedAt` is the venue's clock, so a margin of
 *   {@link CLOCK_MARGIN_MS} absorbs skew between the two clocks;
 * - one of our orders came to rest, and its submission started after the sequence was first
 *   seen (the commit, which puts it on the book, can only follow the submission);
 * - one of our cancels committed, and its cancel started after the sequence was first seen.
 *
 * Once such proof is older than the grace (the risk gate's `staleBookMs`: the projection has had
 * every chance to show the change) and the sequence still has not moved, the pair's book is
 * stale: {@link BookWatch.adjust} presents it as last confirmed when its sequence was first seen,
 * so the risk gate's stale-book rule halts the pair and cancels its quotes, and the strategy
 * stops quoting it. A new sequence clears everything.
 */
import type { MarketSnapshot, PairMarket } from './market-snapshot.js';

/** Slack for clock skew between the venue's `executedAt` and the daemon's clock, and projection lag. */
export const CLOCK_MARGIN_MS = 2_000;

interface PairWatch {
  sequence: number;
  /** Daemon clock ms when `sequence` was first seen. */
  since: number;
  /** Daemon clock ms when the first proof of a change after `since` was observed, or null. */
  proofAt: number | null;
  proof: string | null;
}

/** A pair whose book is proven stale. */
export interface StaleBook {
  readonly pair: string;
  /** When the frozen sequence was first seen. */
  readonly since: number;
  readonly proof: string;
}

/** The per-pair watch; see the module doc. Clock values come in as arguments. */
export class BookWatch {
  private readonly pairs = new Map<string, PairWatch>();

  /** Takes the books of a snapshot (call once per cycle, before {@link adjust}). */
  observe(snapshot: MarketSnapshot): void {
    for (const market of Object.values(snapshot.pairs)) {
      const book = market.book;
      if (book === null) continue;
      const w = this.pairs.get(market.pair);
      if (w === undefined || w.sequence !== book.sequence) {
        this.pairs.set(market.pair, {
          sequence: book.sequence,
          since: snapshot.now,
          proofAt: null,
          proof: null,
        });
        continue;
      }
      const newest = market.trades[0];
      if (newest !== undefined && newest.at > w.since + CLOCK_MARGIN_MS) {
        this.prove(w, snapshot.now, `trade ${newest.tradeId} executed after the book last changed`);
      }
    }
  }

  /**
   * Records that the book of `pair` changed at some time after `after` (daemon clock), as
   * observed at `now`: an order of ours rested, or a cancel of ours committed.
   */
  changedAfter(pair: string, after: number, now: number, what: string): void {
    const w = this.pairs.get(pair);
    if (w === undefined || after <= w.since + CLOCK_MARGIN_MS / 2) return;
    this.prove(w, now, what);
  }

  /** The pairs proven stale at `now`, given the grace. */
  stale(now: number, graceMs: number): StaleBook[] {
    const out: StaleBook[] = [];
    for (const [pair, w] of this.pairs) {
      if (w.proofAt !== null && w.proof !== null && now - w.proofAt > graceMs) {
        out.push({ pair, since: w.since, proof: w.proof });
      }
    }
    return out;
  }

  /**
   * `snapshot` with the books of stale pairs stamped as received when their sequence was first
   * seen (so their age shows). Returns `snapshot` itself when nothing is stale.
   */
  adjust(snapshot: MarketSnapshot, stale: readonly StaleBook[]): MarketSnapshot {
    if (stale.length === 0) return snapshot;
    const pairs: Record<string, PairMarket> = { ...snapshot.pairs };
    for (const s of stale) {
      const market = pairs[s.pair];
      if (market?.book == null) continue;
      const receivedAt = Math.min(market.book.receivedAt, s.since);
      pairs[s.pair] = Object.freeze({ ...market, book: Object.freeze({ ...market.book, receivedAt }) });
    }
    return Object.freeze({ ...snapshot, pairs: Object.freeze(pairs) });
  }

  private prove(w: PairWatch, now: number, what: string): void {
    if (w.proofAt !== null) return;
    w.proofAt = now;
    w.proof = what;
  }
}

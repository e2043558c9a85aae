/**
 * The simulated venue's lagging view of its books: {@link BookProjection} serves GET /orderbook
 * the live book as it stood at the last refresh boundary (every `lagMs`), brought up to date
 * lazily before each read and each book change, with no timer on the clock, and can be frozen by
 * a stale-projection fault. The daemon's book pollers read this view, never the live book.
 */
import type { Levels, PairBook } from './order-book.js';

/** What GET /orderbook/{pair} serves. */
export interface ProjectedBook {
  bids: Levels;
  asks: Levels;
  sequence: number;
  updateId: number | null;
  /** Clock ms of the refresh this snapshot belongs to. */
  refreshedAt: number;
}

interface PairProjection {
  snap: ProjectedBook;
  /** The refresh boundary the snapshot reflects. */
  boundary: number;
}

/**
 * The cached order-book projection that GET /orderbook reads. It is refreshed every `lagMs`:
 * a read at time t sees the live book as it was at the last boundary `⌊t/lagMs⌋·lagMs`.
 *
 * No timer runs. Instead the projection is brought up to date lazily before every read and
 * before every book mutation: if a boundary has passed since the last snapshot, the state just
 * before the mutation is exactly the state at that boundary (any earlier mutation inside the
 * same window would already have taken the snapshot). That gives the periodic-refresh
 * semantics exactly, with nothing left scheduled on the clock.
 *
 * A stale-projection fault freezes refreshing until a given time.
 */
export class BookProjection {
  private readonly pairs = new Map<string, PairProjection>();
  private frozenUntil = -Infinity;

  constructor(
    private readonly lagMs: number,
    private readonly now: () => number,
    private readonly ledgerOffset: () => number,
  ) {}

  /** Hook for {@link PairBook}: capture the pre-change state when a refresh boundary has passed. */
  beforeChange(book: PairBook): void {
    this.refresh(book);
  }

  /** The projected snapshot of `book` at the current time. */
  read(book: PairBook): ProjectedBook {
    if (this.lagMs <= 0 && !this.isFrozen()) return this.capture(book, this.now());
    this.refresh(book);
    return this.pairs.get(book.pair)!.snap;
  }

  /** Stops refreshing until clock time `until` (a stale-projection fault). */
  freeze(until: number): void {
    this.frozenUntil = Math.max(this.frozenUntil, until);
  }

  isFrozen(): boolean {
    return this.now() < this.frozenUntil;
  }

  private refresh(book: PairBook): void {
    const now = this.now();
    const boundary = this.lagMs > 0 ? Math.floor(now / this.lagMs) * this.lagMs : now;
    const p = this.pairs.get(book.pair);
    if (p && (boundary <= p.boundary || this.isFrozen())) return;
    this.pairs.set(book.pair, { snap: this.capture(book, boundary), boundary });
  }

  private capture(book: PairBook, at: number): ProjectedBook {
    // An unchanged book (same version) has the same levels: reuse them, they are never mutated.
    const prev = this.pairs.get(book.pair)?.snap;
    const same = prev !== undefined && prev.sequence === book.version;
    return {
      bids: same ? prev.bids : book.levels('BUY'),
      asks: same ? prev.asks : book.levels('SELL'),
      sequence: book.version,
      updateId: this.ledgerOffset(),
      refreshedAt: at,
    };
  }
}

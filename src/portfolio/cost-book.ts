/**
 * The cost basis of every pair, kept up to date from the journal's stored fills: each call to
 * {@link CostBook.catchUp} folds the fills stored since the last one, in the journal's order
 * (its sequence numbers), so the book never depends on which process saw a fill, survives a
 * restart (it re-reads from the start), and never counts a fill twice.
 */
import type { Dec } from '../core/decimal.js';
import { FLAT, foldFill, type CostBasis } from './cost-basis.js';

/** A stored fill as the book reads it (the journal's `FillRecord` fits). */
export interface CostRecord {
  readonly seq: number;
  readonly pair: string;
  readonly side: string;
  readonly price: Dec | null;
  /** This fill's quantity. */
  readonly delta: Dec;
}

/** Reads the stored fills after a sequence number, oldest first. */
export type CostSource = (afterSeq: number) => readonly CostRecord[];

/** See the module doc. */
export class CostBook {
  private readonly bases = new Map<string, CostBasis>();
  private lastSeq = 0;

  /** Folds the fills `source` has after the last one folded; a source that throws is retried next time. */
  catchUp(source: CostSource): void {
    let records: readonly CostRecord[];
    try {
      records = source(this.lastSeq);
    } catch {
      return; // the journal is not open (yet, or any more): the book stays as it was
    }
    for (const r of records) {
      if (r.seq <= this.lastSeq) continue;
      this.bases.set(r.pair, foldFill(this.get(r.pair), { side: r.side, price: r.price, quantity: r.delta }));
      this.lastSeq = r.seq;
    }
  }

  /** Every pair that filled, with its cost basis. */
  entries(): [string, CostBasis][] {
    return [...this.bases];
  }

  /** A pair's cost basis (flat when it never filled). */
  get(pair: string): CostBasis {
    return this.bases.get(pair) ?? FLAT;
  }
}

/**
 * The firm's fill history as one sequence, for the cost basis (`portfolio/cost-book.ts`): each
 * party's journal numbers its own fills, so the firm renumbers them. Every read takes each
 * party's fills after the last it took (oldest first across parties, by time), gives them the
 * next firm numbers and keeps them; `after(seq)` answers from that list. The numbering lives as
 * long as the process: a restart builds the cost basis again from the journals' first fills, as
 * with one party.
 */
import type { FillRecord } from '../../orders/journal/index.js';

/** What the firm reads of each party's journal. */
export interface FillSource {
  readonly state: string;
  fillsAfter(seq: number): FillRecord[];
}

/** See the module doc. */
export class FirmFills {
  private readonly cursors: number[];
  private readonly merged: FillRecord[] = [];

  constructor(private readonly sources: readonly FillSource[]) {
    this.cursors = sources.map(() => 0);
  }

  /** The firm's fills numbered after `seq`, oldest first. */
  after(seq: number): FillRecord[] {
    this.catchUp();
    // Firm numbers run 1, 2, 3…: the fills after `seq` are the list's tail from index `seq`.
    return this.merged.slice(Math.max(0, seq));
  }

  private catchUp(): void {
    const fresh: FillRecord[] = [];
    this.sources.forEach((s, i) => {
      if (s.state === 'created' || s.state === 'failed') return;
      const rows = s.fillsAfter(this.cursors[i]!);
      for (const r of rows) {
        this.cursors[i] = Math.max(this.cursors[i]!, r.seq);
        fresh.push(r);
      }
    });
    fresh.sort((a, b) => a.at - b.at);
    for (const r of fresh) this.merged.push({ ...r, seq: this.merged.length + 1 });
  }
}

/**
 * When each side of each pair last filled, as the quote cycle sees it: each pass compares the
 * inventory's bought and sold totals with the last pass's and stamps a side whose total grew with
 * the pass's time. The first pass only learns the totals (fills before the start, replayed from
 * the journal, are not recent).
 */
import type { Dec } from '../core/decimal.js';
import type { InventoryView } from './inventory.js';

/** See the module doc. */
export class FillWatch {
  private readonly seen = new Map<string, Dec>();
  private readonly stamps: Record<string, number> = {};
  private primed = false;

  /** Observes the inventory at `now`; returns the last fill time by `<pair>:<side>`. */
  observe(inventory: InventoryView, now: number): Readonly<Record<string, number>> {
    for (const p of inventory.all()) {
      this.check(`${p.pair}:BUY`, p.bought, now);
      this.check(`${p.pair}:SELL`, p.sold, now);
    }
    this.primed = true;
    return { ...this.stamps };
  }

  private check(key: string, total: Dec, now: number): void {
    const before = this.seen.get(key);
    this.seen.set(key, total);
    if (!this.primed) return;
    if (before === undefined ? total.gt(0) : total.gt(before)) this.stamps[key] = now;
  }
}

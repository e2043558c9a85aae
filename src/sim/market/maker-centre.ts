/**
 * Where the background makers centre their book: the reference published `lagMs` before the last
 * published one (the model's "current" reference between steps), off by a
 * normal error of σ `noiseBps` bps drawn at each refresh. With both at 0 it is the current
 * reference and nothing is drawn (the book is built as it always was).
 */
import type { Rng } from '../rng.js';
import type { BackgroundConfig } from './market-config.js';

/** See the module doc. The market model records every published reference into it. */
export class MakerCentre {
  /** `(elapsed ms, price)` of published references, oldest first, trimmed to the lag. */
  private readonly history: Array<readonly [number, number]> = [];
  private elapsedMs = 0;

  constructor(
    private readonly config: Pick<BackgroundConfig, 'lagMs' | 'noiseBps'>,
    /** The pair's `maker-noise` stream (drawn only when `noiseBps` > 0). */
    private readonly rng: Rng,
  ) {}

  /** True when the makers do anything but centre on the current reference. */
  get active(): boolean {
    return this.config.lagMs > 0 || this.config.noiseBps > 0;
  }

  /** Records the reference published after `dtMs` more of the run. */
  record(dtMs: number, price: number): void {
    if (this.config.lagMs === 0) return;
    this.elapsedMs += Math.max(0, dtMs);
    this.history.push([this.elapsedMs, price]);
    const cutoff = this.elapsedMs - this.config.lagMs;
    // Keep the newest record at or before the cutoff: it is the lagged price.
    while (this.history.length > 1 && this.history[1]![0] <= cutoff) this.history.shift();
  }

  /** The centre of the next book, given the current reference. */
  centre(current: number): number {
    // The oldest record kept is the newest at or before the lag (or the run's first, early on).
    let price = this.config.lagMs > 0 ? (this.history[0]?.[1] ?? current) : current;
    if (this.config.noiseBps > 0) price *= Math.exp((this.config.noiseBps / 10_000) * this.rng.normal());
    return price;
  }
}

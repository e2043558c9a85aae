/**
 * A recorded price series as a pair's reference (replay). The series' first row is the
 * simulation's start; between rows the last recorded price holds (no interpolation: the lab's
 * reader has already refused gaps beyond its maximum). After the last row the last price holds.
 * The series is known in full, so informed takers can see ahead on it too.
 */
import type { Dec } from '../../core/decimal.js';
import type { ReplayConfig } from './dynamics-config.js';
import { quantize } from './quantize.js';
import type { ReferenceSource } from './reference-source.js';

/** See the module doc. */
export class ReplayedReference implements ReferenceSource {
  private readonly times: readonly number[];
  private readonly prices: readonly number[];
  private elapsedMs = 0;
  private index = 0;
  private stepCount = 0;

  constructor(
    replay: ReplayConfig,
    private readonly priceDecimals: number,
  ) {
    if (replay.times.length !== replay.prices.length || replay.times.length === 0)
      throw new RangeError(`${replay.source}: times and prices must be non-empty and of the same length`);
    for (let i = 1; i < replay.times.length; i++) {
      if (!(replay.times[i]! >= replay.times[i - 1]!))
        throw new RangeError(`${replay.source}: times must be sorted (row ${i + 1})`);
    }
    this.times = replay.times;
    this.prices = replay.prices;
  }

  get price(): number {
    return this.prices[this.index]!;
  }

  get decimal(): Dec {
    return quantize(this.price, this.priceDecimals, 'nearest');
  }

  get steps(): number {
    return this.stepCount;
  }

  step(dtMs: number): number {
    if (!(dtMs > 0)) return this.price;
    this.elapsedMs += dtMs;
    this.index = this.indexAt(this.elapsedMs, this.index);
    this.stepCount++;
    return this.price;
  }

  ahead(ms: number): number {
    return this.prices[this.indexAt(this.elapsedMs + ms, this.index)]!;
  }

  /** The last row at or before `t`, searching forward from `from`. */
  private indexAt(t: number, from: number): number {
    let i = from;
    while (i + 1 < this.times.length && this.times[i + 1]! <= t) i++;
    return i;
  }
}

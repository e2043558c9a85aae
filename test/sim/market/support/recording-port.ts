import * as FakeTimers from '@sinonjs/fake-timers';
import { fakeClock, type Clock } from '../../../../src/core/clock.js';
import { Dec, ZERO, toWire } from '../../../../src/core/decimal.js';
import type { MarketPort } from '../../../../src/sim/market/market-port.js';
import type { Side } from '../../../../src/core/order-terms.js';

/** One recorded `takeLiquidity` call. */
export interface TakeCall {
  at: number;
  pair: string;
  side: Side;
  quantity: Dec;
  limitPrice: Dec;
  /** The reference last published for the pair when the taker arrived. */
  reference: Dec;
}

/** One recorded `setBackgroundLiquidity` call. */
export interface BackgroundCall {
  at: number;
  pair: string;
  bids: ReadonlyArray<readonly [Dec, Dec]>;
  asks: ReadonlyArray<readonly [Dec, Dec]>;
  /** The reference last published for the pair. */
  reference: Dec;
}

/**
 * A fake {@link MarketPort} that records every call (as structured entries and as one flat text
 * log for equality checks). `takeLiquidity` executes what `fill` says (nothing by default).
 */
export class RecordingPort implements MarketPort {
  readonly log: string[] = [];
  readonly takes: TakeCall[] = [];
  readonly backgrounds: BackgroundCall[] = [];
  readonly references: Array<{ at: number; pair: string; price: Dec }> = [];
  private readonly lastReference = new Map<string, Dec>();

  constructor(
    private readonly clock: Clock,
    private readonly listed: string[] = ['BTC/USDC', 'ETH/USDC'],
    private readonly fill: (call: TakeCall) => Dec = () => ZERO,
  ) {}

  pairs(): string[] {
    return [...this.listed];
  }

  setBackgroundLiquidity(
    pair: string,
    bids: ReadonlyArray<readonly [Dec, Dec]>,
    asks: ReadonlyArray<readonly [Dec, Dec]>,
  ): void {
    const at = this.clock.now();
    this.backgrounds.push({ at, pair, bids, asks, reference: this.reference(pair) });
    const side = (levels: ReadonlyArray<readonly [Dec, Dec]>): string =>
      levels.map(([p, q]) => `${toWire(p)}x${toWire(q)}`).join(',');
    this.log.push(`${at} bg ${pair} ${side(bids)} | ${side(asks)}`);
  }

  takeLiquidity(pair: string, side: Side, quantity: Dec, limitPrice: Dec): Dec {
    const at = this.clock.now();
    const call: TakeCall = { at, pair, side, quantity, limitPrice, reference: this.reference(pair) };
    this.takes.push(call);
    this.log.push(`${at} take ${pair} ${side} ${toWire(quantity)} @ ${toWire(limitPrice)}`);
    return this.fill(call);
  }

  setReferencePrice(pair: string, price: Dec): void {
    const at = this.clock.now();
    this.lastReference.set(pair, price);
    this.references.push({ at, pair, price });
    this.log.push(`${at} ref ${pair} ${toWire(price)}`);
  }

  private reference(pair: string): Dec {
    const ref = this.lastReference.get(pair);
    if (!ref) throw new Error(`no reference published for ${pair} yet`);
    return ref;
  }
}

/** A fresh fake-timers clock at t = 0 and its {@link Clock} adapter. */
export function newFakeClock(): { fake: FakeTimers.Clock; clock: Clock } {
  const fake = FakeTimers.createClock(0, 1_000_000);
  return { fake, clock: fakeClock(fake) };
}

/** Mean and (sample) standard deviation of `xs`. */
export function moments(xs: readonly number[]): { mean: number; std: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return { mean, std: Math.sqrt(variance) };
}

/** One hour, ms. */
export const HOUR_MS = 3_600_000;

/** A decimal as a float, for statistics in tests. */
export function num(d: Dec): number {
  return d.toNumber();
}

export { Dec };

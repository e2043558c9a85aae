import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import {
  EMPTY_PRICE_JUMP,
  largestMovePct,
  stepPriceJump,
  type PriceJumpParams,
  type PriceJumpState,
} from '../../src/risk/price-jump-guard.js';

/**
 * The guard skips the exact decimal move when a float estimate shows it is well under the limit.
 * Its verdict must be the exact one's everywhere, above all for moves a hair under or over the
 * limit, where only the decimals can tell.
 */

const T0 = 1_700_000_000_000;
const params = (maxMovePct: string): PriceJumpParams => ({
  maxMovePct: new Dec(maxMovePct),
  windowMs: 30_000,
  cooldownMs: 60_000,
});
const stateOf = (...prices: string[]): PriceJumpState => ({
  samples: prices.map((p, i) => ({ at: T0 + i * 1_000, price: new Dec(p) })),
  pausedUntil: null,
});

describe('price-jump guard at its limit', () => {
  it.each([
    ['exactly the limit: no trip', '100', '102', false],
    ['1e-20 % over the limit: trips', '100', '102.00000000000000000001', true],
    ['1e-20 % under the limit: no trip', '100', '101.99999999999999999999', false],
    ['down by exactly the limit: no trip', '100', '98', false],
    ['down 1e-20 % more: trips', '100', '97.99999999999999999999', true],
  ])('%s', (_name, from, to, trips) => {
    const step = stepPriceJump(
      stateOf(from),
      { at: T0 + 5_000, price: new Dec(to) },
      T0 + 5_000,
      params('2'),
    );
    expect(step.paused).toBe(trips);
    expect(step.trippedMovePct?.toFixed() ?? null).toBe(
      trips ? largestMovePct(stateOf(from).samples, new Dec(to)).toFixed() : null,
    );
  });

  it('trips exactly when the decimal move exceeds the limit, on random windows', () => {
    const price = fc.integer({ min: 1, max: 10_000_000 }).map((n) => new Dec(n).div(1_000));
    fc.assert(
      fc.property(
        fc.array(price, { minLength: 0, maxLength: 12 }),
        price,
        fc.constantFrom('2', '0.5', '0.000000001', '0.001'),
        fc.constantFrom('0', '1e-25', '-1e-25'),
        (window, last, max, nudge) => {
          const samples = window.map((p, i) => ({ at: T0 + i * 1_000, price: p }));
          const state: PriceJumpState = { samples, pausedUntil: null };
          // A reference right at the limit from the first sample, nudged a hair either way.
          const first = window[0];
          const atLimit = first?.times(new Dec(max).div(100).plus(1)).plus(nudge) ?? last;
          for (const ref of [last, atLimit]) {
            const now = T0 + 20_000;
            const step = stepPriceJump(state, { at: now, price: ref }, now, params(max));
            const move = largestMovePct(samples, ref);
            const trips = samples.length > 0 && move.gt(max);
            expect(step.paused).toBe(trips);
            expect(step.trippedMovePct === null ? null : step.trippedMovePct.toFixed()).toBe(
              trips ? move.toFixed() : null,
            );
          }
        },
      ),
      { numRuns: 2_000, seed: 25 },
    );
  });

  it('an empty window never trips', () => {
    const step = stepPriceJump(EMPTY_PRICE_JUMP, { at: T0, price: new Dec('5') }, T0, params('2'));
    expect(step.paused).toBe(false);
    expect(step.state.samples).toHaveLength(1);
  });
});

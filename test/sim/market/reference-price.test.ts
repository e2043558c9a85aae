import { describe, expect, it } from 'vitest';
import { toWire } from '../../../src/core/decimal.js';
import { MarketConfigSchema } from '../../../src/sim/market/market-config.js';
import { MarketModel } from '../../../src/sim/market/market-model.js';
import { MS_PER_YEAR } from '../../../src/sim/market/dynamics-config.js';
import { gbmLogReturnMoments, gbmStep, ReferencePriceWalk } from '../../../src/sim/market/reference-price.js';
import { Rng } from '../../../src/sim/rng.js';
import { HOUR_MS, moments, newFakeClock, num, RecordingPort } from './support/recording-port.js';

/** Log-returns of `n` steps of `dtMs` of a walk. */
function logReturns(walk: ReferencePriceWalk, n: number, dtMs: number): number[] {
  const out: number[] = [];
  let prev = walk.price;
  for (let i = 0; i < n; i++) {
    const next = walk.step(dtMs);
    out.push(Math.log(next / prev));
    prev = next;
  }
  return out;
}

describe('gbmStep', () => {
  it('is the exact discretisation S·exp((μ − σ²/2)dt + σ√dt·z)', () => {
    expect(gbmStep(100, 0.25, 0.1, 0.4, 0)).toBeCloseTo(100 * Math.exp((0.1 - 0.08) * 0.25), 12);
    expect(gbmStep(100, 0.25, 0, 0.4, 1.5)).toBeCloseTo(100 * Math.exp(-0.08 * 0.25 + 0.4 * 0.5 * 1.5), 12);
    expect(gbmStep(100, 1, 0, 0, 3)).toBe(100);
  });

  it('takes dt in years: one second is 1/31 536 000 of a year', () => {
    expect(MS_PER_YEAR).toBe(31_536_000_000);
    const { std } = gbmLogReturnMoments(1000, 0, 0.6);
    expect(std).toBeCloseTo(0.6 / Math.sqrt(31_536_000), 12);
  });
});

describe('ReferencePriceWalk statistics', () => {
  it('1 s steps at σ = 0.6: mean ≈ (μ − σ²/2)dt and std ≈ σ√dt over 200 000 steps', () => {
    const walk = new ReferencePriceWalk({
      initialPrice: 60_000,
      volatility: 0.6,
      drift: 0,
      priceDecimals: 2,
      rng: new Rng(42).fork('gbm'),
    });
    const n = 200_000;
    const r = moments(logReturns(walk, n, 1000));
    const expected = gbmLogReturnMoments(1000, 0, 0.6);
    // Standard error of the mean is std/√n; of the std, about std/√(2n) (≈ 0.16 % here).
    expect(Math.abs(r.mean - expected.mean)).toBeLessThan((4 * expected.std) / Math.sqrt(n));
    expect(r.std / expected.std).toBeGreaterThan(0.99);
    expect(r.std / expected.std).toBeLessThan(1.01);
    expect(walk.steps).toBe(n);
  });

  it('daily steps with a drift: the drift term is measured, not just tolerated', () => {
    const drift = 0.5;
    const volatility = 0.3;
    const day = 86_400_000;
    const walk = new ReferencePriceWalk({
      initialPrice: 100,
      volatility,
      drift,
      priceDecimals: 4,
      rng: new Rng(7),
    });
    const n = 100_000;
    const r = moments(logReturns(walk, n, day));
    const expected = gbmLogReturnMoments(day, drift, volatility);
    // (0.5 − 0.045)/365 ≈ 1.25e-3, about 25 standard errors away from zero.
    expect(Math.abs(r.mean - expected.mean)).toBeLessThan((4 * expected.std) / Math.sqrt(n));
    expect(Math.abs(r.mean)).toBeGreaterThan((10 * expected.std) / Math.sqrt(n));
    expect(Math.abs(r.std / expected.std - 1)).toBeLessThan(0.015);
  });

  it('a non-positive step changes nothing and draws nothing', () => {
    const a = new ReferencePriceWalk({
      initialPrice: 10,
      volatility: 1,
      drift: 0,
      priceDecimals: 2,
      rng: new Rng(1),
    });
    const b = new ReferencePriceWalk({
      initialPrice: 10,
      volatility: 1,
      drift: 0,
      priceDecimals: 2,
      rng: new Rng(1),
    });
    expect(a.step(0)).toBe(10);
    expect(a.step(-5)).toBe(10);
    expect(a.step(1000)).toBe(b.step(1000));
  });

  it('publishes the price rounded to the tick', () => {
    const walk = new ReferencePriceWalk({
      initialPrice: 1234.56789,
      volatility: 0,
      drift: 0,
      priceDecimals: 2,
      rng: new Rng(1),
    });
    expect(toWire(walk.decimal)).toBe('1234.57');
  });

  it('rejects a non-positive initial price', () => {
    expect(
      () =>
        new ReferencePriceWalk({
          initialPrice: 0,
          volatility: 1,
          drift: 0,
          priceDecimals: 2,
          rng: new Rng(1),
        }),
    ).toThrow(RangeError);
  });
});

describe('reference price through the model', () => {
  it('publishes every tick, and the published prices have GBM log-returns (one simulated day)', () => {
    const { fake, clock } = newFakeClock();
    const port = new RecordingPort(clock, ['BTC/USDC']);
    const config = MarketConfigSchema.parse({
      pairs: {
        'BTC/USDC': {
          initialPrice: '60000',
          volatility: 0.6,
          background: { enabled: false, sizeBase: '1' },
          takers: { enabled: false, meanSizeBase: '1' },
        },
      },
    });
    const model = new MarketModel({ port, clock, rng: new Rng(2024), config });
    model.start();
    fake.tick(24 * HOUR_MS);
    model.close();
    expect(port.references).toHaveLength(86_401);
    expect(port.references.map((r) => r.at).slice(0, 3)).toEqual([0, 1000, 2000]);
    const prices = port.references.map((r) => num(r.price));
    const returns = prices.slice(1).map((p, i) => Math.log(p / prices[i]!));
    const r = moments(returns);
    const expected = gbmLogReturnMoments(1000, 0, 0.6);
    expect(Math.abs(r.mean - expected.mean)).toBeLessThan((4 * expected.std) / Math.sqrt(returns.length));
    expect(Math.abs(r.std / expected.std - 1)).toBeLessThan(0.02);
    expect(model.snapshot().pairs['BTC/USDC']!.referenceSteps).toBe(86_400);
    expect(port.backgrounds).toHaveLength(0);
    expect(port.takes).toHaveLength(0);
  });
});

import { describe, expect, it } from 'vitest';
import { toWire, ZERO, type Dec } from '../../../src/core/decimal.js';
import {
  MarketConfigSchema,
  TakersConfigSchema,
  type MarketConfigInput,
} from '../../../src/sim/market/market-config.js';
import { MarketModel } from '../../../src/sim/market/market-model.js';
import { drawTaker, takerLimitPrice, takerRateAtDistance } from '../../../src/sim/market/takers.js';
import { Rng } from '../../../src/sim/rng.js';
import {
  HOUR_MS,
  moments,
  newFakeClock,
  num,
  RecordingPort,
  type TakeCall,
} from './support/recording-port.js';

/** Runs one BTC/USDC pair with the given takers config for `ms`; background off. */
function run(
  takers: Record<string, unknown>,
  ms: number,
  extra: Partial<MarketConfigInput> = {},
  fill?: (call: TakeCall) => Dec,
) {
  const { fake, clock } = newFakeClock();
  const port = new RecordingPort(clock, ['BTC/USDC'], fill);
  const config = MarketConfigSchema.parse({
    ...extra,
    pairs: {
      'BTC/USDC': {
        initialPrice: '60000',
        priceDecimals: 2,
        quantityDecimals: 5,
        background: { enabled: false, sizeBase: '1' },
        takers: { meanSizeBase: '0.05', ...takers },
      },
    },
  });
  const model = new MarketModel({ port, clock, rng: new Rng(31337), config });
  model.start();
  fake.tick(ms);
  model.close();
  return { port, model };
}

/** The distance of a taker's limit from the reference it saw, bps. */
function reachBps(call: TakeCall): number {
  const ref = num(call.reference);
  const limit = num(call.limitPrice);
  return ((call.side === 'BUY' ? limit - ref : ref - limit) / ref) * 10_000;
}

/** Four binomial standard errors plus a little slack for the tick rounding of limits. */
const tolerance = (p: number, n: number): number => 4 * Math.sqrt((p * (1 - p)) / n) + 0.002;

describe('taker intensity λ(δ) = A·e^(−kδ)', () => {
  const A = 5;
  const k = 0.05;
  const { port, model } = run({ A, k }, HOUR_MS);
  const n = port.takes.length;

  it('arrivals ≈ A per second over a simulated hour', () => {
    const expected = A * 3600;
    expect(Math.abs(n - expected)).toBeLessThan(4 * Math.sqrt(expected));
    expect(model.snapshot().pairs['BTC/USDC']!.takers.arrived).toBe(n);
  });

  it('counts per second are Poisson: variance ≈ mean', () => {
    const perSecond = new Array<number>(3600).fill(0);
    for (const t of port.takes) perSecond[Math.floor(t.at / 1000)]!++;
    const m = moments(perSecond);
    expect(m.mean).toBeCloseTo(n / 3600, 6);
    const dispersion = (m.std * m.std) / m.mean;
    expect(dispersion).toBeGreaterThan(0.9);
    expect(dispersion).toBeLessThan(1.1);
  });

  it.each([1, 5, 10, 20, 30, 50, 80, 120])('the fraction reaching δ = %d bps ≈ e^(−kδ)', (delta) => {
    const reached = port.takes.filter((t) => reachBps(t) >= delta).length / n;
    const p = Math.exp(-k * delta);
    expect(Math.abs(reached - p)).toBeLessThan(tolerance(p, n));
  });

  it('sides split by buyShare and limits lie on the tick, buys above and sells below the reference', () => {
    const buys = port.takes.filter((t) => t.side === 'BUY');
    expect(Math.abs(buys.length / n - 0.5)).toBeLessThan(tolerance(0.5, n));
    const bad = port.takes.filter(
      (t) =>
        t.limitPrice.decimalPlaces() > 2 ||
        t.quantity.decimalPlaces() > 5 ||
        !t.quantity.gt(0) ||
        reachBps(t) <= -0.01,
    );
    expect(bad).toEqual([]);
  });

  it('exponential sizes have mean meanSizeBase', () => {
    const m = moments(port.takes.map((t) => num(t.quantity)));
    expect(Math.abs(m.mean / 0.05 - 1)).toBeLessThan(0.03);
    expect(Math.abs(m.std / 0.05 - 1)).toBeLessThan(0.05);
  });
});

describe('takers at other rates', () => {
  it('many arrivals per millisecond are all delivered (A = 2000/s for 10 s)', () => {
    const { port } = run({ A: 2000 }, 10_000);
    expect(Math.abs(port.takes.length - 20_000)).toBeLessThan(4 * Math.sqrt(20_000));
  });

  it('the default rate: ≈ 0.008/s over 100 simulated hours, and the per-side rate at 10 bps', () => {
    const { port } = run({}, 100 * HOUR_MS, { tickMs: 60_000 });
    const expected = 0.008 * 3600 * 100;
    expect(Math.abs(port.takes.length - expected)).toBeLessThan(4 * Math.sqrt(expected));
    const defaults = TakersConfigSchema.parse({ meanSizeBase: '1' });
    for (const side of ['BUY', 'SELL'] as const) {
      const perHour = takerRateAtDistance(defaults, side, 10) * 3600 * 100;
      const reached = port.takes.filter((t) => t.side === side && reachBps(t) >= 10).length;
      expect(Math.abs(reached - perHour)).toBeLessThan(4 * Math.sqrt(perHour));
    }
  });

  it('counts executed quantity per side from what the port returns', () => {
    const { port, model } = run({ A: 1 }, 600_000, {}, (call) =>
      call.side === 'BUY' ? call.quantity.div(2) : ZERO,
    );
    const c = model.snapshot().pairs['BTC/USDC']!.takers;
    const buys = port.takes.filter((t) => t.side === 'BUY');
    const requested = port.takes.reduce((a, t) => a.plus(t.quantity), ZERO);
    const halfBuys = buys.reduce((a, t) => a.plus(t.quantity.div(2)), ZERO);
    expect(c.arrived).toBe(port.takes.length);
    expect(c.buys).toBe(buys.length);
    expect(c.sells).toBe(port.takes.length - buys.length);
    expect(c.executed).toBe(buys.length);
    expect(c.quantityRequested).toBe(toWire(requested));
    expect(c.buyQuantityExecuted).toBe(toWire(halfBuys));
    expect(c.sellQuantityExecuted).toBe('0');
    expect(c.quantityExecuted).toBe(toWire(halfBuys));
  });
});

describe('drawTaker', () => {
  it('lognormal sizes keep mean meanSizeBase', () => {
    const config = TakersConfigSchema.parse({
      meanSizeBase: '2',
      sizeDistribution: 'lognormal',
      sizeLogSigma: 1,
      maxSizeMultiple: 1000,
    });
    const rng = new Rng(11);
    const sizes = Array.from({ length: 50_000 }, () => drawTaker(config, rng).size);
    expect(Math.abs(moments(sizes).mean / 2 - 1)).toBeLessThan(0.03);
  });

  it('caps sizes at maxSizeMultiple × meanSizeBase', () => {
    const config = TakersConfigSchema.parse({ meanSizeBase: '1', maxSizeMultiple: 1.5 });
    const rng = new Rng(12);
    const sizes = Array.from({ length: 5000 }, () => drawTaker(config, rng).size);
    expect(Math.max(...sizes)).toBe(1.5);
  });

  it('honours buyShare', () => {
    const config = TakersConfigSchema.parse({ meanSizeBase: '1', buyShare: 0.8 });
    const rng = new Rng(13);
    const buys = Array.from({ length: 20_000 }, () => drawTaker(config, rng)).filter((d) => d.side === 'BUY');
    expect(Math.abs(buys.length / 20_000 - 0.8)).toBeLessThan(tolerance(0.8, 20_000));
  });
});

describe('takerLimitPrice and takerRateAtDistance', () => {
  it('is ref·(1 ± δ/10⁴), buys rounded down and sells up, sells never below one tick', () => {
    expect(toWire(takerLimitPrice(60_000, 'BUY', 10, 2))).toBe('60060');
    expect(toWire(takerLimitPrice(60_000, 'SELL', 10, 2))).toBe('59940');
    expect(toWire(takerLimitPrice(60_000.123, 'BUY', 10, 2))).toBe('60060.12');
    expect(toWire(takerLimitPrice(60_000.123, 'SELL', 10, 2))).toBe('59940.13');
    expect(toWire(takerLimitPrice(60_000, 'SELL', 20_000, 2))).toBe('0.01');
  });

  it('gives the per-side rate A·share·e^(−kδ)', () => {
    const config = TakersConfigSchema.parse({ meanSizeBase: '1', A: 0.008, k: 0.05, buyShare: 0.5 });
    expect(takerRateAtDistance(config, 'BUY', 0)).toBeCloseTo(0.004, 12);
    expect(takerRateAtDistance(config, 'SELL', 20) * 3600).toBeCloseTo(14.4 * Math.exp(-1), 9);
  });
});

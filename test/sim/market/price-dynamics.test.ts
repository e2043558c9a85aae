import { describe, expect, it } from 'vitest';
import {
  DriftRegimesConfigSchema,
  GarchConfigSchema,
  JumpsConfigSchema,
} from '../../../src/sim/market/dynamics-config.js';
import { PriceDynamics } from '../../../src/sim/market/price-dynamics.js';
import { MS_PER_YEAR } from '../../../src/sim/market/reference-price.js';
import { Rng } from '../../../src/sim/rng.js';
import { moments } from './support/recording-port.js';

const off = {
  garch: GarchConfigSchema.parse({}),
  driftRegimes: DriftRegimesConfigSchema.parse({}),
  jumps: JumpsConfigSchema.parse({}),
};

/** `n` log-returns of 1 s steps of a dynamics, with its own normals for z. */
function returns(dynamics: PriceDynamics, n: number, seed: number, dtMs = 1000): number[] {
  const z = new Rng(seed).fork('z');
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(dynamics.logReturn(dtMs, z.normal()));
  return out;
}

/** Sample autocorrelation of `xs` at `lag`. */
function acf(xs: readonly number[], lag: number): number {
  const { mean } = moments(xs);
  const d = Float64Array.from(xs, (x) => x - mean);
  let num = 0;
  let den = 0;
  for (let i = 0; i < d.length; i++) {
    den += d[i]! * d[i]!;
    if (i + lag < d.length) num += d[i]! * d[i + lag]!;
  }
  return num / den;
}

describe('compound Poisson jumps', () => {
  const rate = 6;
  const meanSizeBps = 40;
  const hours = 2000;
  const dynamics = new PriceDynamics({
    ...off,
    jumps: JumpsConfigSchema.parse({ enabled: true, ratePerHour: rate, meanSizeBps, upShare: 0.5 }),
    volatility: 0,
    drift: 0,
    rng: new Rng(11),
  });
  // σ = 0 and μ = 0: a step's log-return is its jumps alone.
  const steps = returns(dynamics, hours * 60, 1, 60_000);
  const sizes = steps.filter((r) => r !== 0);

  it('arrive at ratePerHour (within 4 Poisson standard errors over 2000 hours)', () => {
    const expected = rate * hours;
    expect(Math.abs(dynamics.jumps!.jumps - expected)).toBeLessThan(4 * Math.sqrt(expected));
    // Two jumps in one minute are rare at 6 an hour: nearly every jump is its own step.
    expect(sizes.length / dynamics.jumps!.jumps).toBeGreaterThan(0.9);
  });

  it('have a mean absolute log-size of meanSizeBps, half of them up', () => {
    const single = sizes.length;
    const meanAbs = sizes.reduce((s, x) => s + Math.abs(x), 0) / single;
    expect(meanAbs * 10_000).toBeGreaterThan(meanSizeBps * 0.95);
    // Merged jumps in one step (about 5 %) nudge the mean |size| up, never by 10 %.
    expect(meanAbs * 10_000).toBeLessThan(meanSizeBps * 1.1);
    const up = sizes.filter((x) => x > 0).length / single;
    expect(Math.abs(up - 0.5)).toBeLessThan(4 * Math.sqrt(0.25 / single));
  });

  it('are skewed by upShare', () => {
    const d = new PriceDynamics({
      ...off,
      jumps: JumpsConfigSchema.parse({ enabled: true, ratePerHour: 60, upShare: 0.8 }),
      volatility: 0,
      drift: 0,
      rng: new Rng(3),
    });
    const xs = returns(d, 200 * 60, 2, 60_000).filter((r) => r !== 0);
    expect(xs.filter((x) => x > 0).length / xs.length).toBeGreaterThan(0.75);
  });
});

describe('GARCH(1,1) volatility', () => {
  const alpha = 0.1;
  const beta = 0.85;
  const volatility = 0.6;
  const make = (enabled: boolean, seed: number): PriceDynamics =>
    new PriceDynamics({
      ...off,
      garch: GarchConfigSchema.parse({ enabled, alpha, beta }),
      volatility,
      drift: 0,
      rng: new Rng(seed),
    });
  const n = 400_000;
  const r = returns(make(true, 5), n, 9);
  const squares = r.map((x) => x * x);

  it('keeps the long-run variance of the configured σ', () => {
    const longRun = (volatility * volatility) / MS_PER_YEAR / (1 / 1000);
    expect(moments(squares).mean / longRun).toBeGreaterThan(0.95);
    expect(moments(squares).mean / longRun).toBeLessThan(1.05);
  });

  it('clusters: squared returns are autocorrelated as α(1 − αβ − β²)/(1 − 2αβ − β²) at lag 1', () => {
    const theory = (alpha * (1 - alpha * beta - beta * beta)) / (1 - 2 * alpha * beta - beta * beta);
    expect(acf(squares, 1)).toBeGreaterThan(theory * 0.75);
    expect(acf(squares, 1)).toBeLessThan(theory * 1.25);
    const plain = returns(make(false, 5), n, 9).map((x) => x * x);
    expect(Math.abs(acf(plain, 1))).toBeLessThan(0.01);
  });

  it('decays at the persistence α + β per step', () => {
    // In theory ρ(k+1) = (α+β)·ρ(k): the ratio of sums over lags 2-30 and 1-29 is α + β.
    let upper = 0;
    let lower = 0;
    for (let k = 1; k < 30; k++) {
      lower += acf(squares, k);
      upper += acf(squares, k + 1);
    }
    expect(upper / lower).toBeGreaterThan(alpha + beta - 0.03);
    expect(upper / lower).toBeLessThan(alpha + beta + 0.03);
  });

  it('refuses a non-stationary α + β', () => {
    expect(GarchConfigSchema.safeParse({ alpha: 0.2, beta: 0.8 }).success).toBe(false);
  });
});

describe('drift regimes', () => {
  const drifts = [-50, 0, 50];
  const d = new PriceDynamics({
    ...off,
    driftRegimes: DriftRegimesConfigSchema.parse({ enabled: true, drifts, meanDurationMinutes: 30 }),
    volatility: 0,
    drift: 0,
    rng: new Rng(21),
  });
  const minutes = 60 * 24 * 60;
  const perRegime = drifts.map(() => ({ minutes: 0, logReturn: 0 }));
  for (let i = 0; i < minutes; i++) {
    const regime = d.driftRegimes!.regime;
    const before = d.driftRegimes!.switches;
    const r = d.logReturn(60_000, 0);
    if (d.driftRegimes!.switches !== before) continue; // a switch inside the minute mixes regimes
    perRegime[regime]!.minutes += 1;
    perRegime[regime]!.logReturn += r;
  }

  it('switch with the mean duration configured', () => {
    const expected = minutes / 30;
    expect(Math.abs(d.driftRegimes!.switches - expected)).toBeLessThan(4 * Math.sqrt(expected));
  });

  it('spend about a third of the time in each regime, each at its own drift', () => {
    for (const [i, x] of perRegime.entries()) {
      expect(x.minutes / minutes).toBeGreaterThan(0.28);
      expect(x.minutes / minutes).toBeLessThan(0.38);
      const annualised = (x.logReturn / (x.minutes * 60_000)) * MS_PER_YEAR;
      expect(annualised).toBeCloseTo(drifts[i]!, 6);
    }
  });
});

describe('determinism', () => {
  it('the same seed gives the same path with every part on; another seed another', () => {
    const all = (seed: number): number[] =>
      returns(
        new PriceDynamics({
          garch: GarchConfigSchema.parse({ enabled: true }),
          driftRegimes: DriftRegimesConfigSchema.parse({ enabled: true }),
          jumps: JumpsConfigSchema.parse({ enabled: true, ratePerHour: 100 }),
          volatility: 0.6,
          drift: 0,
          rng: new Rng(seed),
        }),
        20_000,
        seed,
      );
    expect(all(4)).toEqual(all(4));
    expect(all(4)).not.toEqual(all(5));
  });
});

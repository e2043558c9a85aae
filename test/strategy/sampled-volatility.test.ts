import { describe, expect, it } from 'vitest';

import { sampledSigma } from '../../src/strategy/sampled-volatility.js';
import { estimateSigma } from '../../src/strategy/volatility.js';
import { NOW, d, market, pairParams } from './support/fixtures.js';

const pt = (secondsAgo: number, price: number) => ({ at: NOW - secondsAgo * 1000, price: d(price) });
const FLAT = 1e12; // a half-life so long that every weight is 1

describe('sampledSigma: overlapping returns at least sampleMs long, one ending at every sample', () => {
  it.each([
    {
      name: 'returns against the latest sample at least sampleMs earlier',
      // Samples at −4, −3, −2, −1, 0 s; sampleMs 2 s: returns 0←−2, −1←−3, −2←−4 (the later sample first).
      series: [pt(4, 100), pt(3, 100), pt(2, 110), pt(1, 110), pt(0, 110)],
      sampleMs: 2_000,
      // r² = ln(1.1)² for −2←−4 and −1←−3, 0 for 0←−2; Δt 2 s each: σ² = 2·ln(1.1)² / 6.
      returns: 3,
      sigma: Math.sqrt((2 * Math.log(1.1) ** 2) / 6),
    },
    {
      name: 'a gap longer than sampleMs gives one longer return',
      series: [pt(10, 100), pt(0, 121)],
      sampleMs: 2_000,
      returns: 1,
      sigma: Math.sqrt(Math.log(1.21) ** 2 / 10),
    },
    {
      name: 'none when the samples span less than sampleMs',
      series: [pt(1, 100), pt(0, 101)],
      sampleMs: 2_000,
      returns: 0,
      sigma: null,
    },
    {
      name: 'samples outside the window, from the future, not later than the one before, or not positive are skipped',
      series: [pt(700, 1), pt(4, 100), pt(4, 500), pt(3, 0), pt(2, 110), pt(-5, 900)],
      sampleMs: 2_000,
      returns: 1,
      sigma: Math.sqrt(Math.log(1.1) ** 2 / 2),
    },
  ])('$name', ({ series, sampleMs, returns, sigma }) => {
    const got = sampledSigma(series, NOW, 600_000, sampleMs, [FLAT]);
    if (sigma === null) {
      expect(got).toBeNull();
      return;
    }
    expect(got?.returns).toBe(returns);
    expect(got?.sigmas[0]).toBeCloseTo(sigma, 12);
  });

  it('gives one σ per half-life: the recent burst weighs more under the shorter one', () => {
    // Quiet for 100 s, then a burst in the last 10 s.
    const series = Array.from({ length: 111 }, (_, i) =>
      pt(110 - i, i < 100 ? 100 + (i % 2) * 0.01 : 100 + (i % 2)),
    );
    const got = sampledSigma(series, NOW, 600_000, 1_000, [FLAT, 5]);
    expect(got?.sigmas).toHaveLength(2);
    expect(got!.sigmas[1]!).toBeGreaterThan(2 * got!.sigmas[0]!);
  });

  it('is not inflated by independent noise on the mids the way consecutive returns are', () => {
    // A flat true price seen with ±1 bp of alternating noise every 1.5 s, and a slow trend of
    // 1 bp per 15 s. Consecutive returns see the noise (2 bps a step); 15 s returns see the trend.
    const series = Array.from({ length: 400 }, (_, i) =>
      pt(1.5 * (399 - i), 100 * (1 + (i / 10) * 1e-4) * (1 + (i % 2 === 0 ? 1e-4 : -1e-4))),
    );
    const consecutive = sampledSigma(series, NOW, 600_000, 1, [FLAT])!.sigmas[0]!;
    const sampled = sampledSigma(series, NOW, 600_000, 15_000, [FLAT])!.sigmas[0]!;
    // Consecutive: |r| ≈ 2 bps every 1.5 s, σ ≈ 2e-4/√1.5; sampled: the trend's 1e-4 per 15 s
    // plus at most 2 bps of noise, over 15 s.
    expect(consecutive).toBeGreaterThan(1.5e-4);
    expect(sampled).toBeLessThan(consecutive / 5);
  });
});

describe('estimateSigma with sampleMs and fastHalfLifeMs', () => {
  const vol = (over: { sampleMs?: number; fastHalfLifeMs?: number; halfLifeMs?: number }) =>
    pairParams({ volatility: { minSamples: 2, halfLifeMs: 86_400_000, ...over } }).volatility;
  // Quiet for 300 s (0.1 bp steps), then 20 s of 20 bp steps, one sample a second.
  const mids = Array.from({ length: 321 }, (_, i) =>
    pt(320 - i, i < 300 ? 100 * (1 + (i % 2) * 1e-5) : 100 * (1 + (i % 2) * 2e-3)),
  );

  it.each([
    { name: 'off: consecutive returns, one half-life', over: {}, expected: 'plain' },
    { name: 'sampleMs: the sampled estimator', over: { sampleMs: 3_000 }, expected: 'sampled' },
    {
      name: 'fastHalfLifeMs: the larger of the two half-lives',
      over: { fastHalfLifeMs: 10_000 },
      expected: 'fast',
    },
    {
      name: 'both: the larger of the sampled estimates',
      over: { sampleMs: 3_000, fastHalfLifeMs: 10_000 },
      expected: 'sampled-fast',
    },
  ] as const)('$name', ({ over, expected }) => {
    const e = estimateSigma(market({ mids }), NOW, vol(over));
    const sampledFlat = sampledSigma(mids, NOW, 600_000, 3_000, [86_400, 10])!;
    const plain = estimateSigma(market({ mids }), NOW, vol({}))!;
    const want = {
      plain: plain.sigma,
      sampled: sampledFlat.sigmas[0]!,
      fast: estimateSigma(market({ mids }), NOW, vol({ halfLifeMs: 10_000 }))!.sigma,
      'sampled-fast': Math.max(...sampledFlat.sigmas),
    }[expected];
    expect(e?.source).toBe('mids');
    expect(e?.sigma).toBeCloseTo(want, 12);
  });

  it('the fast half-life raises σ in a burst and never lowers it', () => {
    const slow = estimateSigma(market({ mids }), NOW, vol({}))!.sigma;
    const fast = estimateSigma(market({ mids }), NOW, vol({ fastHalfLifeMs: 10_000 }))!.sigma;
    expect(fast).toBeGreaterThan(1.5 * slow);
    // Quiet at the end instead: the long half-life's σ is kept.
    const calmEnd = [...mids.slice(0, 300)]
      .reverse()
      .map((m, i) => ({ at: NOW - i * 1000, price: m.price }))
      .reverse();
    const a = estimateSigma(market({ mids: calmEnd }), NOW, vol({}))!.sigma;
    const b = estimateSigma(market({ mids: calmEnd }), NOW, vol({ fastHalfLifeMs: 10_000 }))!.sigma;
    expect(b).toBeGreaterThanOrEqual(a);
  });
});

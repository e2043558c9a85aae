import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

import type { MidSample, TradeView } from '../../src/market/market-snapshot.js';
import { appendMid } from '../../src/market/mid-history.js';
import { estimateSigma, ewmaSigma, logReturns } from '../../src/strategy/volatility.js';
import { NOW, d, market, pairParams } from './support/fixtures.js';

const pt = (secondsAgo: number, price: string | number) => ({ at: NOW - secondsAgo * 1000, price: d(price) });
const R = Math.log(1.02);

describe('logReturns', () => {
  it.each([
    {
      name: 'consecutive samples',
      series: [pt(2, 100), pt(1, 102), pt(0, 102)],
      out: [
        { r: R, dtSec: 1, ageSec: 1 },
        { r: 0, dtSec: 1, ageSec: 0 },
      ],
    },
    {
      name: 'a sample not later than the previous one is dropped',
      series: [pt(2, 100), pt(2, 500), pt(1, 102)],
      out: [{ r: R, dtSec: 1, ageSec: 1 }],
    },
    {
      name: 'samples outside the window (and from the future) are ignored',
      series: [pt(700, 1), pt(2, 100), pt(1, 102), pt(-5, 900)],
      out: [{ r: R, dtSec: 1, ageSec: 1 }],
    },
    {
      name: 'non-positive prices are ignored',
      series: [pt(2, 100), pt(1.5, 0), pt(1, 102)],
      out: [{ r: R, dtSec: 1, ageSec: 1 }],
    },
  ])('$name', ({ series, out }) => {
    const got = logReturns(series, NOW, 600_000);
    expect(got.length).toBe(out.length);
    got.forEach((g, i) => {
      expect(g.r).toBeCloseTo(out[i]!.r, 12);
      expect(g.dtSec).toBe(out[i]!.dtSec);
      expect(g.ageSec).toBe(out[i]!.ageSec);
    });
  });
});

describe('ewmaSigma: σ² = Σ w·r² / Σ w·Δt, w = 2^(−age/halfLife)', () => {
  it.each([
    { name: 'no returns', returns: [], halfLife: 60, sigma: null },
    // Equal weights (half-life huge): plain realised variance per second.
    {
      name: 'equal weights',
      returns: [
        { r: 0.01, dtSec: 1, ageSec: 1 },
        { r: -0.01, dtSec: 1, ageSec: 0 },
      ],
      halfLife: 1e12,
      sigma: 0.01,
    },
    // Weights 0.5 and 1: σ² = 0.5·R² / (0.5 + 1) = R²/3.
    {
      name: 'older return weighs half',
      returns: [
        { r: R, dtSec: 1, ageSec: 1 },
        { r: 0, dtSec: 1, ageSec: 0 },
      ],
      halfLife: 1,
      sigma: R / Math.sqrt(3),
    },
    // Δt = 4 s: σ² = r²/4 per second.
    {
      name: 'per second over a longer interval',
      returns: [{ r: 0.02, dtSec: 4, ageSec: 0 }],
      halfLife: 60,
      sigma: 0.01,
    },
  ])('$name', ({ returns, halfLife, sigma }) => {
    const got = ewmaSigma(returns, halfLife);
    if (sigma === null) expect(got).toBeNull();
    else expect(got).toBeCloseTo(sigma, 12);
  });
});

describe('estimateSigma', () => {
  const vol = (over: { minSamples?: number; fixedSigma?: number } = {}) =>
    pairParams({ volatility: { minSamples: 2, halfLifeMs: 86_400_000, ...over } }).volatility;
  const mids = [pt(3, 100), pt(2, 101), pt(1, 100), pt(0, 101)];
  const trades: TradeView[] = [pt(0, 110), pt(1, 100), pt(2, 110)].map((p, i) => ({
    tradeId: `t${i}`,
    quantity: d(1),
    ...p,
  }));

  it('uses a fixed σ when configured', () => {
    expect(estimateSigma(market({ mids }), NOW, vol({ fixedSigma: 0.003 }))).toEqual({
      sigma: 0.003,
      source: 'fixed',
      returns: 0,
    });
  });

  it('prefers the mids', () => {
    const e = estimateSigma(market({ mids, trades }), NOW, vol());
    expect(e?.source).toBe('mids');
    expect(e?.returns).toBe(3);
  });

  it('falls back to the trades (newest first in the snapshot) when mids are too few', () => {
    const e = estimateSigma(market({ mids: mids.slice(0, 2), trades }), NOW, vol());
    expect(e?.source).toBe('trades');
    expect(e?.sigma).toBeCloseTo(Math.abs(Math.log(110 / 100)), 12);
  });

  it('sums only the returns inside [now − window, now], the same as ewmaSigma of logReturns', () => {
    // 40 samples 30 s apart, some after `now`: a window of 10 min keeps 20 returns of them.
    const series = Array.from({ length: 40 }, (_, i) => pt(30 * (35 - i), 100 + ((i * 7) % 5)));
    const params = pairParams({
      volatility: { minSamples: 2, halfLifeMs: 120_000, windowMs: 600_000 },
    }).volatility;
    const e = estimateSigma(market({ mids: series }), NOW, params);
    const returns = logReturns(series, NOW, 600_000);
    expect(returns).toHaveLength(20);
    expect(e).toEqual({ sigma: ewmaSigma(returns, 120), source: 'mids', returns: 20 });
  });

  it('is null when neither series has enough returns: never guessed', () => {
    expect(estimateSigma(market({ mids: mids.slice(0, 2) }), NOW, vol({ minSamples: 5 }))).toBeNull();
    expect(estimateSigma(market(), NOW, vol())).toBeNull();
  });
});

describe('the σ memo over a polled mid history', () => {
  it('keeps memory linear in the window: 1 200 polls of a full 1 200-sample history retain under 2 MiB', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const params = pairParams({ volatility: { minSamples: 2, windowMs: 3_600_000 } }).volatility;
    const limits = { keepMs: 3_600_000, maxSamples: 1_200 };
    const at = (i: number): number => NOW - 3_000_000 + i * 1_000;
    const sample = (i: number): MidSample => ({ at: at(i), price: d(100 + Math.sin(i / 7)) });
    let mids: readonly MidSample[] = [];
    for (let i = 0; i < 1_200; i++) mids = appendMid(mids, sample(i), limits);
    gc();
    const before = process.memoryUsage().heapUsed;
    // As the daemon runs: each book poll replaces the history and the quote cycle reads σ.
    let last = null;
    for (let i = 1_200; i < 2_400; i++) {
      mids = appendMid(mids, sample(i), limits);
      last = estimateSigma(market({ mids }), at(i), params);
    }
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    // Keeping the returns of every sample's history held 1 200 arrays of 1 200 returns (11 MiB).
    expect(retained).toBeLessThan(2 * 1024 * 1024);
    // The incremental path agrees with a fresh computation of the same history.
    const fresh = estimateSigma(market({ mids: [...mids] }), at(2_399), params);
    expect(last?.returns).toBe(1_199);
    expect(last?.sigma).toBeCloseTo(fresh!.sigma, 15);
  });
});

describe('the σ of a polled history shares one buffer of returns between its versions', () => {
  const params = pairParams({
    volatility: { minSamples: 2, windowMs: 150_000, halfLifeMs: 30_000 },
  }).volatility;
  const limits = { keepMs: 200_000, maxSamples: 1_200 };
  const at = (i: number): number => NOW - 3_000_000 + i * 1_000;
  const sample = (i: number): MidSample => ({ at: at(i), price: d(100 + Math.sin(i / 7)) });
  // New sample objects: nothing of the memo applies, the returns are computed afresh.
  const fresh = (mids: readonly MidSample[], now: number) =>
    estimateSigma(market({ mids: mids.map((m) => ({ ...m })) }), now, params);

  it('gives every version of the history the σ of a fresh computation, through the window dropping its oldest returns', () => {
    let mids: readonly MidSample[] = [];
    let compared = 0;
    for (let i = 0; i < 1_000; i++) {
      mids = appendMid(mids, sample(i), limits);
      const got = estimateSigma(market({ mids }), at(i), params);
      expect(got).toEqual(fresh(mids, at(i)));
      if (got !== null) compared += 1;
    }
    expect(compared).toBeGreaterThan(990);
  });

  it('catches up over several polls between two reads (and over more than it looks back for)', () => {
    let mids: readonly MidSample[] = [];
    let reads = 0;
    // Reads after 1, 2, ... 11 polls in turn (more than the 8 it looks back for).
    for (let i = 0, next = 0, gap = 1; i < 1_000; i++) {
      mids = appendMid(mids, sample(i), limits);
      if (i !== next) continue;
      expect(estimateSigma(market({ mids }), at(i), params)).toEqual(fresh(mids, at(i)));
      reads += 1;
      next = i + gap;
      gap = (gap % 11) + 1;
    }
    expect(reads).toBeGreaterThan(150);
  });

  it('keeps two histories extended from the same one apart, and an older one still answers as before', () => {
    let mids: readonly MidSample[] = [];
    for (let i = 0; i < 400; i++) {
      mids = appendMid(mids, sample(i), limits);
      estimateSigma(market({ mids }), at(i), params);
    }
    const a = appendMid(mids, sample(400), limits);
    const b = appendMid(mids, { at: at(400), price: d(250) }, limits);
    const sa = estimateSigma(market({ mids: a }), at(400), params);
    const sb = estimateSigma(market({ mids: b }), at(400), params);
    expect(sa).toEqual(fresh(a, at(400)));
    expect(sb).toEqual(fresh(b, at(400)));
    expect(sb!.sigma).toBeGreaterThan(sa!.sigma);
    // The history both came from, read again after both were extended from it.
    expect(estimateSigma(market({ mids }), at(399), params)).toEqual(fresh(mids, at(399)));
  });
});

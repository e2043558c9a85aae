import { describe, expect, it } from 'vitest';

import {
  asQuotes,
  avellanedaStoikovShape,
  optimalSpread,
  reservationPrice,
} from '../../src/strategy/avellaneda-stoikov.js';
import { d } from './support/fixtures.js';

// The paper's simulation parameters: s = 100, σ = 2, T = 1, γ = 0.1, k = 1.5.
// (2/γ)·ln(1 + γ/k) = 20·ln(16/15) = 1.2907704227515...
const LN_TERM = 20 * 0.0645385211375712;

describe('reservation price r = s − q·γ·σ²·τ', () => {
  it.each([
    { q: 0, tau: 1, r: 100 },
    { q: 3, tau: 1, r: 98.8 }, // 100 − 3·0.1·4·1
    { q: -2, tau: 1, r: 100.8 },
    { q: 3, tau: 0.5, r: 99.4 },
    { q: 5, tau: 0, r: 100 }, // at the horizon inventory no longer shifts r
  ])('q=$q τ=$tau → $r', ({ q, tau, r }) => {
    expect(reservationPrice(100, q, 0.1, 2, tau)).toBeCloseTo(r, 12);
  });
});

describe('optimal spread γσ²τ + (2/γ)·ln(1 + γ/k)', () => {
  it.each([
    { gamma: 0.1, sigma: 2, tau: 1, k: 1.5, spread: 0.4 + LN_TERM },
    { gamma: 0.1, sigma: 2, tau: 0.5, k: 1.5, spread: 0.2 + LN_TERM },
    { gamma: 0.1, sigma: 2, tau: 0, k: 1.5, spread: LN_TERM },
    // γ = 1: 1·4·1 + 2·ln(1 + 1/1.5) = 4 + 2·0.5108256237659907
    { gamma: 1, sigma: 2, tau: 1, k: 1.5, spread: 4 + 2 * 0.5108256237659907 },
  ])('γ=$gamma σ=$sigma τ=$tau k=$k → $spread', ({ gamma, sigma, tau, k, spread }) => {
    expect(optimalSpread(gamma, sigma, tau, k)).toBeCloseTo(spread, 12);
  });

  it('tends to 2/k as γ → 0 (the risk-neutral spread) when τ = 0', () => {
    expect(optimalSpread(1e-9, 2, 0, 1.5)).toBeCloseTo(2 / 1.5, 6);
  });
});

describe('asQuotes', () => {
  it('puts half the spread on each side of r', () => {
    const q = asQuotes({ s: 100, q: 3, gamma: 0.1, sigma: 2, tau: 1, k: 1.5 });
    expect(q.reservation).toBeCloseTo(98.8, 12);
    expect(q.spread).toBeCloseTo(0.4 + LN_TERM, 12);
    expect(q.bid).toBeCloseTo(98.8 - (0.4 + LN_TERM) / 2, 12);
    expect(q.ask).toBeCloseTo(98.8 + (0.4 + LN_TERM) / 2, 12);
  });
});

describe('avellanedaStoikovShape (the Dec wrapper)', () => {
  const p = { enabled: true, gamma: 0.1, k: 1.5, horizonSec: 1 };
  it.each([
    // σ_rel 0.02 at s = 100 is σ = 2 in price units, the paper's case.
    { ref: '100', q: '3', shift: -120, half: ((0.4 + LN_TERM) / 2 / 100) * 1e4 },
    { ref: '100', q: '0', shift: 0, half: ((0.4 + LN_TERM) / 2 / 100) * 1e4 },
    { ref: '100', q: '-2', shift: 80, half: ((0.4 + LN_TERM) / 2 / 100) * 1e4 },
  ])('ref $ref q $q → shift $shift bps', ({ ref, q, shift, half }) => {
    const shape = avellanedaStoikovShape(d(ref), d(q), 0.02, p);
    expect(shape).not.toBeNull();
    expect(shape!.centerShiftBps).toBeCloseTo(shift, 9);
    expect(shape!.halfSpreadBps).toBeCloseTo(half, 9);
    expect(shape!.halfSpreadBps).toBeCloseTo(84.5385211375, 6);
  });

  it('is null when the model has no finite answer', () => {
    expect(avellanedaStoikovShape(d(100), d(1), Number.POSITIVE_INFINITY, p)).toBeNull();
  });
});

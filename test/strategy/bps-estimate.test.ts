import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { Dec } from '../../src/core/decimal.js';
import type { OwnOrderView } from '../../src/market/market-snapshot.js';
import type { ReconcileParams } from '../../src/strategy/params.js';
import type { DesiredQuote } from '../../src/strategy/quote-types.js';
import { edgeEstimate, offEstimate } from '../../src/strategy/bps-estimate.js';
import { clearsPrepareDrift } from '../../src/strategy/freshness.js';
import { edgeBps, isToxic, orderFits } from '../../src/strategy/reconciler.js';
import { NOW, d, own, quote, tolerance } from './support/fixtures.js';

/**
 * The reconciler decides its comparisons from float estimates of the distances in bps when they
 * are clear of the threshold, and from the exact 40-digit decimal division otherwise. Its answers
 * must be the exact computation's on every input, above all at the thresholds, where the float
 * estimate alone is on the wrong side.
 */

const PARAMS: ReconcileParams = {
  priceToleranceBps: 5,
  sizeTolerancePct: 20,
  oversizeMultiple: 0,
  maxOrderAgeMs: 3_600_000,
  ordersPerSlot: 2,
};

/** The reconciler's rules computed the exact way only (the code before the estimates). */
const exactOff = (a: Dec, b: Dec): number => a.minus(b).abs().div(b).times(10_000).toNumber();
function exactToxic(o: OwnOrderView, q: DesiredQuote): boolean {
  const t = q.tolerance;
  return t !== undefined && edgeBps(o.side, o.price, q.reference) < t.toxicEdgeBps;
}
function exactFits(o: OwnOrderView, q: DesiredQuote, params: ReconcileParams, share: number): boolean {
  const t = q.tolerance;
  let priceOk: boolean;
  if (t === undefined) {
    priceOk = exactOff(o.price, q.price) <= params.priceToleranceBps;
  } else {
    const want = edgeBps(q.side, q.price, q.reference);
    const edge = edgeBps(o.side, o.price, q.reference);
    const widen = (bps: number): number => (share === Number.POSITIVE_INFINITY ? share : share * bps);
    priceOk =
      edge >= want - widen(t.insideBps) && edge <= want + widen(t.outsideBps) && edge >= t.toxicEdgeBps;
  }
  return priceOk && exactOff(o.remaining, q.quantity) / 100 <= params.sizeTolerancePct;
}

/** `reference` moved by `bps` towards the order's own side, exactly in decimals. */
function atEdge(side: 'BUY' | 'SELL', reference: Dec, bps: number): Dec {
  const shift = reference.times(bps).div(10_000);
  return side === 'BUY' ? reference.minus(shift) : reference.plus(shift);
}

describe('the estimates', () => {
  it.each([
    ['BUY', '99.75', '100'],
    ['SELL', '30000.12345', '29976.1'],
    ['BUY', '0.29976', '0.3'],
  ] as const)('%s at %s against %s: within 1e-8 bps of edgeBps', (side, price, ref) => {
    const estimate = edgeEstimate(side, d(price), d(ref));
    expect(estimate).not.toBeNull();
    expect(Math.abs(estimate! - edgeBps(side, d(price), d(ref)))).toBeLessThan(1e-8);
    const off = offEstimate(d(price), d(ref));
    expect(Math.abs(off! - exactOff(d(price), d(ref)))).toBeLessThan(1e-8);
  });

  it.each([
    ['a reference of zero', '1', '0'],
    ['a negative reference', '1', '-1'],
    ['a price over 1000 times the reference', '1001', '1'],
  ])('no estimate for %s', (_name, price, ref) => {
    expect(edgeEstimate('BUY', d(price), d(ref))).toBeNull();
    expect(offEstimate(d(price), d(ref))).toBeNull();
  });
});

describe('decisions at the threshold are the exact ones', () => {
  // Each order's edge is exactly 8 bps in decimals; the float estimate lands on the wrong side.
  it.each([
    ['SELL', '1.10088', '1.1'],
    ['SELL', '100.08', '100'],
    ['BUY', '64.24856', '64.3'],
    ['BUY', '42.466', '42.5'],
  ] as const)('%s at %s against %s, toxic edge 8: not toxic', (side, price, ref) => {
    const q = quote({ side, price: ref, reference: d(ref), tolerance: tolerance({ toxicEdgeBps: 8 }) });
    const o = own({ side, price });
    expect(edgeBps(side, d(price), d(ref))).toBe(8);
    // The estimate alone would call it toxic: only the exact fallback gets it right.
    expect(edgeEstimate(side, d(price), d(ref))!).toBeLessThan(8);
    expect(isToxic(o, q)).toBe(false);
  });

  it('a bid whose edge is exactly the band’s inner edge is kept', () => {
    // Reference 0.3, desired bid 25 bps away, 9 bps inside band: the inner edge is 16 bps.
    const ref = d('0.3');
    const q = quote({ side: 'BUY', price: '0.2925', reference: ref, tolerance: tolerance() });
    const o = own({ side: 'BUY', price: atEdge('BUY', ref, 16) });
    expect(orderFits(o, q, PARAMS, NOW).fits).toBe(exactFits(o, q, PARAMS, 1));
  });

  it('agrees with the exact rules on random orders near every threshold', () => {
    const sides = fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 6 }),
        sides,
        fc.integer({ min: 5, max: 60 }),
        fc.integer({ min: -20, max: 90 }),
        fc.constantFrom(0, 1e-13, -1e-13, 1e-9, -1e-9, 0.37),
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom(1, 0.5, Number.POSITIVE_INFINITY),
        fc.constantFrom('1', '1.2', '0.8', '1.2000000001'),
        (units, scale, side, wantBps, edgeInt, nudge, toxic, inside, share, size) => {
          const ref = new Dec(units).div(new Dec(10).pow(scale));
          const tol = tolerance({ toxicEdgeBps: toxic, insideBps: inside, outsideBps: inside * 2 });
          const q = quote({
            side,
            price: atEdge(side, ref, wantBps).toFixed(),
            reference: ref,
            tolerance: tol,
          });
          const o = own({ side, price: atEdge(side, ref, edgeInt + nudge), remaining: size });
          expect(isToxic(o, q)).toBe(exactToxic(o, q));
          expect(orderFits(o, q, PARAMS, NOW, share).fits).toBe(exactFits(o, q, PARAMS, share));
          const plain = quote({ side, price: q.price.toFixed(), reference: ref });
          expect(orderFits(o, plain, PARAMS, NOW).fits).toBe(exactFits(o, plain, PARAMS, 1));
          const drift = tolerance({ ...tol, prepareDriftBps: inside });
          const dq = { ...q, tolerance: drift };
          const want = edgeBps(side, dq.price, ref);
          const exactClears = edgeBps(side, o.price, ref) >= Math.min(want, toxic + inside);
          expect(clearsPrepareDrift(o, dq)).toBe(inside > 0 ? exactClears : true);
        },
      ),
      { numRuns: 3_000, seed: 25 },
    );
  });
});

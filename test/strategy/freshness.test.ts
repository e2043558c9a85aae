import { describe, expect, it } from 'vitest';
import { clearsPrepareDrift, freshnessShare, stillFresh } from '../../src/strategy/freshness.js';
import type { ReconcileParams } from '../../src/strategy/params.js';
import { NOW, d, own, quote, tolerance } from './support/fixtures.js';

const TOL = tolerance({ signShare: 2 });

describe('the band share a queued placement must still fit at each freshness check', () => {
  it.each([
    // A missing side goes on at any price that is not toxic, with or without its own tolerance.
    { reason: 'missing', stage: 'queued', tolerance: TOL, share: Number.POSITIVE_INFINITY },
    { reason: 'missing', stage: 'prepared', tolerance: TOL, share: Number.POSITIVE_INFINITY },
    { reason: 'missing', stage: 'prepared', tolerance: undefined, share: Number.POSITIVE_INFINITY },
    // A reprice or refresh: the inner share before the prepare, signShare before signing.
    { reason: 'reprice', stage: 'queued', tolerance: TOL, share: 0.5 },
    { reason: 'reprice', stage: 'prepared', tolerance: TOL, share: 2 },
    { reason: 'refresh', stage: 'queued', tolerance: TOL, share: 0.5 },
    { reason: 'refresh', stage: 'prepared', tolerance: TOL, share: 2 },
    // The plain spread model: the reconciler's fixed tolerance, unchanged.
    { reason: 'reprice', stage: 'queued', tolerance: undefined, share: 1 },
    { reason: 'reprice', stage: 'prepared', tolerance: undefined, share: 1 },
  ] as const)('$reason at $stage: $share', ({ reason, stage, tolerance, share }) => {
    expect(freshnessShare(reason, stage, tolerance)).toBe(share);
  });
});

describe('before the prepare, a queued order must stand clear of its toxic edge by the drift of a prepare', () => {
  // Reference 100 (1 bps = 0.01); toxic edge 8 bps, prepare drift 5 bps: the bar is
  // min(the quote's wanted edge, 13 bps).
  const tol = tolerance({ toxicEdgeBps: 8, prepareDriftBps: 5 });
  it.each([
    { what: 'at the wanted price', side: 'BUY', want: 99.8, order: 99.8, t: tol, clears: true },
    { what: '14 bps out, over the bar', side: 'BUY', want: 99.8, order: 99.86, t: tol, clears: true },
    {
      what: '12 bps out, not toxic but under the bar',
      side: 'BUY',
      want: 99.8,
      order: 99.88,
      t: tol,
      clears: false,
    },
    { what: 'the ask, 12 bps out', side: 'SELL', want: 100.2, order: 100.12, t: tol, clears: false },
    { what: 'the ask, 14 bps out', side: 'SELL', want: 100.2, order: 100.14, t: tol, clears: true },
    // A quote wanted nearer than the bar passes at its own price: never held back for good.
    { what: 'wanted at 10 bps, queued there', side: 'BUY', want: 99.9, order: 99.9, t: tol, clears: true },
    { what: 'wanted at 10 bps, drifted to 9', side: 'BUY', want: 99.9, order: 99.91, t: tol, clears: false },
    {
      what: 'prepareDriftBps 0: off',
      side: 'BUY',
      want: 99.8,
      order: 99.91,
      t: tolerance({ prepareDriftBps: 0 }),
      clears: true,
    },
    {
      what: 'prepareDriftBps absent: off',
      side: 'BUY',
      want: 99.8,
      order: 99.91,
      t: tolerance(),
      clears: true,
    },
    {
      what: 'no tolerance (plain spread model)',
      side: 'BUY',
      want: 99.8,
      order: 99.99,
      t: undefined,
      clears: true,
    },
  ] as const)('$what: $clears', ({ side, want, order, t, clears }) => {
    const q = quote({ side, price: want, ...(t === undefined ? {} : { tolerance: t }) });
    expect(clearsPrepareDrift({ side, price: d(order) }, q)).toBe(clears);
  });
});

describe('the whole freshness check of a queued placement, by stage: fresh, or why not', () => {
  // Wanted edge 20 bps, inside band 9 (prepareShare 0.5: 4.5 before the prepare), toxic edge 8,
  // prepare drift 5: before the prepare the order needs edge >= max(20 - 4.5, min(20, 13)).
  const PARAMS: ReconcileParams = {
    priceToleranceBps: 5,
    sizeTolerancePct: 20,
    oversizeMultiple: 0,
    maxOrderAgeMs: 3_600_000,
    ordersPerSlot: 2,
  };
  const q = quote({ side: 'BUY', price: 99.8, tolerance: tolerance({ prepareDriftBps: 5, signShare: 1 }) });
  it.each([
    { reason: 'reprice', stage: 'queued', order: 99.84, quantity: 1, fresh: true },
    { reason: 'reprice', stage: 'queued', order: 99.86, quantity: 1, fresh: 'band' },
    { reason: 'reprice', stage: 'prepared', order: 99.88, quantity: 1, fresh: true },
    { reason: 'reprice', stage: 'prepared', order: 99.6, quantity: 1, fresh: 'band' },
    { reason: 'reprice', stage: 'prepared', order: 99.8, quantity: 2, fresh: 'size' },
    // A missing side goes on at any non-toxic price once prepared, but not into its prepare
    // within the prepare's drift of the toxic edge.
    { reason: 'missing', stage: 'queued', order: 99.86, quantity: 1, fresh: true },
    { reason: 'missing', stage: 'queued', order: 99.88, quantity: 1, fresh: 'prepare-drift' },
    { reason: 'missing', stage: 'prepared', order: 99.91, quantity: 1, fresh: true },
    { reason: 'missing', stage: 'prepared', order: 99.93, quantity: 1, fresh: 'toxic' },
  ] as const)(
    '$reason at $stage, order at $order ×$quantity: $fresh',
    ({ reason, stage, order, quantity, fresh }) => {
      const o = own({ side: 'BUY', price: order, remaining: quantity, since: NOW });
      expect(stillFresh(o, q, reason, stage, PARAMS, NOW)).toBe(fresh);
    },
  );
});

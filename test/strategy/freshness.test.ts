import { describe, expect, it } from 'vitest';
import { freshnessShare } from '../../src/strategy/freshness.js';
import { tolerance } from './fixtures.js';

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

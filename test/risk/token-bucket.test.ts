import { describe, expect, it } from 'vitest';
import { bucketForLimit, fullBucket, refill, take } from '../../src/risk/token-bucket.js';
import { T0 } from './support/fixtures.js';

describe('token bucket', () => {
  it.each([
    // limit, burst → capacity, tokens per minute
    [60, 5, 5, 55],
    [60, 100, 30, 30],
    [4, 5, 2, 2],
    [2, 5, 1, 1],
    [1, 5, 1, 1],
    [0, 5, 1, 1],
    [Infinity, 5, 1, 1],
  ])('limit %s, burst %s → capacity %s, refill %s/min', (limit, burst, capacity, perMin) => {
    const c = bucketForLimit(limit, burst);
    expect(c.capacity).toBe(capacity);
    expect(c.refillPerMs * 60_000).toBeCloseTo(perMin, 9);
  });

  it('takes while tokens last, then says how long to wait', () => {
    const c = bucketForLimit(4, 2); // 2 tokens, +1 per 30 s
    let s = fullBucket(c, T0);
    for (let i = 0; i < 2; i++) {
      const r = take(s, c, T0);
      expect(r.taken).toBe(true);
      s = r.state;
    }
    const r = take(s, c, T0 + 10_000);
    expect(r).toMatchObject({ taken: false, waitMs: 20_000 });
    expect(take(r.state, c, T0 + 30_000).taken).toBe(true);
  });

  it('refills up to capacity only, clamps to a smaller capacity, and ignores time going backwards', () => {
    const c = bucketForLimit(60, 5);
    expect(refill({ tokens: 0, at: T0 }, c, T0 + 3_600_000).tokens).toBe(5);
    expect(refill({ tokens: 5, at: T0 }, bucketForLimit(4, 5), T0).tokens).toBe(2);
    expect(refill({ tokens: 1, at: T0 }, c, T0 - 10_000)).toEqual({ tokens: 1, at: T0 });
  });

  it.each([1, 2, 3, 7, 30, 61])('a greedy taker never exceeds %s per sliding minute', (limit) => {
    const c = bucketForLimit(limit, 10);
    let s = fullBucket(c, 0);
    const takes: number[] = [];
    for (let t = 0; t < 5 * 60_000; t += 250) {
      for (;;) {
        const r = take(s, c, t);
        s = r.state;
        if (!r.taken) break;
        takes.push(t);
      }
    }
    for (const start of takes)
      expect(takes.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(limit);
    // And it is not starved: at least the capacity plus one refill a minute over five minutes.
    expect(takes.length).toBeGreaterThanOrEqual(5);
  });
});

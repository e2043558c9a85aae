import { describe, expect, it } from 'vitest';
import type { Dec } from '../../src/core/decimal.js';
import type { RiskVerdict } from '../../src/risk/risk-types.js';
import {
  GateRun,
  T0,
  account,
  allowedSlots,
  bookAt,
  d,
  deniedReasons,
  forcedKeys,
  input,
  own,
  params,
  place,
  snapshot,
} from './support/fixtures.js';

/** Multi-step runs: each rule trips, holds, and lets the pair resume by itself. */

const S = 1_000;
const quote = () => [place('BUY', '99', '1', { level: 0 }), place('SELL', '101', '1', { level: 0 })];
const orders = [own('b', 'BUY', '1'), own('s', 'SELL', '1')];

/** A snapshot at `now` whose BTC/USDC mid is `mid` (1-wide spread), fresh. */
function withMid(now: number, mid: number) {
  return snapshot(now, { books: { 'BTC/USDC': bookAt(now, String(mid - 1), String(mid + 1)) } });
}

function expectActive(v: RiskVerdict): void {
  expect(v.pairStates['BTC/USDC']).toBe('active');
  expect(allowedSlots(v)).toEqual(['BTC/USDC:BUY:0', 'BTC/USDC:SELL:0']);
  expect(v.cancels).toEqual([]);
}

function expectHalted(v: RiskVerdict, rule: string, cancels: string[]): void {
  expect(v.pairStates['BTC/USDC']).toBe('halted');
  expect(allowedSlots(v)).toEqual([]);
  expect(deniedReasons(v)).toEqual([rule, rule]);
  expect(forcedKeys(v)).toEqual(cancels);
}

describe('risk gate scenarios', () => {
  it('stale book: halts and cancels, then resumes on the next good poll', () => {
    const run = new GateRun();
    expectActive(run.step(input(T0, { actions: quote(), ownOrders: orders })));
    const t1 = T0 + 8 * S;
    const stale = snapshot(t1, { books: { 'BTC/USDC': bookAt(T0) } });
    expectHalted(
      run.step(input(t1, { snapshot: stale, actions: quote(), ownOrders: orders })),
      'stale-book',
      ['b', 's'],
    );
    // The cancels are in flight: not requested again.
    const cancelling = orders.map((o) => ({ ...o, cancelling: true }));
    expect(
      forcedKeys(run.step(input(t1 + S, { snapshot: stale, now: t1 + S, ownOrders: cancelling }))),
    ).toEqual([]);
    expectActive(run.step(input(t1 + 2 * S, { actions: quote() })));
  });

  it('price jump: pauses for the cooldown, extends on a further jump, then resumes', () => {
    const run = new GateRun(); // 2 % within 30 s, cooldown 60 s
    expectActive(run.step(input(T0, { snapshot: withMid(T0, 100), actions: quote() })));
    expectActive(run.step(input(T0 + 10 * S, { snapshot: withMid(T0 + 10 * S, 101.9), actions: quote() })));
    const t1 = T0 + 20 * S;
    const v1 = run.step(input(t1, { snapshot: withMid(t1, 103), actions: quote(), ownOrders: orders }));
    expectHalted(v1, 'price-jump', ['b', 's']);
    expect(v1.reasons.find((r) => r.rule === 'price-jump')?.until).toBe(t1 + 60 * S);

    // Steady at the new level: still paused until the cooldown ends.
    expectHalted(
      run.step(input(t1 + 59 * S, { snapshot: withMid(t1 + 59 * S, 103), actions: quote() })),
      'price-jump',
      [],
    );
    expectActive(run.step(input(t1 + 60 * S, { snapshot: withMid(t1 + 60 * S, 103), actions: quote() })));

    // A jump during a pause extends it.
    const t2 = t1 + 100 * S;
    run.step(input(t2, { snapshot: withMid(t2, 110), actions: quote() }));
    const v2 = run.step(input(t2 + 30 * S, { snapshot: withMid(t2 + 30 * S, 99), actions: quote() }));
    expect(v2.reasons.find((r) => r.rule === 'price-jump')?.until).toBe(t2 + 90 * S);
    expectActive(run.step(input(t2 + 90 * S, { snapshot: withMid(t2 + 90 * S, 99), actions: quote() })));
  });

  it('price jump: a slow drift beyond X % over more than Y s does not trip', () => {
    const run = new GateRun();
    for (let i = 0; i <= 20; i++) {
      const t = T0 + i * 20 * S; // +1 % every 20 s: never 2 % within 30 s
      expectActive(run.step(input(t, { snapshot: withMid(t, 100 * 1.01 ** i), actions: quote() })));
    }
  });

  it('price jump: uses the strategy reference when given', () => {
    const run = new GateRun();
    const ref = (price: string, at: number) => ({ 'BTC/USDC': { price: d(price), at } });
    expectActive(run.step(input(T0, { references: ref('100', T0), actions: quote() })));
    const v = run.step(input(T0 + S, { references: ref('97', T0 + S), actions: quote() }));
    expect(v.pairStates['BTC/USDC']).toBe('halted');
    expect(v.pairStates['ETH/USDC']).toBe('active');
  });

  it('daily loss: halts and cancels, stays halted for the day, resumes at the UTC day boundary', () => {
    const run = new GateRun();
    const pnl = (btc: string): Record<string, Dec> => ({ 'BTC/USDC': d(btc) });
    // Baseline at first sight: cumulative PnL 1 000 (made on earlier days).
    expectActive(run.step(input(T0, { pnl: pnl('1000'), actions: quote() })));
    expectActive(run.step(input(T0 + S, { pnl: pnl('500'), actions: quote() }))); // exactly the limit
    const v = run.step(input(T0 + 2 * S, { pnl: pnl('499.99'), actions: quote(), ownOrders: orders }));
    expectHalted(v, 'daily-loss', ['b', 's']);
    const midnight = Date.UTC(2024, 0, 16);
    expect(v.reasons.find((r) => r.rule === 'daily-loss')?.until).toBe(midnight);
    // Latched: a recovery the same day does not lift it.
    expectHalted(run.step(input(midnight - 1, { pnl: pnl('1200'), actions: quote() })), 'daily-loss', []);
    // New UTC day: new baseline (the current PnL), trading resumes.
    expectActive(run.step(input(midnight, { pnl: pnl('1200'), actions: quote() })));
    expectActive(run.step(input(midnight + S, { pnl: pnl('800'), actions: quote() })));
  });

  it('daily loss: the total over pairs sharing a quote instrument halts all of them', () => {
    const run = new GateRun(params({ dailyLoss: { perPair: d('500'), total: d('800') } }));
    run.step(input(T0, { pnl: {} }));
    const v = run.step(
      input(T0 + S, {
        pnl: { 'BTC/USDC': d('-450'), 'ETH/USDC': d('-400') },
        actions: [...quote(), place('BUY', '99', '1', { pair: 'ETH/USDC', level: 0 })],
      }),
    );
    expect(v.pairStates).toEqual({ 'BTC/USDC': 'halted', 'ETH/USDC': 'halted' });
    expect(deniedReasons(v)).toEqual(['daily-loss', 'daily-loss', 'daily-loss']);
    const details = v.reasons.filter((r) => r.rule === 'daily-loss').map((r) => r.detail);
    expect(details).toHaveLength(2);
    for (const detail of details) expect(detail).toContain('850 USDC across pairs');
  });

  it('error breaker: exponential, capped backoff; half-open after each pause; a success resets it', () => {
    const run = new GateRun(); // 3 failures; 10 s, doubling, cap 40 s
    const at = (t: number, failures: number) =>
      run.step(input(t, { pipelineFailures: failures, actions: quote(), ownOrders: orders }));
    const untilOf = (v: RiskVerdict) => v.reasons.find((r) => r.rule === 'error-breaker')?.until;

    const v = at(T0, 3);
    expectHalted(v, 'error-breaker', ['b', 's']);
    expect(untilOf(v)).toBe(T0 + 10 * S);
    expect(v.ready).toBe(true);
    expectHalted(at(T0 + 9 * S, 3), 'error-breaker', ['b', 's']);
    expectActive(at(T0 + 10 * S, 3)); // half-open: placements try again
    expect(untilOf(at(T0 + 11 * S, 4))).toBe(T0 + 31 * S); // 20 s
    expectActive(at(T0 + 31 * S, 4));
    expect(untilOf(at(T0 + 32 * S, 5))).toBe(T0 + 72 * S); // 40 s
    expect(untilOf(at(T0 + 72 * S, 6))).toBe(T0 + 112 * S); // capped at 40 s
    expectActive(at(T0 + 113 * S, 0)); // a success closes it and resets the backoff
    expect(untilOf(at(T0 + 114 * S, 3))).toBe(T0 + 124 * S);
  });

  it('not ready: places nothing while the key fails, resumes by itself when it recovers', () => {
    const run = new GateRun();
    const acct = (authFailing: boolean, status = 'ACTIVE') =>
      snapshot(T0, { account: account({ authFailing, status }) });
    const v1 = run.step(input(T0, { snapshot: acct(true), actions: quote(), ownOrders: orders }));
    expect(v1.ready).toBe(false);
    expect(deniedReasons(v1)).toEqual(['not-ready', 'not-ready']);
    expect(v1.cancels).toEqual([]);
    expect(run.step(input(T0, { snapshot: acct(false, 'SUSPENDED'), actions: quote() })).ready).toBe(false);
    const v2 = run.step(input(T0, { snapshot: acct(false), actions: quote() }));
    expect(v2.ready).toBe(true);
    expectActive(v2);
  });

  it('token bucket: refills across evaluations, never more than ordersPerMinute per minute', () => {
    // Account limit 4/min: burst 2, refill 2/min (one token every 30 s).
    const run = new GateRun();
    const snap = (t: number) => snapshot(t, { account: account({ ordersPerMinute: 4 }) });
    const wants = (t: number) =>
      run.step(
        input(t, {
          snapshot: snap(t),
          actions: [0, 1, 2].map((l) => place('BUY', '99', '0.1', { level: l })),
        }),
      );
    const placedAt: number[] = [];
    for (let t = T0; t < T0 + 5 * 60 * S; t += 5 * S) {
      const n = allowedSlots(wants(t)).length;
      for (let i = 0; i < n; i++) placedAt.push(t);
    }
    expect(placedAt.slice(0, 4)).toEqual([T0, T0, T0 + 30 * S, T0 + 60 * S]);
    for (const start of placedAt) {
      expect(placedAt.filter((t) => t >= start && t < start + 60 * S).length).toBeLessThanOrEqual(4);
    }
  });

  it('reducing: resumes quoting both sides once fills bring the position back within the limit', () => {
    const run = new GateRun();
    const v1 = run.step(
      input(T0, { inventory: { 'BTC/USDC': d('120') }, actions: quote(), ownOrders: orders }),
    );
    expect(v1.pairStates['BTC/USDC']).toBe('reducing');
    expect(allowedSlots(v1)).toEqual(['BTC/USDC:SELL:0']);
    expect(forcedKeys(v1)).toEqual(['b']);
    expectActive(run.step(input(T0 + S, { inventory: { 'BTC/USDC': d('90') }, actions: quote() })));
  });
});

import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import { DAY_MS, markToMid, stepDailyLoss, type DailyLossState } from '../../src/risk/daily-loss-guard.js';
import { CLOSED_BREAKER, backoffMs, stepBreaker } from '../../src/risk/error-breaker.js';
import { checkInventoryPlacement, inventoryStanding, reducingSide } from '../../src/risk/inventory-guard.js';
import { EMPTY_PRICE_JUMP, largestMovePct, stepPriceJump } from '../../src/risk/price-jump-guard.js';
import { accountNotReady, bookFreshness } from '../../src/risk/trading-readiness.js';
import { T0, account, bookAt } from './support/fixtures.js';

const d = (s: string | number): Dec => new Dec(s);

describe('price-jump guard', () => {
  const p = { maxMovePct: d('2'), windowMs: 30_000, cooldownMs: 60_000 };
  const at = (t: number, price: string) => ({ at: T0 + t, price: d(price) });

  it.each([
    {
      name: 'up 2 % exactly: no trip',
      seq: [
        [0, '100'],
        [10_000, '102'],
      ],
      paused: false,
    },
    {
      name: 'up 2.01 %: trip',
      seq: [
        [0, '100'],
        [10_000, '102.01'],
      ],
      paused: true,
    },
    {
      name: 'down 2.5 %: trip',
      seq: [
        [0, '100'],
        [10_000, '97.5'],
      ],
      paused: true,
    },
    {
      name: 'spike and back within the window: trips at the spike',
      seq: [
        [0, '100'],
        [5_000, '103'],
        [6_000, '100'],
      ],
      paused: true,
    },
    {
      name: 'the same move spread over more than the window: no trip',
      seq: [
        [0, '100'],
        [31_000, '103'],
      ],
      paused: false,
    },
    {
      name: 'no new sample: no trip',
      seq: [
        [0, '100'],
        [0, '150'],
      ],
      paused: false,
    },
  ])('$name', ({ seq, paused }) => {
    let s = EMPTY_PRICE_JUMP;
    let last = false;
    let last_t = 0;
    for (const [t, price] of seq as [number, string][]) {
      const r = stepPriceJump(s, at(t, price), T0 + t, p);
      s = r.state;
      last = last || r.paused;
      last_t = t;
    }
    expect(last).toBe(paused);
    if (paused) expect(s.pausedUntil).toBeGreaterThan(T0 + last_t);
  });

  it('resets its history on a trip, so the new level is the new baseline', () => {
    let s = stepPriceJump(EMPTY_PRICE_JUMP, at(0, '100'), T0, p).state;
    s = stepPriceJump(s, at(1_000, '110'), T0 + 1_000, p).state;
    expect(s.samples).toEqual([at(1_000, '110')]);
    const r = stepPriceJump(s, at(61_000, '110'), T0 + 61_000, p);
    expect(r.paused).toBe(false);
  });

  it('largestMovePct compares against every sample and skips non-positive ones', () => {
    expect(largestMovePct([at(0, '100'), at(1, '0'), at(2, '95')], d('104.5')).toFixed()).toBe('10');
    expect(largestMovePct([], d('1')).toFixed()).toBe('0');
  });
});

describe('daily loss guard', () => {
  const lim = { perPair: d('100'), total: d('150') };
  const quoteOf = (pair: string) => pair.split('/')[1]!;
  const pairs = ['A/USDC', 'B/USDC', 'C/EUR'];
  const step = (s: DailyLossState | null, pnl: Record<string, string>, now: number) =>
    stepDailyLoss(
      s,
      Object.fromEntries(Object.entries(pnl).map(([k, v]) => [k, d(v)])),
      pairs,
      quoteOf,
      now,
      lim,
    );

  it.each<{ name: string; pnl: Record<string, string>; halted: string[] }>([
    { name: 'within limits', pnl: { 'A/USDC': '-100', 'B/USDC': '-50' }, halted: [] },
    { name: 'one pair beyond', pnl: { 'A/USDC': '-100.01' }, halted: ['A/USDC'] },
    {
      name: 'total of a quote group beyond',
      pnl: { 'A/USDC': '-80', 'B/USDC': '-80' },
      halted: ['A/USDC', 'B/USDC'],
    },
    {
      name: 'different quote instruments are never summed',
      pnl: { 'A/USDC': '-80', 'C/EUR': '-80' },
      halted: [],
    },
    {
      name: 'gains offset losses in a group',
      pnl: { 'A/USDC': '-99', 'B/USDC': '-99', 'C/EUR': '500' },
      halted: ['A/USDC', 'B/USDC'],
    },
  ])('$name', ({ pnl, halted }) => {
    const base = step(null, {}, T0);
    const r = step(base.state, pnl, T0 + 1_000);
    expect(Object.keys(r.state.halted).sort()).toEqual(halted);
    expect(r.dayEndsAt).toBe((Math.floor(T0 / DAY_MS) + 1) * DAY_MS);
  });

  it('measures from the PnL at first sight that day, and takes a new baseline each UTC day', () => {
    let r = step(null, { 'A/USDC': '1000' }, T0);
    r = step(r.state, { 'A/USDC': '950' }, T0 + 1);
    expect(r.dailyPnl['A/USDC']!.toFixed()).toBe('-50');
    const next = r.dayEndsAt;
    r = step(r.state, { 'A/USDC': '950' }, next);
    expect(r.dailyPnl['A/USDC']!.toFixed()).toBe('0');
    expect(r.state.day).toBe(next / DAY_MS);
  });

  it('a pair whose PnL is not known (null) takes no baseline, is not checked, keeps its halt and still halts with its group', () => {
    const pnl = (over: Record<string, Dec | null>) => over;
    const raw = (s: DailyLossState | null, p: Record<string, Dec | null>, now: number) =>
      stepDailyLoss(s, p, pairs, quoteOf, now, lim);
    // Unknown at first sight: no baseline until a PnL is known, then measured from there.
    let r = raw(null, pnl({ 'A/USDC': null, 'B/USDC': d('0') }), T0);
    expect(Object.keys(r.state.baseline).sort()).toEqual(['B/USDC', 'C/EUR']);
    expect(r.dailyPnl['A/USDC']).toBeUndefined();
    r = raw(r.state, pnl({ 'A/USDC': d('-5000') }), T0 + 1);
    expect(r.state.baseline['A/USDC']!.toFixed()).toBe('-5000');
    expect(r.state.halted).toEqual({});
    // Unknown later: neither a loss nor a gain, the baseline and a latched halt stay.
    r = raw(r.state, pnl({ 'A/USDC': d('-5101') }), T0 + 2);
    expect(Object.keys(r.state.halted)).toEqual(['A/USDC']);
    r = raw(r.state, pnl({ 'A/USDC': null }), T0 + 3);
    expect(r.state.baseline['A/USDC']!.toFixed()).toBe('-5000');
    expect(Object.keys(r.state.halted)).toEqual(['A/USDC']);
    // Adds nothing to its group's loss, but halts with it.
    const g = raw(null, pnl({ 'A/USDC': d('0'), 'B/USDC': d('0') }), T0);
    const h = raw(g.state, pnl({ 'A/USDC': null, 'B/USDC': d('-99') }), T0 + 1);
    expect(h.state.halted).toEqual({});
    const t = stepDailyLoss(g.state, pnl({ 'A/USDC': null, 'B/USDC': d('-99') }), pairs, quoteOf, T0 + 1, {
      perPair: d('100'),
      total: d('90'),
    });
    expect(Object.keys(t.state.halted).sort()).toEqual(['A/USDC', 'B/USDC']);
  });

  it('markToMid values the base position at the mid', () => {
    expect(markToMid({ base: d('-0.5'), quote: d('60') }, d('100')).toFixed()).toBe('10');
  });
});

describe('error breaker', () => {
  const p = { failures: 3, baseBackoffMs: 1_000, maxBackoffMs: 5_000 };

  it.each([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [4, 5_000],
    [60, 5_000],
  ])('trip %i pauses %i ms', (trip, ms) => {
    expect(backoffMs(trip, p)).toBe(ms);
  });

  it('raises a cap below the base to the base', () => {
    expect(backoffMs(3, { failures: 1, baseBackoffMs: 2_000, maxBackoffMs: 10 })).toBe(2_000);
  });

  it.each([
    { name: 'below threshold', state: CLOSED_BREAKER, failures: 2, now: 0, open: false, tripped: false },
    { name: 'at threshold', state: CLOSED_BREAKER, failures: 3, now: 0, open: true, tripped: true },
    {
      name: 'paused',
      state: { trips: 1, openUntil: 1_000, failuresAtTrip: 3 },
      failures: 3,
      now: 999,
      open: true,
      tripped: false,
    },
    {
      name: 'half-open after the pause',
      state: { trips: 1, openUntil: 1_000, failuresAtTrip: 3 },
      failures: 3,
      now: 1_000,
      open: false,
      tripped: false,
    },
    {
      name: 'fails again after the pause',
      state: { trips: 1, openUntil: null, failuresAtTrip: 3 },
      failures: 4,
      now: 2_000,
      open: true,
      tripped: true,
    },
    {
      name: 'a success closes it',
      state: { trips: 4, openUntil: 9_999, failuresAtTrip: 6 },
      failures: 0,
      now: 0,
      open: false,
      tripped: false,
    },
    {
      name: 'garbage count counts as 0',
      state: CLOSED_BREAKER,
      failures: Number.NaN,
      now: 0,
      open: false,
      tripped: false,
    },
  ])('$name', ({ state, failures, now, open, tripped }) => {
    const r = stepBreaker(state, failures, now, p);
    expect(r.open).toBe(open);
    expect(r.tripped).toBe(tripped);
    if (failures === 0) expect(r.state).toEqual(CLOSED_BREAKER);
  });
});

describe('inventory guard', () => {
  const limits = { maxBase: d('10'), maxNotional: d('5000') };

  it.each([
    ['5', '100', 'within'],
    ['10', null, 'at'],
    ['-10.1', null, 'beyond'],
    ['5', '1000', 'at'], // 5 × 1000 = 5000 notional
    ['6', '1000', 'beyond'],
  ] as const)('position %s at mid %s is %s', (pos, mid, want) => {
    expect(inventoryStanding(d(pos), mid === null ? null : d(mid), limits)).toBe(want);
  });

  it.each([
    // position, working, side, qty → allowed?
    ['0', '0', 'BUY', '10', true],
    ['0', '5', 'BUY', '6', false],
    ['12', '0', 'SELL', '2', true], // shrinks, still beyond
    ['12', '0', 'SELL', '22.5', false], // crosses to −10.5
    ['12', '0', 'SELL', '22', true], // crosses to −10: at the limit, not beyond
    ['12', '0', 'BUY', '0.1', false],
  ] as const)('position %s, working %s, %s %s → %s', (pos, working, side, qty, ok) => {
    const r = checkInventoryPlacement(d(pos), d(working), side, d(qty), null, limits);
    expect(r === null).toBe(ok);
  });

  it('reducingSide', () => {
    expect(reducingSide(d('1'))).toBe('SELL');
    expect(reducingSide(d('-1'))).toBe('BUY');
    expect(reducingSide(d('0'))).toBeNull();
  });
});

describe('readiness', () => {
  it.each([
    [null, /not been read/],
    [account({ authFailing: true }), /API key is failing/],
    [account({ status: 'DISABLED' }), /DISABLED/],
    [account(), null],
  ])('account %#', (acct, want) => {
    const r = accountNotReady(acct);
    if (want === null) expect(r).toBeNull();
    else expect(r).toMatch(want);
  });

  it.each([
    { book: null, now: T0 + 5_000, stale: true, cancel: false },
    { book: null, now: T0 + 5_001, stale: true, cancel: true },
    { book: bookAt(T0), now: T0 + 5_000, stale: false, cancel: false },
    { book: bookAt(T0), now: T0 + 5_001, stale: true, cancel: true },
  ])('book freshness %#', ({ book, now, stale, cancel }) => {
    expect(bookFreshness(book, now, 5_000, T0)).toMatchObject({ stale, cancel });
  });
});

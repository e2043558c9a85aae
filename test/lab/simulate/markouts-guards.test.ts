import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { GuardEpisodes, summariseGuards } from '../../../src/lab/simulate/figures/guard-episodes.js';
import { combineMarkouts, markouts } from '../../../src/lab/simulate/figures/markouts.js';
import type { OwnFill } from '../../../src/lab/simulate/figures/money-figures.js';
import { ReferenceSeries } from '../../../src/lab/simulate/figures/reference-series.js';
import { runFigures } from '../../../src/lab/simulate/figures/figures.js';
import { checks } from '../../../src/lab/simulate/figures/report.js';
import { formatEpisodes } from '../../../src/lab/simulate/render/summary-table.js';
import type { RiskReason } from '../../../src/risk/risk-types.js';
import { syntheticCapture } from './support/synthetic-capture.js';

const S = 1000;
const fill = (at: number, side: 'BUY' | 'SELL', price: string, quantity: string): OwnFill => ({
  at: at * S,
  pair: 'ETH/USDC',
  side,
  price: dec(price),
  quantity: dec(quantity),
  role: 'maker',
});

describe('markouts against a reference series', () => {
  // 100 until 10 s, 101 until 40 s, 99 after.
  const ref = new ReferenceSeries([
    { at: 0, price: '100' },
    { at: 10 * S, price: '101' },
    { at: 40 * S, price: '99' },
  ]);

  it.each([
    // [fill, horizon s, expected pnl]: up after a buy and down after a sell are positive.
    [fill(8, 'BUY', '99.9', '2'), 5, '2'], // 100 → 101
    [fill(8, 'SELL', '100.1', '2'), 5, '-2'],
    [fill(8, 'BUY', '99.9', '1'), 60, '-1'], // 100 → 99
    [fill(20, 'SELL', '101', '1'), 30, '2'], // 101 → 99
    [fill(20, 'SELL', '101', '1'), 5, '0'],
  ])('%o at %i s: %s', (f, h, pnl) => {
    const [m] = markouts([f], ref, 1000 * S, [h]);
    expect(m!.fills).toBe(1);
    expect(m!.pnl.toString()).toBe(pnl);
    expect(m!.bps!.toNumber()).toBeCloseTo(
      (Number(pnl) / (ref.at(f.at)!.toNumber() * f.quantity.toNumber())) * 1e4,
      9,
    );
  });

  it('leaves out a fill whose horizon passes the end of the run', () => {
    const [m5, m300] = markouts([fill(8, 'BUY', '99.9', '1')], ref, 100 * S, [5, 300]);
    expect(m5!.fills).toBe(1);
    expect(m300!.fills).toBe(0);
    expect(m300!.bps).toBeNull();
  });

  it('combines pairs by summing pnl and volume', () => {
    const a = markouts([fill(8, 'BUY', '99.9', '1')], ref, 1000 * S, [5]);
    const b = markouts([fill(8, 'SELL', '100.1', '3')], ref, 1000 * S, [5]);
    const [c] = combineMarkouts([a, b]);
    expect(c!.fills).toBe(2);
    expect(c!.pnl.toString()).toBe('-2');
    expect(c!.bps!.toNumber()).toBeCloseTo((-2 / 400) * 1e4, 9);
  });
});

describe('guard episodes from the risk verdicts', () => {
  const verdict = (reasons: RiskReason[], active: boolean, ready = true) => ({
    reasons,
    ready,
    pairStates: { 'ETH/USDC': active ? ('active' as const) : ('halted' as const) },
  });
  const loss: RiskReason = { pair: 'ETH/USDC', rule: 'daily-loss', detail: 'lost 600' };
  const inv: RiskReason = { pair: 'ETH/USDC', rule: 'max-inventory', detail: 'long' };

  it('the start (not ready, no book yet) is not a halt; later halts and trips are, with durations', () => {
    const g = new GuardEpisodes();
    g.observe(0, verdict([{ pair: null, rule: 'not-ready', detail: 'no account read' }], false, false));
    g.observe(1 * S, verdict([{ pair: 'ETH/USDC', rule: 'stale-book', detail: 'no poll' }], false));
    g.observe(2 * S, verdict([], true));
    g.observe(10 * S, verdict([inv], true));
    g.observe(20 * S, verdict([inv, loss], false));
    g.observe(30 * S, verdict([loss], false));
    g.observe(50 * S, verdict([], true));
    g.observe(60 * S, verdict([loss], false));
    const episodes = g.episodes(100 * S);
    expect(episodes.map((e) => [e.rule, e.kind, e.start / S, e.end / S])).toEqual([
      ['max-inventory', 'reducing', 10, 30],
      ['daily-loss', 'halt', 20, 50],
      ['daily-loss', 'halt', 60, 100],
    ]);
    expect(summariseGuards(episodes, 'halt')).toEqual({
      count: 2,
      totalMs: 70 * S,
      byRule: { 'daily-loss': { count: 2, totalMs: 70 * S } },
    });
    expect(summariseGuards(episodes, 'reducing').count).toBe(1);
  });

  it('an account-wide halt counts once the account was ready', () => {
    const g = new GuardEpisodes();
    g.observe(0, verdict([], true));
    g.observe(5 * S, verdict([{ pair: null, rule: 'error-breaker', detail: '5 failures' }], false));
    g.observe(9 * S, verdict([], true));
    expect(g.episodes(10 * S).map((e) => [e.pair, e.rule, e.end - e.start])).toEqual([
      [null, 'error-breaker', 4 * S],
    ]);
  });
});

describe('a run that halted never reads as clean', () => {
  const halted = runFigures(
    'daemon',
    syntheticCapture({
      guards: [
        {
          pair: 'BTC/USDC',
          rule: 'daily-loss',
          kind: 'halt',
          start: 300 * S,
          end: 1000 * S,
          detail: 'day loss 2600 beyond the per-pair limit 2500',
        },
      ],
    }),
    10,
  ).figures;

  it('the figures count it, the target fails, the summary lists it with its reason', () => {
    expect(halted.halts).toEqual({
      count: 1,
      totalMs: 700 * S,
      byRule: { 'daily-loss': { count: 1, totalMs: 700 * S } },
    });
    const check = checks(halted, []).find((c) => c.name === 'no halts of the daemon')!;
    expect(check.ok).toBe(false);
    expect(check.detail).toBe('daemon: 1 (11.7 min)');
    expect(formatEpisodes(halted)).toEqual([
      'daemon: 1 halt(s) for 700.0 s, 0 inventory guard trip(s) for 0.0 s:',
      '  HALT  BTC/USDC  daily-loss  at 300.0 s for 700.0 s: day loss 2600 beyond the per-pair limit 2500',
    ]);
  });
});

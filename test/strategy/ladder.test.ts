import { describe, expect, it } from 'vitest';
import type { DeepPartial, PairStrategyConfig } from '../../src/config/sections/strategy.js';
import { computeQuotes } from '../../src/strategy/strategy.js';
import { issuesOf, opts, useTmpDir, writeFile } from '../config/support/config-setup.js';
import { loadConfig } from '../../src/config/load.js';
import { BALANCED } from './support/strategy-cases.js';
import { PAIR, bal, market, params, show, snapshot } from './support/fixtures.js';

/**
 * Free-form ladders (`levels.ladder`): a distance from the reference and a size per level, per
 * side. The fixtures' book is 99/101 (reference 100); prices are on a 0.01 tick.
 */

const TICK = { guards: { tick: '0.01' } };
const quotes = (
  over: DeepPartial<PairStrategyConfig>,
  timing?: Parameters<typeof computeQuotes>[4],
  wallet: Parameters<typeof computeQuotes>[2] = BALANCED,
) =>
  show(
    computeQuotes(snapshot([market()], null), [], wallet, params({ [PAIR]: { ...TICK, ...over } }), timing)
      .quotes,
  );
const RUNGS = [
  { spreadBps: 5, size: '0.01' },
  { spreadBps: 20, size: '0.02' },
  { spreadBps: 60, size: '0.05' },
];

describe('levels.ladder: the quotes', () => {
  it.each<{ name: string; over: DeepPartial<PairStrategyConfig>; quotes: string[] }>([
    {
      name: 'one ladder for both sides: each level at its own distance and size',
      over: { levels: { ladder: RUNGS } },
      quotes: [
        'BUY 0 99.95@0.01',
        'BUY 1 99.8@0.02',
        'BUY 2 99.4@0.05',
        'SELL 0 100.05@0.01',
        'SELL 1 100.2@0.02',
        'SELL 2 100.6@0.05',
      ],
    },
    {
      name: 'buy and sell ladders differ',
      over: {
        levels: {
          ladder: { buy: [{ spreadBps: 10, size: '0.03' }], sell: [RUNGS[0]!, RUNGS[1]!] },
        },
      },
      quotes: ['BUY 0 99.9@0.03', 'SELL 0 100.05@0.01', 'SELL 1 100.2@0.02'],
    },
    {
      name: 'sizes in quote notional (levels.sizeUnit)',
      over: { levels: { sizeUnit: 'quote', ladder: [{ spreadBps: 10, size: '5' }] } },
      quotes: ['BUY 0 99.9@0.05005005', 'SELL 0 100.1@0.04995004'],
    },
    {
      name: 'spread.minBps holds the innermost rung',
      over: { levels: { ladder: [RUNGS[0]!, RUNGS[1]!] }, spread: { minBps: 8 } },
      quotes: ['BUY 0 99.92@0.01', 'BUY 1 99.8@0.02', 'SELL 0 100.08@0.01', 'SELL 1 100.2@0.02'],
    },
  ])('$name', ({ over, quotes: want }) => {
    expect(quotes(over)).toEqual(want);
  });

  it('the inventory skew shifts every level (long base: all lower, as the classic levels)', () => {
    const long = { BTC: bal('1.5'), USDC: bal(100) };
    const skew = { inventory: { maxSkewBps: 10 } };
    expect(quotes({ ...skew, levels: { ladder: [RUNGS[0]!, RUNGS[1]!] } }, undefined, long)).toEqual([
      'BUY 0 99.91@0.01',
      'BUY 1 99.76@0.02',
      'SELL 0 100.02@0.01',
      'SELL 1 100.16@0.02',
    ]);
    expect(quotes({ ...skew, levels: { ladder: [RUNGS[0]!, RUNGS[1]!] } })).toEqual([
      'BUY 0 99.95@0.01',
      'BUY 1 99.8@0.02',
      'SELL 0 100.05@0.01',
      'SELL 1 100.2@0.02',
    ]);
  });

  // σ = 1 bp/√s (prior) and a 100 s placement: the model's floor is 1.5 × 10 + 8 = 23 bps.
  const LATENCY = { priorSigmaBps: 1, spreadZ: 1.5, marginBps: 8 };
  const TIMED = { placementMs: 100_000, cancelMs: 25_000, queued: 0 };
  it('the latency-aware model keeps its σ floor under every level; a rung inside it keeps its spacing', () => {
    const got = quotes(
      {
        model: 'latency-aware',
        latency: LATENCY,
        levels: {
          ladder: [
            { spreadBps: 5, size: '0.01' },
            { spreadBps: 15, size: '0.01' },
            { spreadBps: 40, size: '0.01' },
          ],
        },
      },
      TIMED,
    );
    // 5 → the floor, 23 bps; 15 is inside the floor too → 10 bps beyond level 0; 40 is beyond → 40.
    expect(got).toEqual([
      'BUY 0 99.77@0.01',
      'BUY 1 99.67@0.01',
      'BUY 2 99.6@0.01',
      'SELL 0 100.23@0.01',
      'SELL 1 100.34@0.01',
      'SELL 2 100.4@0.01',
    ]);
  });

  it('without a ladder the levels are the classic ones', () => {
    expect(quotes({ levels: { count: 2, spacingBps: 10 } })).toEqual([
      'BUY 0 99.9@0.01',
      'BUY 1 99.8@0.01',
      'SELL 0 100.1@0.01',
      'SELL 1 100.21@0.01',
    ]);
  });
});

describe('levels.ladder: validation', () => {
  const tmp = useTmpDir();
  const load = (levels: unknown) => {
    const dir = tmp();
    const file = writeFile(dir, 'c.json', { pairs: ['BTC/USDC'], strategy: { defaults: { levels } } });
    return () => loadConfig(opts(dir, { configFiles: [file] }));
  };
  it.each<{ name: string; levels: unknown; key: string; reason: RegExp }>([
    {
      name: 'a ladder with levels.count',
      levels: { count: 2, ladder: RUNGS },
      key: 'strategy.defaults.levels.ladder',
      reason: /replaces levels.count \(2\)/,
    },
    {
      name: 'a ladder with levels.sizeIncrement',
      levels: { sizeIncrement: '0.01', ladder: RUNGS },
      key: 'strategy.defaults.levels.ladder',
      reason: /replaces levels.sizeIncrement/,
    },
    {
      name: 'rungs not innermost first',
      levels: { ladder: [RUNGS[1], RUNGS[0]] },
      key: 'strategy.defaults.levels.ladder',
      reason: /innermost first/,
    },
    {
      name: 'a rung without a size',
      levels: { ladder: [{ spreadBps: 5 }] },
      key: 'strategy.defaults.levels.ladder',
      reason: /must be \[\] \(off\), a list of \{spreadBps, size\} rungs/,
    },
    {
      name: 'a side left out',
      levels: { ladder: { buy: RUNGS } },
      key: 'strategy.defaults.levels.ladder',
      reason: /must be \[\] \(off\)/,
    },
  ])('$name is refused', ({ levels, key, reason }) => {
    const issues = issuesOf(load(levels));
    expect(issues.find((i) => i.key === key)?.reason).toMatch(reason);
  });

  it('a ladder with the default levels loads', () => {
    expect(load({ ladder: RUNGS })().strategy.defaults.levels.ladder).toEqual(RUNGS);
  });
});

import { describe, expect, it } from 'vitest';
import { candidates, gridAt, gridSize } from '../../../src/lab/tune/search.js';
import {
  candidateConfig,
  candidateText,
  parseTuneParam,
  resolveKey,
  TuneParamError,
} from '../../../src/lab/tune/tune-params.js';
import { rank, score } from '../../../src/lab/tune/tune.js';
import { runFigures } from '../../../src/lab/simulate/figures/figures.js';
import { syntheticCapture } from '../simulate/support/synthetic-capture.js';

describe('--param keys resolve against the strategy parameter tables', () => {
  it.each([
    ['strategy.spread.bidBps', 'strategy.defaults.spread.bidBps'],
    ['strategy.defaults.spread.bidBps', 'strategy.defaults.spread.bidBps'],
    ['strategy.inventory.maxSkewBps', 'strategy.defaults.inventory.maxSkewBps'],
    ['strategy.reconcile.priceToleranceBps', 'strategy.reconcile.priceToleranceBps'],
    ['strategy.levels.size', 'strategy.defaults.levels.size'],
  ])('%s → %s', (key, path) => {
    expect(resolveKey(key)?.path.join('.')).toBe(path);
  });

  it.each([['strategy.spread'], ['strategy.spread.nope'], ['strategy.defaults'], ['risk.maxOrderNotional']])(
    '%s names no strategy parameter',
    (key) => {
      expect(resolveKey(key)).toBeNull();
    },
  );

  it('values take the type their spec accepts: numbers for bps, decimal strings for sizes', () => {
    expect(parseTuneParam('strategy.spread.bidBps=10, 12.5,10').values).toEqual([10, 12.5]);
    expect(parseTuneParam('strategy.levels.size=15000,20000').values).toEqual(['15000', '20000']);
    expect(parseTuneParam('strategy.levels.sizeUnit=base,quote').values).toEqual(['base', 'quote']);
  });

  it.each([
    ['strategy.spread.bidBps=-1', /must be a number of basis points/],
    ['strategy.spread.bidBps=', /empty value/],
    ['strategy.spread.nope=1', /not a strategy parameter/],
    ['bidBps=1', /not a config path/],
    ['strategy.spread.bidBps', /KEY=V1,V2/],
  ])('%s is refused', (arg, message) => {
    expect(() => parseTuneParam(arg)).toThrow(TuneParamError);
    expect(() => parseTuneParam(arg)).toThrow(message);
  });

  it('a key outside the strategy is passed to the config loader as given', () => {
    expect(parseTuneParam('risk.maxOrderNotional="30000"')).toEqual({
      paths: [['risk', 'maxOrderNotional']],
      key: 'risk.maxOrderNotional',
      values: ['30000'],
    });
  });

  it("a candidate's config layer and its text", () => {
    const params = [
      parseTuneParam('strategy.spread.bidBps=10'),
      parseTuneParam('strategy.reconcile.priceToleranceBps=4'),
    ];
    const c = { 'strategy.defaults.spread.bidBps': 10, 'strategy.reconcile.priceToleranceBps': 4 };
    expect(candidateConfig(params, c)).toEqual({
      strategy: { defaults: { spread: { bidBps: 10 } }, reconcile: { priceToleranceBps: 4 } },
    });
    expect(candidateText(c)).toBe('spread.bidBps=10 strategy.reconcile.priceToleranceBps=4');
  });

  it('keys joined by + are tied: one axis of the grid, every value set at each key', () => {
    const tied = parseTuneParam('strategy.spread.bidBps+strategy.spread.askBps=20,30');
    expect(tied.key).toBe('strategy.defaults.spread.bidBps+strategy.defaults.spread.askBps');
    expect(tied.values).toEqual([20, 30]);
    expect(gridSize([tied, parseTuneParam('strategy.reconcile.priceToleranceBps=8,12')])).toBe(4);
    const c = { [tied.key]: 30 };
    expect(candidateConfig([tied], c)).toEqual({
      strategy: { defaults: { spread: { bidBps: 30, askBps: 30 } } },
    });
    expect(candidateText(c)).toBe('spread.bidBps+spread.askBps=30');
  });

  it.each([
    ['strategy.spread.bidBps+strategy.levels.size=10', /levels.size: 10/],
    ['strategy.spread.bidBps+strategy.spread.nope=10', /not a strategy parameter/],
    ['strategy.spread.bidBps+strategy.defaults.spread.bidBps=10', /tied to itself/],
    ['strategy.spread.bidBps+=10', /not a config path/],
  ])('tied %s is refused', (arg, message) => {
    expect(() => parseTuneParam(arg)).toThrow(message);
  });
});

describe('grid and random search', () => {
  const params = [
    parseTuneParam('strategy.spread.bidBps=10,20,30'),
    parseTuneParam('strategy.spread.askBps=1,2'),
  ];

  it('the grid: every combination, the last parameter fastest', () => {
    expect(gridSize(params)).toBe(6);
    expect(gridAt(params, 0)).toEqual({
      'strategy.defaults.spread.bidBps': 10,
      'strategy.defaults.spread.askBps': 1,
    });
    expect(gridAt(params, 3)).toEqual({
      'strategy.defaults.spread.bidBps': 20,
      'strategy.defaults.spread.askBps': 2,
    });
    expect(candidates(params, null)).toHaveLength(6);
  });

  it('a random draw: distinct combinations of the grid, the same for the same seed', () => {
    const a = candidates(params, 4, 7);
    expect(a).toHaveLength(4);
    expect(new Set(a.map((c) => JSON.stringify(c))).size).toBe(4);
    expect(candidates(params, 4, 7)).toEqual(a);
    expect(candidates(params, 10, 7)).toHaveLength(6);
  });
});

describe('scoring and ranking', () => {
  const run = runFigures('daemon', syntheticCapture(), 10).figures;
  const objective = { minCapturedBps: 0, minUptime: 0.95, maxHalts: 0 };

  it('a candidate missing a constraint ranks after those meeting them all, whatever its PnL', () => {
    const good = score(1, {}, [1], [run], { ...objective, minUptime: 0.995 });
    expect(good.meanPnl).toBeCloseTo(0.305, 6);
    expect(good.misses).toEqual(['uptime']); // 99.0 % after the first two-sided quote
    const lax = { ...objective, minUptime: 0.9 };
    const a = score(1, {}, [1], [run], lax);
    const b = score(2, {}, [1, 2], [run, { ...run, pnl: '-5.0000' }], lax);
    const c = score(
      3,
      {},
      [1],
      [{ ...run, pnl: '100.0000', halts: { count: 1, totalMs: 1, byRule: {} } }],
      lax,
    );
    expect(a.misses).toEqual([]);
    expect(b.meanPnl).toBeCloseTo((0.305 - 5) / 2, 6);
    expect(b.positivePnlSeeds).toBe(1);
    expect(c.misses).toEqual(['halts']);
    expect(rank([c, b, a]).map((s) => s.index)).toEqual([1, 2, 3]);
  });
});

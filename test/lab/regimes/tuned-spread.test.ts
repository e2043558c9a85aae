import { describe, expect, it } from 'vitest';
import { runSimulate } from '../../../src/cli/simulate.js';
import { loadScenario } from '../../../src/lab/simulate/run/scenario.js';
import { strategySetup, TUNED_SPREAD } from '../../../src/lab/simulate/run/strategies.js';
import { runCaptured } from '../../support/captured-io.js';

describe('the tuned plain spread model baseline', () => {
  it('quotes the plain model, one level, 30 bps a side, tolerance 12, skew up to 30', () => {
    const scenario = loadScenario({
      hours: 1,
      seed: 1,
      latency: 'realistic',
      configFiles: [],
      market: null,
      cwd: process.cwd(),
      env: {},
    });
    const s = strategySetup('tuned-spread', scenario.config);
    expect(s.reconciler).toBeUndefined();
    const d = s.config.strategy.defaults;
    expect([d.model, d.levels.count, d.spread.bidBps, d.spread.askBps, d.inventory.maxSkewBps]).toEqual([
      'spread',
      1,
      TUNED_SPREAD.halfSpreadBps,
      TUNED_SPREAD.halfSpreadBps,
      TUNED_SPREAD.maxSkewBps,
    ]);
    expect(s.config.strategy.reconcile.priceToleranceBps).toBe(12);
    // The daemon's own config is untouched.
    expect(scenario.config.strategy.defaults.spread.bidBps).toBe(12);
  });
});

describe('simulate --regimes: usage', () => {
  it.each([
    [['--regimes', 'nope'], /--regimes: unknown suite "nope" \(suites: standard\)/],
    [['--regimes', '--seed', '3'], /--regimes runs --seeds \(default 1-4\), not --seed/],
    [['--baseline', 'tuned-spread'], /--baseline needs --compare or --regimes/],
    [
      ['--compare', '--baseline', 'best'],
      /--baseline must be one of cancel-then-replace, no-tolerance, tuned-spread/,
    ],
  ])('%o is refused', async (argv, message) => {
    const r = await runCaptured((io) => runSimulate(argv, io), {}, process.cwd());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

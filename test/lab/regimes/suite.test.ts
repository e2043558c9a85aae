import { describe, expect, it } from 'vitest';
import { applyRegime, findRegime, patchPair, suiteRegimes, SUITES } from '../../../src/lab/regimes/suite.js';
import { loadScenario, ScenarioError } from '../../../src/lab/simulate/run/scenario.js';
import { defaultMarketConfig } from '../../../src/sim/market/market-config.js';

const input = {
  hours: 1,
  seed: 1,
  latency: 'realistic' as const,
  configFiles: [],
  market: null,
  cwd: process.cwd(),
  env: {},
};

describe('the standard suite', () => {
  it('has at least calm, volatile, trending, jumpy, informed and competing makers', () => {
    expect(suiteRegimes('standard').map((r) => r.name)).toEqual([
      'calm',
      'volatile',
      'trending',
      'jumpy',
      'informed',
      'competing',
    ]);
    expect(() => suiteRegimes('nope')).toThrow(/unknown regime suite "nope" \(suites: standard\)/);
  });

  it('every regime is a valid market for every default pair, and changes it', () => {
    const market = defaultMarketConfig();
    for (const r of SUITES['standard']!) {
      const patched = applyRegime(market, r.name);
      for (const pair of Object.keys(market.pairs))
        expect(patched.pairs[pair]).not.toEqual(market.pairs[pair]);
    }
  });

  it('patches the parts it names and leaves the rest as the pair has them', () => {
    const btc = defaultMarketConfig().pairs['BTC/USDC']!;
    expect(patchPair(btc, findRegime('calm').patch).volatility).toBeCloseTo(0.3, 12);
    const jumpy = patchPair(btc, findRegime('jumpy').patch);
    expect(jumpy.jumps).toEqual({ enabled: true, ratePerHour: 4, meanSizeBps: 30, upShare: 0.5 });
    expect(jumpy.takers).toEqual(btc.takers);
    const informed = patchPair(btc, findRegime('informed').patch);
    expect(informed.takers.informedShare).toBe(0.25);
    expect(informed.takers.meanSizeBase).toBe(btc.takers.meanSizeBase);
    const competing = patchPair(btc, findRegime('competing').patch);
    expect(competing.background.firstLevelBps).toBe(6);
    expect(competing.background.sizeBase).toBe(btc.background.sizeBase);
  });

  it('a scenario takes the regime; an unknown one is a ScenarioError', () => {
    const plain = loadScenario(input);
    const trending = loadScenario({ ...input, regime: 'trending' });
    expect(plain.sim.market.pairs['ETH/USDC']!.driftRegimes.enabled).toBe(false);
    expect(trending.sim.market.pairs['ETH/USDC']!.driftRegimes.enabled).toBe(true);
    expect(() => loadScenario({ ...input, regime: 'sideways' })).toThrow(ScenarioError);
  });
});

import { describe, expect, it } from 'vitest';
import { LatencyConfigSchema, LatencyModel, profileRanges } from '../../src/sim/latency.js';
import { Rng } from '../../src/sim/rng.js';
import { DEFAULT_SIM_CONFIG_PATH, SimConfigSchema, loadSimConfig } from '../../src/sim/sim-config.js';
import { SimVenue } from '../../src/sim/sim-venue.js';

describe('latency profiles', () => {
  it('realistic follows the contract; fast is × 0.05; instant is 0', () => {
    const r = profileRanges('realistic');
    expect(r.prepare).toEqual([9_000, 14_000]);
    expect(r.cancelPrepare).toEqual([11_000, 23_000]);
    expect(r.submit).toEqual([18_000, 20_000]);
    expect(r.balancesCold[0]).toBeGreaterThan(10_000);
    expect(r.ordersRefresh[0]).toBeGreaterThanOrEqual(25_000);
    expect(profileRanges('fast').prepare).toEqual([450, 700]);
    expect(Object.values(profileRanges('instant')).every(([a, b]) => a === 0 && b === 0)).toBe(true);
  });

  it('samples inside the range, and overrides replace single keys', () => {
    const m = new LatencyModel(
      LatencyConfigSchema.parse({ overrides: { read: 5, confirm: [100, 200] } }),
      new Rng(3),
    );
    for (let i = 0; i < 100; i++) {
      const p = m.sample('prepare');
      expect(p).toBeGreaterThanOrEqual(9_000);
      expect(p).toBeLessThanOrEqual(14_000);
      const c = m.sample('confirm');
      expect(c).toBeGreaterThanOrEqual(100);
      expect(c).toBeLessThanOrEqual(200);
    }
    expect(m.sample('read')).toBe(5);
    const issues = (input: unknown): string[][] => {
      const r = LatencyConfigSchema.safeParse(input);
      return r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.code]);
    };
    expect(issues({ overrides: { read: [5, 1] } })).toEqual([['overrides.read', 'custom']]);
    expect(issues({ overrides: { nope: 1 } })).toEqual([['overrides', 'unrecognized_keys']]);
  });
});

describe('sim config', () => {
  it('config/sim.json: two pairs with a realistic minimum, one funded market-maker account, the market', () => {
    const c = loadSimConfig(DEFAULT_SIM_CONFIG_PATH);
    expect(c.pairs.map((p) => [p.pair, p.minQuoteAmount])).toEqual([
      ['BTC/USDC', '10'],
      ['ETH/USDC', '10'],
    ]);
    expect(c.accounts).toHaveLength(1);
    expect(c.accounts[0]).toMatchObject({
      status: 'ACTIVE',
      feeExempt: true,
      maxOpenOrders: 50,
      ordersPerMinute: 30,
    });
    expect(Object.keys(c.market.pairs).sort()).toEqual(['BTC/USDC', 'ETH/USDC']);
    expect(c.latency.profile).toBe('realistic');
  });

  it('the default venue builds from it and issues the account a key', async () => {
    const venue = new SimVenue({ latency: 'instant' });
    const key = venue.apiKeys.get('examplemm')!;
    expect(key).toMatch(/^mm_ak_[0-9a-f]+\.[0-9a-f]+$/);
    expect(venue.engine.balancesOf('examplemm')['USDC']).toEqual({ available: '250000', locked: '0' });
    await venue.close();
  });

  it('rejects unknown fields and bad values with a readable error', () => {
    const bad = SimConfigSchema.safeParse({
      pairs: [{ pair: 'BTCUSDC', base: 'BTC', quote: 'USDC' }],
      extra: 1,
    });
    expect(bad.success).toBe(false);
    expect(() => loadSimConfig('/nonexistent/sim.json')).toThrow(/cannot read sim config/);
  });

  it('applies defaults for everything but the pairs', () => {
    const c = SimConfigSchema.parse({ pairs: [{ pair: 'A/B', base: 'A', quote: 'B' }] });
    expect(c).toMatchObject({
      seed: 1,
      faults: [],
      accounts: [],
      bookProjectionLagMs: 500,
      latency: { profile: 'realistic' },
    });
    expect(c.timing).toEqual({
      preparedTtlMs: 300_000,
      submitTokenTtlMs: 1_200_000,
      balanceCacheTtlMs: 600_000,
    });
  });
});

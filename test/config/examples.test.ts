/**
 * `config/examples/`: every example runs as its docs/results page says, so none rots while the schemas move.
 * The scenario loader is the one `simulate` uses (the daemon's config over config/paper.json, the
 * market as a whole sim config).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { loadScenario } from '../../src/lab/simulate/run/scenario.js';
import { ROOT } from '../deploy/support/deploy-files.js';

const EXAMPLES = path.join(ROOT, 'config/examples');

/** The documented command line of each example: its daemon config files and its market. */
const RUNS: Record<string, { configFiles: string[]; market: string | null }> = {
  'four-pairs.json': { configFiles: ['four-pairs.json'], market: 'four-pairs-sim.json' },
  'four-pairs-sim.json': { configFiles: ['four-pairs.json'], market: 'four-pairs-sim.json' },
  'faulty-venue-sim.json': { configFiles: [], market: 'faulty-venue-sim.json' },
  'four-parties.json': { configFiles: ['four-parties.json'], market: null },
  // Hedged on the simulated hedge venue, layered over config/paper.json (docs/hedging.md).
  'hedged.json': { configFiles: ['hedged.json'], market: null },
  'hedged-threshold.json': { configFiles: ['hedged-threshold.json'], market: null },
  'hedged-every-fill.json': { configFiles: ['hedged-every-fill.json'], market: null },
  // The σ and jump levers over config/paper.json (docs/results/2026-11-28-regimes-2.md to -4.md).
  'regime-levers.json': { configFiles: ['regime-levers.json'], market: null },
  // Own-less mids, the oversize cancel and a 7 500 USDC level (docs/results/2026-11-29-regimes-7.md).
  'jump-guard.json': { configFiles: ['jump-guard.json'], market: null },
  // Replayed with `simulate --prices BTC/USDC=FILE` over the default config and market; the
  // series themselves are checked in test/lab/replay/.
  'replay-btc-usdc.csv': { configFiles: [], market: null },
  'replay-btc-usdc.parquet': { configFiles: [], market: null },
};

const scenario = (run: { configFiles: string[]; market: string | null }) =>
  loadScenario({
    hours: 1,
    seed: 1,
    latency: 'realistic',
    configFiles: run.configFiles.map((f) => path.join(EXAMPLES, f)),
    market: run.market === null ? null : path.join(EXAMPLES, run.market),
    cwd: ROOT,
    env: {},
  });

describe('config/examples', () => {
  it('every example has its run here', () => {
    expect(fs.readdirSync(EXAMPLES).sort()).toEqual(Object.keys(RUNS).sort());
  });

  it.each(Object.entries(RUNS))('%s loads as simulate loads it', (_name, run) => {
    expect(scenario(run).config.pairs.length).toBeGreaterThan(0);
  });

  it('the jump guard changes only its three settings of config/paper.json', () => {
    const base = scenario({ configFiles: [], market: null }).config;
    const guard = scenario(RUNS['jump-guard.json']!).config;
    expect(guard.market.mids.ownOrders).toBe('exclude');
    expect(base.market.mids.ownOrders).toBe('include');
    expect(guard.strategy.reconcile.oversizeMultiple).toBe(2);
    expect(guard.strategy.defaults.levels.size).toBe('7500');
    expect(base.strategy.defaults.levels.size).toBe('15000');
    expect(guard.strategy.defaults.latency).toEqual(base.strategy.defaults.latency);
  });

  it('the four-pair example quotes four pairs on a market that has them', () => {
    const s = scenario(RUNS['four-pairs.json']!);
    expect(s.config.pairs).toEqual(['BTC/USDC', 'ETH/USDC', 'SOL/USDC', 'AVAX/USDC']);
    expect(Object.keys(s.sim.market.pairs).sort()).toEqual([...s.config.pairs].sort());
  });

  it('the four-party example loads with the config loader: four parties over the default pairs, keys under one secrets dir', () => {
    const config = loadConfig({
      configFiles: [path.join(EXAMPLES, 'four-parties.json')],
      env: {},
      cwd: ROOT,
    });
    expect(config.pairs).toEqual(['BTC/USDC', 'ETH/USDC']);
    expect(config.firm.allocation).toBe('earliest-free');
    expect(config.firm.parties.map((p) => [p.name, p.apiKeyFile, p.signingKeyFile])).toEqual(
      [1, 2, 3, 4].map((i) => [
        `mm${i}`,
        `/run/secrets/ledger-mm/mm${i}.api-key`,
        `/run/secrets/ledger-mm/mm${i}.signing.key`,
      ]),
    );
    // No single-party key: with firm.parties those settings are not used.
    expect([config.venue.apiKey, config.venue.apiKeyFile, config.signing.keyFile]).toEqual(['', '', '']);
  });

  it("the faulty venue is config/sim.json's, with faults on the endpoints the daemon depends on", () => {
    const faulty = scenario(RUNS['faulty-venue-sim.json']!).sim;
    const plain = scenario({ configFiles: [], market: null }).sim;
    expect({ ...faulty, faults: [] }).toEqual({ ...plain, faults: [] });
    expect(new Set(faulty.faults.map((f) => f.endpoint))).toEqual(
      new Set(['submit', 'prepare', 'cancelPrepare', 'orderbook', 'orders', 'order', 'trades']),
    );
  });
});

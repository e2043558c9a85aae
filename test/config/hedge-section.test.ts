/**
 * The `hedge` config section: off by default, per-pair overrides over `hedge.defaults`, the rules
 * between keys, and credentials refused in a config file (files or the environment only).
 */
import { describe, expect, it } from 'vitest';

import type { ConfigError } from '../../src/config/errors.js';
import { formatConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { hedgeSettings } from '../../src/hedge/hedge-settings.js';
import { issuesOf, opts, useTmpDir, writeFile } from './support/config-setup.js';

const tmp = useTmpDir();
const PAIRS = ['BTC/USDC', 'ETH/USDC'];
const load = (hedge: unknown, env: NodeJS.ProcessEnv = {}) => {
  const cwd = tmp();
  const file = writeFile(cwd, 'conf.json', { pairs: PAIRS, hedge });
  return { file, config: () => loadConfig(opts(cwd, { configFiles: [file], env })) };
};

describe('hedge section', () => {
  it('is off by default: no pair is hedged', () => {
    const { config } = load({});
    expect(hedgeSettings(config()).size).toBe(0);
  });

  it('resolves an enabled pair from the defaults and its override', () => {
    const { config } = load({
      defaults: { exchange: 'binance', maxSlippageBps: 5, maxOrderBase: '0.5' },
      pairs: [
        {
          pair: 'BTC/USDC',
          enabled: true,
          symbol: 'BTC/USDT',
          mode: 'threshold',
          thresholdBase: '0.1',
          keepBase: '0.05',
        },
      ],
    });
    const all = hedgeSettings(config());
    expect([...all.keys()]).toEqual(['BTC/USDC']);
    const s = all.get('BTC/USDC')!;
    expect([
      s.exchange,
      s.symbol,
      s.market,
      s.rules.mode,
      s.rules.maxSlippageBps,
      s.onFailure,
      s.dryRun,
    ]).toEqual(['binance', 'BTC/USDT', 'spot', 'threshold', 5, 'stop', false]);
    expect([
      s.rules.thresholdBase.toFixed(),
      s.rules.keepBase?.toFixed(),
      s.rules.maxOrderBase.toFixed(),
      s.rules.maxPositionBase.toFixed(),
    ]).toEqual(['0.1', '0.05', '0.5', '10']);
  });

  it.each([
    [
      { pairs: [{ pair: 'BTC/USDC', enabled: true }] },
      ['hedge (BTC/USDC).exchange', 'hedge (BTC/USDC).symbol'],
    ],
    [
      {
        defaults: {
          enabled: true,
          exchange: 'binance',
          symbol: 'BTC/USDT',
          minOrderBase: '2',
          maxOrderBase: '1',
        },
      },
      ['hedge (BTC/USDC).minOrderBase', 'hedge (ETH/USDC).minOrderBase'],
    ],
    [
      { pairs: [{ pair: 'BTC/USDC', enabled: true, exchange: 'bybit', symbol: 'BTC/USDT', market: 'perp' }] },
      ['hedge (BTC/USDC).symbol'],
    ],
    [
      {
        pairs: [
          {
            pair: 'BTC/USDC',
            enabled: true,
            exchange: 'binance',
            symbol: 'BTC/USDT',
            mode: 'threshold',
            thresholdBase: '0.1',
            keepBase: '0.2',
          },
        ],
      },
      ['hedge (BTC/USDC).keepBase'],
    ],
    [{ pairs: [{ pair: 'SOL/USDC', enabled: false }] }, ['hedge.pairs[0].pair']],
    [{ pairs: [{ pair: 'BTC/USDC', maxSlippageBps: -1 }] }, ['hedge.pairs']],
    [{ defaults: { mode: 'sometimes' } }, ['hedge.defaults.mode']],
  ])('refuses %j at %j', (hedge, keys) => {
    const { config } = load(hedge);
    expect(issuesOf(config).map((i) => i.key)).toEqual(keys);
  });

  it.each([
    [{ apiKey: 'k-in-file' }, 'hedge.apiKey'],
    [{ apiSecret: 'k-in-file' }, 'hedge.apiSecret'],
    [{ defaults: { secret: 'k-in-file' } }, 'hedge.defaults.secret'],
    [{ pairs: [{ pair: 'BTC/USDC', apiKey: 'k-in-file' }] }, 'hedge.pairs[0].apiKey'],
  ])('refuses a credential in a config file (%j), naming the key, never the value', (hedge, key) => {
    const { config } = load(hedge);
    let report = '';
    try {
      config();
    } catch (e) {
      report = formatConfigError(e as ConfigError) + (e as Error).message;
    }
    const issues = issuesOf(config);
    expect(issues.map((i) => i.key)).toEqual([key]);
    expect(issues[0]!.reason).toMatch(/never read from a config file[;:] set .*LEDGER_MM_HEDGE_API_/);
    expect(report).not.toContain('k-in-file');
  });

  it('takes the key and secret from the environment', () => {
    const { config } = load({}, { LEDGER_MM_HEDGE_API_KEY: 'k-env', LEDGER_MM_HEDGE_API_SECRET: 's-env' });
    expect([config().hedge.apiKey, config().hedge.apiSecret]).toEqual(['k-env', 's-env']);
  });
});

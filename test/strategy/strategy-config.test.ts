import { describe, expect, it } from 'vitest';

import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load.js';
import type { StrategyConfig } from '../../src/config/sections/strategy.js';
import { strategyConfigIssues } from '../../src/config/sections/strategy-rules.js';
import { externalFeedSettings, resolveStrategyParams } from '../../src/strategy/params.js';
import { issuesOf, opts, useTmpDir, writeFile } from '../config/support/config-setup.js';
import { defaultStrategyConfig } from './support/fixtures.js';

const tmp = useTmpDir();

function load(strategy: unknown, pairs: string[] = ['BTC/USDC']) {
  const dir = tmp();
  const file = writeFile(dir, 'c.json', { pairs, strategy });
  return loadConfig(opts(dir, { configFiles: [file] }));
}

describe('the strategy config section', () => {
  it('loads with its defaults', () => {
    const c = loadConfig(opts(tmp()));
    expect(c.strategy.defaults.reference.source).toBe('mid');
    expect(c.strategy.pairs).toEqual([]);
    expect(c.strategy.reconcile.priceToleranceBps).toBe(5);
  });

  it('accepts per-pair overrides', () => {
    const c = load({ pairs: [{ pair: 'BTC/USDC', spread: { bidBps: 8 }, guards: { tick: '0.01' } }] });
    const p = resolveStrategyParams(c.strategy, c.pairs).pairs['BTC/USDC']!;
    expect(p.spread.bidBps).toBe(8);
    expect(p.spread.askBps).toBe(10);
    expect(p.guards.tick?.toFixed()).toBe('0.01');
    expect(p.levels.size.toFixed()).toBe('0.01');
  });

  it('accepts every default as an override value (one table validates both)', () => {
    const defaults = defaultStrategyConfig();
    const c = load({ pairs: [{ pair: 'BTC/USDC', ...defaults.defaults }] });
    expect(resolveStrategyParams(c.strategy, c.pairs)).toEqual(resolveStrategyParams(defaults, c.pairs));
  });

  it.each([
    {
      name: 'negative bps',
      s: { defaults: { spread: { bidBps: -1 } } },
      key: 'strategy.defaults.spread.bidBps',
      reason: /basis points from 0 to 10000/,
    },
    {
      name: 'bps as a string',
      s: { defaults: { spread: { askBps: '10' } } },
      key: 'strategy.defaults.spread.askBps',
      reason: /basis points/,
    },
    {
      name: 'a share above 1',
      s: { defaults: { inventory: { targetBaseShare: 1.5 } } },
      key: 'strategy.defaults.inventory.targetBaseShare',
      reason: /share from 0 to 1/,
    },
    {
      name: 'a tick with 11 decimal places',
      s: { defaults: { guards: { tick: '0.00000000001' } } },
      key: 'strategy.defaults.guards.tick',
      reason: /at most 10 decimal places/,
    },
    {
      name: 'a size that is not a decimal',
      s: { defaults: { levels: { size: '1e-3' } } },
      key: 'strategy.defaults.levels.size',
      reason: /positive decimal string/,
    },
    {
      name: 'an unknown source',
      s: { defaults: { reference: { source: 'vwap' } } },
      key: 'strategy.defaults.reference.source',
      reason: /one of "mid"/,
    },
    {
      name: 'a plain-http remote feed',
      s: { defaults: { external: { url: 'http://prices.example.com/btc' } } },
      key: 'strategy.defaults.external.url',
      reason: /loopback/,
    },
    {
      name: 'a bad JSON path',
      s: { defaults: { external: { jsonPath: 'data..price' } } },
      key: 'strategy.defaults.external.jsonPath',
      reason: /JSON path/,
    },
    {
      name: 'a bad value in an override',
      s: { pairs: [{ pair: 'BTC/USDC', spread: { bidBps: -1 } }] },
      key: 'strategy.pairs',
      reason: /\[0\] \(BTC\/USDC\)\.spread\.bidBps: must be a number of basis points/,
    },
    {
      name: 'an unknown key in an override',
      s: { pairs: [{ pair: 'BTC/USDC', spred: {} }] },
      key: 'strategy.pairs',
      reason: /\[0\] \(BTC\/USDC\): Unrecognized key.*spred/,
    },
    {
      name: 'a pair listed twice',
      s: { pairs: [{ pair: 'BTC/USDC' }, { pair: 'BTC/USDC' }] },
      key: 'strategy.pairs',
      reason: /listed twice/,
    },
  ])('$name → $key', ({ s, key, reason }) => {
    const issues = issuesOf(() => load(s));
    const issue = issues.find((i) => i.key === key);
    expect(issue, JSON.stringify(issues)).toBeDefined();
    expect(issue!.reason).toMatch(reason);
  });
});

describe('resolveStrategyParams: rules between keys', () => {
  const base = defaultStrategyConfig();
  const withDefaults = (over: Partial<StrategyConfig['defaults']>): StrategyConfig => ({
    ...base,
    defaults: { ...base.defaults, ...over },
  });
  it.each([
    {
      name: 'minBps 0',
      c: withDefaults({ spread: { ...base.defaults.spread, minBps: 0 } }),
      key: 'strategy.defaults.spread.minBps',
      reason: /> 0/,
    },
    {
      name: 'max below min',
      c: withDefaults({ spread: { ...base.defaults.spread, minBps: 20, maxBps: 10 } }),
      key: 'strategy.defaults.spread.maxBps',
      reason: /at least spread.minBps/,
    },
    {
      name: 'floor above ceiling',
      c: withDefaults({ guards: { ...base.defaults.guards, priceFloor: '100', priceCeiling: '90' } }),
      key: 'strategy.defaults.guards.priceCeiling',
      reason: /above guards.priceFloor/,
    },
    {
      name: 'static source without a price, in an override',
      c: { ...base, pairs: [{ pair: 'BTC/USDC', reference: { source: 'static' as const } }] },
      key: 'strategy.pairs[0] (BTC/USDC).reference.staticPrice',
      reason: /must be set/,
    },
    {
      name: 'external source without a URL',
      c: withDefaults({ reference: { ...base.defaults.reference, source: 'external' } }),
      key: 'strategy.defaults.external.url',
      reason: /must be set/,
    },
    {
      name: 'a target in base units without its range',
      c: { ...base, pairs: [{ pair: 'BTC/USDC', inventory: { targetBase: '2.5' } }] },
      key: 'strategy.pairs[0] (BTC/USDC).inventory.rangeBase',
      reason: /set together/,
    },
    {
      name: 'an override of a pair not configured',
      c: { ...base, pairs: [{ pair: 'ETH/USDC' }] },
      key: 'strategy.pairs[0].pair',
      reason: /not one of the configured pairs/,
    },
  ])('$name', ({ c, key, reason }) => {
    const issues = strategyConfigIssues(c, ['BTC/USDC']);
    expect(issues.find((i) => i.key === key)?.reason).toMatch(reason);
    expect(() => resolveStrategyParams(c, ['BTC/USDC'])).toThrow(ConfigError);
  });

  it('the defaults break no rule', () => {
    expect(strategyConfigIssues(base, ['BTC/USDC', 'ETH/USDC'])).toEqual([]);
    expect(Object.keys(resolveStrategyParams(base, ['BTC/USDC', 'ETH/USDC']).pairs)).toEqual([
      'BTC/USDC',
      'ETH/USDC',
    ]);
  });
});

describe('externalFeedSettings', () => {
  it('lists the pairs whose feed URL is set', () => {
    const base = defaultStrategyConfig();
    const c: StrategyConfig = {
      ...base,
      pairs: [{ pair: 'ETH/USDC', external: { url: 'https://feed.example/eth', jsonPath: 'data.p' } }],
    };
    expect(externalFeedSettings(c, ['BTC/USDC', 'ETH/USDC'])).toEqual([
      {
        pair: 'ETH/USDC',
        url: 'https://feed.example/eth',
        jsonPath: 'data.p',
        intervalMs: 2000,
        timeoutMs: 5000,
        maxAgeMs: 15000,
      },
    ]);
  });
});

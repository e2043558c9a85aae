import { describe, expect, it } from 'vitest';
import { defaultMarketConfig, MarketConfigSchema } from '../../../src/sim/market/market-config.js';

const minimalPair = { initialPrice: '100', background: { sizeBase: '1' }, takers: { meanSizeBase: '0.5' } };

describe('MarketConfigSchema', () => {
  it('defaults to BTC/USDC at 60000 and ETH/USDC at 3000', () => {
    const config = defaultMarketConfig();
    expect(config.enabled).toBe(true);
    expect(config.tickMs).toBe(1000);
    expect(Object.keys(config.pairs)).toEqual(['BTC/USDC', 'ETH/USDC']);
    expect(config.pairs['BTC/USDC']).toMatchObject({
      initialPrice: '60000',
      priceDecimals: 2,
      quantityDecimals: 5,
    });
    expect(config.pairs['ETH/USDC']).toMatchObject({
      initialPrice: '3000',
      priceDecimals: 2,
      quantityDecimals: 4,
    });
    expect(config.pairs['BTC/USDC']!.takers).toMatchObject({ A: 0.008, k: 0.05, buyShare: 0.5 });
    expect(config.pairs['BTC/USDC']!.background).toMatchObject({
      levels: 5,
      firstLevelBps: 30,
      spacingBps: 10,
    });
  });

  it('parses {} to the defaults and returns a fresh object each time', () => {
    expect(MarketConfigSchema.parse({})).toEqual(defaultMarketConfig());
    const a = defaultMarketConfig();
    a.pairs['BTC/USDC']!.volatility = 9;
    expect(defaultMarketConfig().pairs['BTC/USDC']!.volatility).toBe(0.6);
  });

  it('fills per-field defaults of a minimal pair', () => {
    const config = MarketConfigSchema.parse({ pairs: { 'X/Y': minimalPair } });
    expect(Object.keys(config.pairs)).toEqual(['X/Y']);
    expect(config.pairs['X/Y']).toMatchObject({
      volatility: 0.6,
      drift: 0,
      background: { enabled: true, levels: 5, sizeBase: '1', refreshMs: 5000 },
      takers: { enabled: true, sizeDistribution: 'exponential', meanSizeBase: '0.5' },
    });
  });

  it.each([
    ['an unknown top-level key', { foo: 1 }],
    ['an unknown pair key', { pairs: { 'X/Y': { ...minimalPair, tick: 1 } } }],
    ['a negative price', { pairs: { 'X/Y': { ...minimalPair, initialPrice: '-1' } } }],
    ['a zero price', { pairs: { 'X/Y': { ...minimalPair, initialPrice: '0.00' } } }],
    ['a float price', { pairs: { 'X/Y': { ...minimalPair, initialPrice: 100 } } }],
    ['an exponent price', { pairs: { 'X/Y': { ...minimalPair, initialPrice: '1e3' } } }],
    ['a missing size', { pairs: { 'X/Y': { ...minimalPair, takers: {} } } }],
    [
      'a bad distribution',
      { pairs: { 'X/Y': { ...minimalPair, takers: { meanSizeBase: '1', sizeDistribution: 'pareto' } } } },
    ],
    ['too many price decimals', { pairs: { 'X/Y': { ...minimalPair, priceDecimals: 11 } } }],
    [
      'a buy share above 1',
      { pairs: { 'X/Y': { ...minimalPair, takers: { meanSizeBase: '1', buyShare: 1.5 } } } },
    ],
    ['a zero k', { pairs: { 'X/Y': { ...minimalPair, takers: { meanSizeBase: '1', k: 0 } } } }],
  ])('rejects %s', (_name, input) => {
    expect(MarketConfigSchema.safeParse(input).success).toBe(false);
  });
});

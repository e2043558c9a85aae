import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { checkFormat } from '../../src/config/formats.js';
import { loadConfig } from '../../src/config/load.js';
import { PAIR_LIMITS, POSITIVE_DECIMAL } from '../../src/config/sections/risk.js';
import { riskParamsFromConfig } from '../../src/risk/risk-params.js';

const ENV = { LEDGER_MM_API_KEY: 'mm_ak_demo01.S3cr3tPartNeverLogged' };
let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function load(file: unknown) {
  dir = mkdtempSync(join(tmpdir(), 'ledger-mm-risk-'));
  const path = join(dir, 'risk.json');
  writeFileSync(path, JSON.stringify(file));
  return loadConfig({ configFiles: [path], env: ENV, cwd: dir });
}

function issues(file: unknown): string[] {
  try {
    load(file);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).issues.map((i) => `${i.key}: ${i.reason}`);
  }
  throw new Error('expected a ConfigError');
}

describe('risk and market config', () => {
  it('turns the defaults into RiskParams with Dec amounts', () => {
    const config = loadConfig({ configFiles: [], env: ENV, cwd: tmpdir() });
    const p = riskParamsFromConfig(config.risk);
    expect(p.maxOrderNotional.toFixed()).toBe('1000');
    expect(p.maxInventoryNotional.toFixed()).toBe('10000');
    expect(p.priceJump.maxMovePct.toFixed()).toBe('2');
    expect(p.dailyLoss.total.toFixed()).toBe('1000');
    expect(p.pairLimits).toEqual({});
    expect(config.market.book.intervalMs).toBeGreaterThanOrEqual(1_000);
    expect(config.market.balances.intervalMs).toBeGreaterThanOrEqual(60_000);
  });

  it('loads per-pair limits from a file', () => {
    const config = load({
      risk: {
        pairLimits: [
          { pair: 'BTC/USDC', maxInventory: '2.5' },
          { pair: 'ETH/USDC', maxOrderNotional: '300' },
        ],
        breaker: { baseBackoffMs: 20_000, maxBackoffMs: 5_000 },
      },
    });
    const p = riskParamsFromConfig(config.risk);
    expect(p.pairLimits['BTC/USDC']!.maxInventory!.toFixed()).toBe('2.5');
    expect(p.pairLimits['BTC/USDC']!.maxOrderNotional).toBeUndefined();
    expect(p.pairLimits['ETH/USDC']!.maxOrderNotional!.toFixed()).toBe('300');
    expect(p.breaker.maxBackoffMs).toBe(20_000); // raised to the base
  });

  it.each([
    [{ market: { book: { intervalMs: 500 } } }, /market\.book\.intervalMs: .*never faster than 1000 ms/],
    [
      { market: { balances: { intervalMs: 30_000 } } },
      /market\.balances\.intervalMs: .*never faster than 60000 ms/,
    ],
    [{ risk: { maxOrderNotional: 1000 } }, /risk\.maxOrderNotional: must be a positive decimal string/],
    [
      { risk: { dailyLoss: { perPair: '-5' } } },
      /risk\.dailyLoss\.perPair: must be a positive decimal string/,
    ],
    [
      { risk: { pairLimits: [{ pair: 'BTC/USDC', maxInventory: 'lots' }] } },
      /risk\.pairLimits: BTC\/USDC: maxInventory/,
    ],
  ])('refuses %j', (file, reason) => {
    expect(issues(file).join('\n')).toMatch(reason);
  });

  it.each([
    ['1000', true],
    ['0.0001', true],
    ['0', false],
    ['0.000', false],
    ['-1', false],
    ['1e3', false],
    [1000, false],
  ])('positive decimal %j → %s', (value, ok) => {
    if (ok) expect(() => checkFormat(POSITIVE_DECIMAL, value)).not.toThrow();
    else expect(() => checkFormat(POSITIVE_DECIMAL, value)).toThrow('must be a positive decimal string');
  });

  it.each([
    [[], null],
    [[{ pair: 'BTC/USDC' }], null],
    [[{ pair: 'BTC/USDC', maxInventory: '1', maxOrderNotional: '2' }], null],
    [{}, 'must be a list of {"pair": "BTC/USDC"'],
    [[{ pair: 'BTC' }], 'a pair name is missing'],
    [[{ pair: 'BTC/USDC' }, { pair: 'BTC/USDC' }], 'lists "BTC/USDC" twice'],
    [[{ pair: 'BTC/USDC', maxInventry: '1' }], 'BTC/USDC: unknown key "maxInventry"'],
    [['BTC/USDC'], 'must be a list of {"pair": "BTC/USDC"'],
  ])('pair limits %j → %s', (value, refused) => {
    if (refused === null) expect(() => checkFormat(PAIR_LIMITS, value)).not.toThrow();
    else expect(() => checkFormat(PAIR_LIMITS, value)).toThrow(refused);
  });
});

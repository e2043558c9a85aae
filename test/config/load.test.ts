import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { defaultsOf, getPath } from '../../src/config/define.js';
import { DEFAULT_CONFIG_FILE, configLayers, loadConfig } from '../../src/config/load.js';
import { CONFIG_FILES_ENV, configSchema, envBindings } from '../../src/config/schema.js';
import { API_KEY, opts, useTmpDir, writeFile } from './support/config-setup.js';

const tmp = useTmpDir();

describe('defaults', () => {
  it('load with no files and an empty environment', () => {
    const cwd = tmp();
    const config = loadConfig(opts(cwd));
    expect(config.venue.baseUrl).toBe('http://127.0.0.1:8710/v1');
    expect(config.venue.submitUrl).toBe('http://127.0.0.1:8711/submit');
    expect(config.venue.apiKey).toBe('');
    expect(config.venue.apiKeyFile).toBe('');
    expect(config.venue.authHeader).toBe('bearer');
    expect(config.venue.timeouts).toEqual({
      prepareMs: 35_000,
      cancelPrepareMs: 35_000,
      submitMs: 130_000,
      balancesMs: 30_000,
      defaultMs: 10_000,
    });
    expect(config.venue.retry).toEqual({ maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 10_000 });
    expect(config.venue.cursorParam).toBe('cursor');
    expect(config.signing).toMatchObject({
      keyFile: '',
      publicKeyFormat: 'raw',
      allowInsecureKeyFile: false,
    });
    // Clear signing: verify the prepared transaction when the venue sends it; sign 32 bytes only.
    expect(config.signing).toMatchObject({ verifyPrepared: 'if-present', hashLength: 32 });
    expect(config.signing.template).toEqual({
      orderTemplate: 'Venue.Order:Order',
      fields: { pair: 'pair', side: 'side', price: 'price', quantity: 'quantity' },
      cancelChoice: 'Cancel',
    });
    expect(config.signing.preparedTransactionPaths[0]).toBe('prepared.preparedTransaction');
    expect(config.store.path).toBe(resolve(cwd, 'var/ledger-mm.sqlite'));
    expect(config.metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(config.log).toEqual({ level: 'info', pretty: false });
    expect(config.pairs).toEqual([]);
    expect(config.recovery.unknownOrders).toBe('adopt');
    expect(config.shutdown).toEqual({ cancelOrders: true, unknownWaitMs: 30_000, graceMs: 150_000 });
    expect(config.execution.cancelConcurrency).toBe(4);
    expect(config.execution.afterUnknown).toBe('proceed');
  });

  it('equal the schema defaults, paths aside', () => {
    const cwd = tmp();
    const config = loadConfig(opts(cwd)) as unknown as Record<string, unknown>;
    const expected = defaultsOf(configSchema);
    (expected['store'] as Record<string, unknown>)['path'] = resolve(cwd, 'var/ledger-mm.sqlite');
    (expected['watchdog'] as Record<string, unknown>)['storePath'] = resolve(cwd, 'var/watchdog.sqlite');
    expect(config).toEqual(expected);
  });

  it('come from config/default.json of the package, whatever the working directory', () => {
    expect(DEFAULT_CONFIG_FILE).toBe(resolve(import.meta.dirname, '../../config/default.json'));
    expect(configLayers(opts('/nonexistent/dir'))).toEqual([
      { path: DEFAULT_CONFIG_FILE, origin: 'default' },
    ]);
    expect(() => loadConfig(opts('/nonexistent/dir'))).not.toThrow();
  });

  it('are deeply frozen', () => {
    const config = loadConfig(opts(tmp()));
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.venue.timeouts)).toBe(true);
    expect(Object.isFrozen(config.pairs)).toBe(true);
    expect(() => {
      (config.venue.timeouts as { submitMs: number }).submitMs = 1;
    }).toThrow(TypeError);
  });
});

describe('layering', () => {
  // Each named layer sets store.path to "<name>.sqlite"; the last one applied wins.
  type Case = {
    name: string;
    cli: string[];
    envFiles: string[];
    env?: boolean;
    winner: string;
  };
  const cases: Case[] = [
    { name: 'defaults only', cli: [], envFiles: [], winner: 'var/ledger-mm' },
    { name: 'one --config file', cli: ['a'], envFiles: [], winner: 'a' },
    { name: '--config files in order', cli: ['a', 'b'], envFiles: [], winner: 'b' },
    { name: '--config files in the other order', cli: ['b', 'a'], envFiles: [], winner: 'a' },
    { name: 'LEDGER_MM_CONFIG after --config', cli: ['a', 'b'], envFiles: ['c'], winner: 'c' },
    { name: 'LEDGER_MM_CONFIG files in order', cli: ['a'], envFiles: ['c', 'd'], winner: 'd' },
    { name: 'LEDGER_MM_CONFIG files in the other order', cli: [], envFiles: ['d', 'c'], winner: 'c' },
    { name: 'environment over every file', cli: ['a', 'b'], envFiles: ['c', 'd'], env: true, winner: 'env' },
    { name: 'environment over defaults', cli: [], envFiles: [], env: true, winner: 'env' },
  ];

  it.each(cases)('$name', ({ cli, envFiles, env, winner }) => {
    const cwd = tmp();
    for (const n of ['a', 'b', 'c', 'd']) writeFile(cwd, `${n}.json`, { store: { path: `${n}.sqlite` } });
    const config = loadConfig(
      opts(cwd, {
        configFiles: cli.map((n) => `${n}.json`),
        env: {
          ...(envFiles.length > 0 ? { [CONFIG_FILES_ENV]: envFiles.map((n) => `${n}.json`).join(',') } : {}),
          ...(env === true ? { LEDGER_MM_STORE_PATH: 'env.sqlite' } : {}),
        },
      }),
    );
    expect(config.store.path).toBe(resolve(cwd, `${winner}.sqlite`));
  });

  it('merges keys set by different layers, key by key', () => {
    const cwd = tmp();
    writeFile(cwd, 'a.json', {
      metrics: { port: 1111, host: '0.0.0.0' },
      venue: { retry: { maxAttempts: 5 } },
    });
    writeFile(cwd, 'b.json', { metrics: { port: 2222 }, venue: { timeouts: { defaultMs: 5000 } } });
    writeFile(cwd, 'c.json', { log: { level: 'debug' } });
    const config = loadConfig(
      opts(cwd, {
        configFiles: ['a.json', 'b.json'],
        env: { [CONFIG_FILES_ENV]: 'c.json', LEDGER_MM_LOG_LEVEL: 'warn' },
      }),
    );
    expect(config.metrics).toEqual({ port: 2222, host: '0.0.0.0' });
    expect(config.venue.retry).toEqual({ maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 10_000 });
    expect(config.venue.timeouts.defaultMs).toBe(5000);
    expect(config.venue.timeouts.submitMs).toBe(130_000);
    expect(config.log.level).toBe('warn');
  });

  it('replaces arrays rather than merging them', () => {
    const cwd = tmp();
    writeFile(cwd, 'a.json', { pairs: ['BTC/USDC', 'ETH/USDC'] });
    writeFile(cwd, 'b.json', { pairs: ['SOL/USDC'] });
    expect(loadConfig(opts(cwd, { configFiles: ['a.json', 'b.json'] })).pairs).toEqual(['SOL/USDC']);
  });

  it('lists the layers in order, paths resolved against cwd', () => {
    const cwd = tmp();
    const layers = configLayers(
      opts(cwd, {
        configFiles: ['a.json', '/abs/b.json'],
        env: { [CONFIG_FILES_ENV]: ' c.json, ,sub/d.json,' },
      }),
    );
    expect(layers).toEqual([
      { path: DEFAULT_CONFIG_FILE, origin: 'default' },
      { path: resolve(cwd, 'a.json'), origin: '--config' },
      { path: '/abs/b.json', origin: '--config' },
      { path: resolve(cwd, 'c.json'), origin: CONFIG_FILES_ENV },
      { path: resolve(cwd, 'sub/d.json'), origin: CONFIG_FILES_ENV },
    ]);
  });

  it('accepts an empty file', () => {
    const cwd = tmp();
    writeFile(cwd, 'empty.json', '  \n');
    expect(loadConfig(opts(cwd, { configFiles: ['empty.json'] })).log.level).toBe('info');
  });

  it('loads config/live.example.json', () => {
    const cwd = tmp();
    const example = resolve(import.meta.dirname, '../../config/live.example.json');
    writeFile(cwd, 'etc/api-key', `${API_KEY}\n`);
    const config = loadConfig(
      opts(cwd, { configFiles: [example], env: { LEDGER_MM_API_KEY_FILE: 'etc/api-key' } }),
    );
    expect(config.venue.baseUrl).toBe('https://venue.example.com/api/v1');
    expect(config.venue.apiKey).toBe(API_KEY);
    expect(config.pairs).toEqual(['BTC/USDC', 'ETH/USDC']);
  });
});

describe('environment variables', () => {
  type Case = { env: string; value: string; key: string; expected: (cwd: string) => unknown };
  const cases: Case[] = [
    {
      env: 'LEDGER_MM_BASE_URL',
      value: 'https://venue.example/api/v1',
      key: 'venue.baseUrl',
      expected: () => 'https://venue.example/api/v1',
    },
    {
      env: 'LEDGER_MM_SUBMIT_URL',
      value: 'https://submit.venue.example/submit',
      key: 'venue.submitUrl',
      expected: () => 'https://submit.venue.example/submit',
    },
    { env: 'LEDGER_MM_API_KEY', value: API_KEY, key: 'venue.apiKey', expected: () => API_KEY },
    {
      env: 'LEDGER_MM_API_KEY_FILE',
      value: 'secrets/api-key',
      key: 'venue.apiKeyFile',
      expected: (cwd) => resolve(cwd, 'secrets/api-key'),
    },
    {
      env: 'LEDGER_MM_SIGNING_KEY_FILE',
      value: 'secrets/signing.key',
      key: 'signing.keyFile',
      expected: (cwd) => resolve(cwd, 'secrets/signing.key'),
    },
    {
      env: 'LEDGER_MM_PUBLIC_KEY_FORMAT',
      value: 'spki',
      key: 'signing.publicKeyFormat',
      expected: () => 'spki',
    },
    {
      env: 'LEDGER_MM_VERIFY_PREPARED',
      value: 'required',
      key: 'signing.verifyPrepared',
      expected: () => 'required',
    },
    {
      env: 'LEDGER_MM_STORE_PATH',
      value: 'data/mm.sqlite',
      key: 'store.path',
      expected: (cwd) => resolve(cwd, 'data/mm.sqlite'),
    },
    { env: 'LEDGER_MM_METRICS_PORT', value: '9999', key: 'metrics.port', expected: () => 9999 },
    { env: 'LEDGER_MM_METRICS_HOST', value: '0.0.0.0', key: 'metrics.host', expected: () => '0.0.0.0' },
    { env: 'LEDGER_MM_CONTROL_ENABLED', value: 'false', key: 'control.enabled', expected: () => false },
    {
      env: 'LEDGER_MM_CONTROL_TOKEN_FILE',
      value: 'secrets/control-token',
      key: 'control.tokenFile',
      expected: (cwd) => resolve(cwd, 'secrets/control-token'),
    },
    {
      env: 'LEDGER_MM_PAIRS',
      value: 'BTC/USDC, ETH/USDC,',
      key: 'pairs',
      expected: () => ['BTC/USDC', 'ETH/USDC'],
    },
    { env: 'LEDGER_MM_LOG_LEVEL', value: 'debug', key: 'log.level', expected: () => 'debug' },
    { env: 'LEDGER_MM_LOG_PRETTY', value: 'true', key: 'log.pretty', expected: () => true },
    { env: 'LEDGER_MM_WATCHDOG_SOURCE', value: 'file', key: 'watchdog.source', expected: () => 'file' },
    {
      env: 'LEDGER_MM_WATCHDOG_HEALTH_URL',
      value: 'http://ledger-mm:9464/healthz',
      key: 'watchdog.healthUrl',
      expected: () => 'http://ledger-mm:9464/healthz',
    },
    {
      env: 'LEDGER_MM_WATCHDOG_HEARTBEAT_FILE',
      value: 'shared/heartbeat.json',
      key: 'watchdog.heartbeatFile',
      expected: (cwd) => resolve(cwd, 'shared/heartbeat.json'),
    },
    {
      env: 'LEDGER_MM_WATCHDOG_DEAD_AFTER_MS',
      value: '30000',
      key: 'watchdog.deadAfterMs',
      expected: () => 30_000,
    },
    {
      env: 'LEDGER_MM_WATCHDOG_STORE_PATH',
      value: 'data/wd.sqlite',
      key: 'watchdog.storePath',
      expected: (cwd) => resolve(cwd, 'data/wd.sqlite'),
    },
    {
      env: 'LEDGER_MM_WATCHDOG_STATUS_URL',
      value: 'http://ledger-mm-watchdog:9466/status',
      key: 'watchdog.statusUrl',
      expected: () => 'http://ledger-mm-watchdog:9466/status',
    },
    {
      env: 'LEDGER_MM_WATCHDOG_METRICS_PORT',
      value: '9999',
      key: 'watchdog.metrics.port',
      expected: () => 9999,
    },
    {
      env: 'LEDGER_MM_WATCHDOG_METRICS_HOST',
      value: '0.0.0.0',
      key: 'watchdog.metrics.host',
      expected: () => '0.0.0.0',
    },
    { env: 'LEDGER_MM_HEDGE_API_KEY', value: 'hedge-key', key: 'hedge.apiKey', expected: () => 'hedge-key' },
    {
      env: 'LEDGER_MM_HEDGE_API_SECRET',
      value: 'hedge-secret',
      key: 'hedge.apiSecret',
      expected: () => 'hedge-secret',
    },
    {
      env: CONFIG_FILES_ENV,
      value: 'from-env.json',
      key: 'execution.cancelConcurrency',
      expected: () => 7,
    },
  ];

  it('the table covers every bound variable', () => {
    const tested = new Set(cases.map((c) => c.env));
    for (const { env } of envBindings()) expect(tested).toContain(env);
    expect(tested).toContain(CONFIG_FILES_ENV);
  });

  it.each(cases)('$env sets $key', ({ env, value, key, expected }) => {
    const cwd = tmp();
    writeFile(cwd, 'secrets/api-key', API_KEY);
    writeFile(cwd, 'from-env.json', { execution: { cancelConcurrency: 7 } });
    const before = getPath(loadConfig(opts(cwd, { env: { LEDGER_MM_API_KEY: API_KEY } })), key);
    const config = loadConfig(opts(cwd, { env: { [env]: value } }));
    expect(getPath(config, key)).toEqual(expected(cwd));
    if (env !== 'LEDGER_MM_API_KEY') expect(getPath(config, key)).not.toEqual(before);
  });

  it('an API key file named in the environment is read', () => {
    const cwd = tmp();
    writeFile(cwd, 'secrets/api-key', API_KEY);
    const config = loadConfig(opts(cwd, { env: { LEDGER_MM_API_KEY_FILE: 'secrets/api-key' } }));
    expect(config.venue.apiKey).toBe(API_KEY);
  });

  it.each([
    ['false', false],
    ['0', false],
    ['no', false],
    ['TRUE', true],
    ['1', true],
    ['yes', true],
  ])('LEDGER_MM_LOG_PRETTY=%s is %s', (value, expected) => {
    expect(loadConfig(opts(tmp(), { env: { LEDGER_MM_LOG_PRETTY: value } })).log.pretty).toBe(expected);
  });

  it('LEDGER_MM_PAIRS empty means no pairs', () => {
    const cwd = tmp();
    writeFile(cwd, 'a.json', { pairs: ['BTC/USDC'] });
    expect(loadConfig(opts(cwd, { configFiles: ['a.json'], env: { LEDGER_MM_PAIRS: '' } })).pairs).toEqual(
      [],
    );
  });

  it('are read only from the env passed in, never from process.env or process.argv', () => {
    const saved = { ...process.env };
    const savedArgv = process.argv;
    try {
      process.env['LEDGER_MM_STORE_PATH'] = '/from/process/env.sqlite';
      process.env['LEDGER_MM_LOG_LEVEL'] = 'trace';
      process.argv = [...savedArgv, '--log.level', 'error', '--LEDGER_MM_LOG_LEVEL=error'];
      const cwd = tmp();
      const config = loadConfig(opts(cwd));
      expect(config.store.path).toBe(resolve(cwd, 'var/ledger-mm.sqlite'));
      expect(config.log.level).toBe('info');
    } finally {
      process.env = saved;
      process.argv = savedArgv;
    }
  });
});

describe('reloading', () => {
  it('a second load sees changed files and keeps the first result intact', () => {
    const cwd = tmp();
    const file = writeFile(cwd, 'a.json', { log: { level: 'debug' } });
    const first = loadConfig(opts(cwd, { configFiles: [file] }));
    writeFile(cwd, 'a.json', { log: { level: 'warn' } });
    const second = loadConfig(opts(cwd, { configFiles: [file] }));
    expect(first.log.level).toBe('debug');
    expect(second.log.level).toBe('warn');
  });
});

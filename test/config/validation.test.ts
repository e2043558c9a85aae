import { describe, expect, it } from 'vitest';

import { EXIT } from '../../src/cli/command.js';
import { ConfigError, type ConfigIssue, formatConfigError } from '../../src/config/errors.js';
import { loadConfig, loadConfigOrExit } from '../../src/config/load.js';
import { issuesOf, opts, useTmpDir, writeFile } from './support/config-setup.js';

const tmp = useTmpDir();

type Case = {
  name: string;
  file?: unknown;
  env?: Record<string, string>;
  key: string;
  value: string;
  reason: RegExp;
  /** `file` for the test's config file, else the expected source text. */
  source: string;
};

const cases: Case[] = [
  {
    name: 'a submission timeout under 120 s',
    file: { venue: { timeouts: { submitMs: 60_000 } } },
    key: 'venue.timeouts.submitMs',
    value: '60000',
    reason: /from 120000 .*at least 120 s/,
    source: 'file',
  },
  {
    name: 'a fractional timeout',
    file: { venue: { timeouts: { defaultMs: 1500.5 } } },
    key: 'venue.timeouts.defaultMs',
    value: '1500.5',
    reason: /integer/,
    source: 'file',
  },
  {
    name: 'a base URL not ending in /v1',
    env: { LEDGER_MM_BASE_URL: 'https://venue.example/api/v2' },
    key: 'venue.baseUrl',
    value: '"https://venue.example/api/v2"',
    reason: /\/v1/,
    source: 'env LEDGER_MM_BASE_URL',
  },
  {
    name: 'a base URL that is not a URL',
    file: { venue: { baseUrl: 'venue.example/v1' } },
    key: 'venue.baseUrl',
    value: '"venue.example/v1"',
    reason: /absolute http\(s\) URL/,
    source: 'file',
  },
  {
    name: 'plain http to a remote submit host',
    env: { LEDGER_MM_SUBMIT_URL: 'http://submit.venue.example/submit' },
    key: 'venue.submitUrl',
    value: '"http://submit.venue.example/submit"',
    reason: /loopback/,
    source: 'env LEDGER_MM_SUBMIT_URL',
  },
  {
    name: 'a port out of range',
    env: { LEDGER_MM_METRICS_PORT: '70000' },
    key: 'metrics.port',
    value: '70000',
    reason: /from 0 to 65535/,
    source: 'env LEDGER_MM_METRICS_PORT',
  },
  {
    name: 'a port that is not a number',
    env: { LEDGER_MM_METRICS_PORT: '94x64' },
    key: 'metrics.port',
    value: '"94x64"',
    reason: /integer/,
    source: 'env LEDGER_MM_METRICS_PORT',
  },
  {
    name: 'a log level outside the enum',
    env: { LEDGER_MM_LOG_LEVEL: 'verbose' },
    key: 'log.level',
    value: '"verbose"',
    reason: /one of "fatal", "error", "warn", "info", "debug", "trace", "silent"/,
    source: 'env LEDGER_MM_LOG_LEVEL',
  },
  {
    name: 'a public key format outside the enum',
    env: { LEDGER_MM_PUBLIC_KEY_FORMAT: 'pem' },
    key: 'signing.publicKeyFormat',
    value: '"pem"',
    reason: /one of "raw", "spki"/,
    source: 'env LEDGER_MM_PUBLIC_KEY_FORMAT',
  },
  {
    name: 'an auth header mode outside the enum',
    file: { venue: { authHeader: 'basic' } },
    key: 'venue.authHeader',
    value: '"basic"',
    reason: /one of "bearer", "x-api-key"/,
    source: 'file',
  },
  {
    name: 'an unknown-orders policy outside the enum',
    file: { recovery: { unknownOrders: 'panic' } },
    key: 'recovery.unknownOrders',
    value: '"panic"',
    reason: /one of "adopt", "cancel", "ignore"/,
    source: 'file',
  },
  {
    name: 'a boolean that is not one',
    env: { LEDGER_MM_LOG_PRETTY: 'maybe' },
    key: 'log.pretty',
    value: '"maybe"',
    reason: /boolean/,
    source: 'env LEDGER_MM_LOG_PRETTY',
  },
  {
    name: 'a malformed pair',
    env: { LEDGER_MM_PAIRS: 'BTC/USDC,ETHUSDC' },
    key: 'pairs',
    value: '["BTC/USDC","ETHUSDC"]',
    reason: /"ETHUSDC" is not one/,
    source: 'env LEDGER_MM_PAIRS',
  },
  {
    name: 'a pair listed twice',
    file: { pairs: ['BTC/USDC', 'BTC/USDC'] },
    key: 'pairs',
    value: '["BTC/USDC","BTC/USDC"]',
    reason: /twice/,
    source: 'file',
  },
  {
    name: 'an unknown top-level key',
    file: { bogus: 1 },
    key: 'bogus',
    value: '1',
    reason: /^unknown key$/,
    source: 'file',
  },
  {
    name: 'an unknown nested key, with a suggestion',
    file: { venue: { timeouts: { submitMS: 130_000 } } },
    key: 'venue.timeouts.submitMS',
    value: '130000',
    reason: /unknown key \(did you mean "submitMs"\?\)/,
    source: 'file',
  },
  {
    name: 'a section given as a value',
    file: { venue: 'https://venue.example/v1' },
    key: 'venue',
    value: '"https://venue.example/v1"',
    reason: /must be an object with the keys baseUrl, submitUrl/,
    source: 'file',
  },
  {
    name: 'a value given as an object',
    file: { store: { path: { file: 'x' } } },
    key: 'store.path',
    value: '{"file":"x"}',
    reason: /file path/,
    source: 'file',
  },
  {
    name: 'a maximum backoff below the base backoff',
    file: { venue: { retry: { baseDelayMs: 5000, maxDelayMs: 1000 } } },
    key: 'venue.retry.maxDelayMs',
    value: '1000',
    reason: /at least venue.retry.baseDelayMs \(5000\)/,
    source: 'file',
  },
  {
    name: 'zero connections',
    file: { venue: { connections: 0 } },
    key: 'venue.connections',
    value: '0',
    reason: /from 1 to 256/,
    source: 'file',
  },
  {
    name: 'an empty store path',
    env: { LEDGER_MM_STORE_PATH: ' ' },
    key: 'store.path',
    value: '" "',
    reason: /empty/,
    source: 'env LEDGER_MM_STORE_PATH',
  },
];

describe('validation failures', () => {
  it.each(cases)('$name: names the key, the value, the source and the reason', (c) => {
    const cwd = tmp();
    const file = c.file === undefined ? undefined : writeFile(cwd, 'bad.json', c.file);
    const o = opts(cwd, { configFiles: file === undefined ? [] : [file], env: c.env ?? {} });
    const issues = issuesOf(() => loadConfig(o));
    expect(issues).toHaveLength(1);
    const issue = issues[0] as ConfigIssue;
    expect(issue.key).toBe(c.key);
    expect(issue.value).toBe(c.value);
    expect(issue.reason).toMatch(c.reason);
    expect(issue.source).toBe(c.source === 'file' ? file : c.source);
  });

  it.each(cases)('$name: exits with code 2 and prints one line naming it', (c) => {
    const cwd = tmp();
    const file = c.file === undefined ? undefined : writeFile(cwd, 'bad.json', c.file);
    const err: string[] = [];
    const result = loadConfigOrExit(
      opts(cwd, { configFiles: file === undefined ? [] : [file], env: c.env ?? {} }),
      { stderr: (t) => err.push(t) },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.exitCode).toBe(EXIT.USAGE);
    expect(result.exitCode).toBe(2);
    const text = err.join('');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('ledger-mm: invalid configuration (1 problem):');
    expect(lines[1]).toContain(`${c.key} = ${c.value}`);
    expect(lines[1]).toMatch(c.reason.source.startsWith('^') ? /unknown key/ : c.reason);
  });

  it('reports every problem at once, one line each', () => {
    const cwd = tmp();
    const file = writeFile(cwd, 'bad.json', {
      venue: { timeouts: { submitMs: 60_000 }, baseUrl: 'https://venue.example/v2', extra: true },
      metrics: { port: -1 },
    });
    const err: string[] = [];
    const result = loadConfigOrExit(
      opts(cwd, { configFiles: [file], env: { LEDGER_MM_LOG_LEVEL: 'loud' } }),
      {
        stderr: (t) => err.push(t),
      },
    );
    expect(result.ok).toBe(false);
    const lines = err.join('').trimEnd().split('\n');
    expect(lines[0]).toBe('ledger-mm: invalid configuration (5 problems):');
    expect(lines.slice(1).sort()).toEqual(
      [
        `  venue.extra = true (from ${file}): unknown key`,
        `  venue.baseUrl = "https://venue.example/v2" (from ${file}): must end with the /v1 version segment, e.g. https://host/api/v1`,
        `  venue.timeouts.submitMs = 60000 (from ${file}): must be an integer from 120000 to 3600000 (the venue requires a submission timeout of at least 120 s)`,
        `  metrics.port = -1 (from ${file}): must be an integer from 0 to 65535 (a TCP port)`,
        `  log.level = "loud" (from env LEDGER_MM_LOG_LEVEL): must be one of "fatal", "error", "warn", "info", "debug", "trace", "silent"`,
      ].sort(),
    );
  });

  it('reports the layer that set the bad value, even when an earlier layer set it too', () => {
    const cwd = tmp();
    const a = writeFile(cwd, 'a.json', { venue: { timeouts: { submitMs: 50_000 } } });
    const b = writeFile(cwd, 'b.json', { venue: { timeouts: { submitMs: 60_000 } } });
    const issues = issuesOf(() => loadConfig(opts(cwd, { configFiles: [a], env: { LEDGER_MM_CONFIG: b } })));
    expect(issues).toMatchObject([{ key: 'venue.timeouts.submitMs', value: '60000', source: b }]);
  });

  it('a valid later layer fixes an invalid earlier value', () => {
    const cwd = tmp();
    const a = writeFile(cwd, 'a.json', { venue: { timeouts: { submitMs: 60_000 } } });
    const b = writeFile(cwd, 'b.json', { venue: { timeouts: { submitMs: 125_000 } } });
    expect(loadConfig(opts(cwd, { configFiles: [a, b] })).venue.timeouts.submitMs).toBe(125_000);
  });

  it.each([
    ['a missing file', undefined, /cannot read config file: no such file/],
    ['malformed JSON', '{"venue": {', /not valid JSON/],
    ['a JSON array', '[1, 2]', /must hold a JSON object/],
    ['a JSON string', '"x"', /must hold a JSON object/],
  ])('%s is a problem of the file', (_name, content, reason) => {
    const cwd = tmp();
    const path = content === undefined ? `${cwd}/missing.json` : writeFile(cwd, 'f.json', content);
    const issues = issuesOf(() => loadConfig(opts(cwd, { configFiles: [path] })));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ source: path });
    expect(issues[0]?.key).toBeUndefined();
    expect(issues[0]?.reason).toMatch(reason);
    expect(formatConfigError(new ConfigError(issues))).toContain(`  ${path}: `);
  });

  it.each([
    ['a missing colon', '{\n  "log": {\n    "level" "debug"\n  }\n}\n', 3, 13],
    ['a trailing comma', '{\n  "pairs": ["BTC/USDC",]\n}\n', 2, 24],
    ['a cut-off file', '{\n  "log": {\n', 3, 1],
  ])(
    'a JSON syntax error (%s) is reported by line and column, with the line',
    (_name, content, line, column) => {
      const cwd = tmp();
      const path = writeFile(cwd, 'f.json', content);
      const [issue] = issuesOf(() => loadConfig(opts(cwd, { configFiles: [path] })));
      expect(issue?.reason).toMatch(new RegExp(`^not valid JSON: line ${line}, column ${column}: \\S`));
      expect(issue?.reason).not.toMatch(/position/);
      const lines = issue!.reason.split('\n');
      expect(lines[1]?.trim()).toBe(content.split('\n')[line - 1]!.trim());
      // The caret sits under the column.
      expect(lines[2]!.indexOf('^') - 4).toBe(column - 1);
    },
  );

  it('a missing file listed in LEDGER_MM_CONFIG is a problem too', () => {
    const cwd = tmp();
    const issues = issuesOf(() => loadConfig(opts(cwd, { env: { LEDGER_MM_CONFIG: 'nope.json' } })));
    expect(issues).toMatchObject([
      { source: `${cwd}/nope.json`, reason: 'cannot read config file: no such file' },
    ]);
  });

  it('a prototype-pollution key is an unknown key and pollutes nothing', () => {
    const cwd = tmp();
    const file = writeFile(cwd, 'p.json', '{"__proto__": {"polluted": true}, "venue": {"constructor": 1}}');
    const issues = issuesOf(() => loadConfig(opts(cwd, { configFiles: [file] })));
    expect(issues.map((i) => i.key).sort()).toEqual(['__proto__', 'venue.constructor']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('loadConfigOrExit returns the config when it is valid and prints nothing', () => {
    const err: string[] = [];
    const result = loadConfigOrExit(opts(tmp()), { stderr: (t) => err.push(t) });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.config.log.level).toBe('info');
    expect(err).toEqual([]);
  });

  it('loadConfigOrExit rethrows what is not a configuration problem', () => {
    expect(() =>
      loadConfigOrExit(
        { configFiles: [], env: null as unknown as NodeJS.ProcessEnv, cwd: tmp() },
        {
          stderr: () => undefined,
        },
      ),
    ).toThrow(TypeError);
  });

  it('a ConfigError message is the report', () => {
    const e = new ConfigError([{ key: 'a.b', value: '1', reason: 'bad', source: 'default' }]);
    expect(e.name).toBe('ConfigError');
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toBe('invalid configuration (1 problem):\n  a.b = 1 (from default): bad');
    expect(formatConfigError(e)).toBe(`ledger-mm: ${e.message}\n`);
  });
});

describe('URLs', () => {
  it.each([
    ['http://127.0.0.1:8710/v1'],
    ['http://localhost/v1'],
    ['http://[::1]:8710/v1'],
    ['http://[::ffff:127.0.0.1]:8710/v1'],
    ['https://venue.example/api/v1'],
    ['https://venue.example/api/v1/'],
  ])('%s is a valid base URL', (url) => {
    expect(loadConfig(opts(tmp(), { env: { LEDGER_MM_BASE_URL: url } })).venue.baseUrl).toBe(url);
  });

  it.each([
    ['http://venue.example/api/v1', /loopback/],
    ['ftp://venue.example/v1', /http\(s\)/],
    ['https://venue.example/v1?x=1', /query/],
    ['https://user:pw@venue.example/v1', /credentials/],
    ['https://venue.example/v10', /\/v1/],
    ['https://venue.example/v1/orders', /\/v1/],
  ])('%s is not', (url, reason) => {
    const issues = issuesOf(() => loadConfig(opts(tmp(), { env: { LEDGER_MM_BASE_URL: url } })));
    expect(issues).toMatchObject([{ key: 'venue.baseUrl' }]);
    expect(issues[0]?.reason).toMatch(reason);
  });
});

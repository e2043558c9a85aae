import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/check.js';
import { liveVenueOptions } from '../../src/daemon/startup/venue-client.js';
import { EXIT } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/run-cli.js';
import { loadConfig } from '../../src/config/load.js';
import { CHECK_NAMES } from '../../src/daemon/startup/preflight.js';
import { StubServer, fail, ok } from '../support/stub-server.js';
import { runCaptured, type CapturedRun } from '../support/captured-io.js';

const SECRET = 'S3cr3tPartNeverPrinted';
const API_KEY = `mm_ak_check01.${SECRET}`;
const HANDLE = 'mm_ak_check01';
/** A valid fingerprint of some other key. */
const OTHER_FINGERPRINT = `1220${'ab'.repeat(32)}`;

const posix = process.platform !== 'win32';

let dir: string;
let stub: StubServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-mm-check-'));
  stub = await StubServer.start();
});
afterEach(async () => {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the real dispatcher with captured output; `env` is the whole environment. */
async function cli(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CapturedRun> {
  return runCaptured((io) => runCli(argv, io), env, dir);
}

/** `ledger-mm keygen --out <dir>/<name>`; returns the key's path and fingerprint. */
async function keygen(name = 'key'): Promise<{ path: string; fingerprint: string }> {
  const path = join(dir, name);
  const run = await cli(['keygen', '--out', path]);
  expect(run.code).toBe(EXIT.OK);
  const fingerprint = /Ledger fingerprint:\s+(1220[0-9a-f]{64})/.exec(run.stdout)?.[1];
  if (fingerprint === undefined) throw new Error(`no fingerprint in:\n${run.stdout}`);
  return { path, fingerprint };
}

function account(partyId: string, over: Record<string, unknown> = {}): unknown {
  return {
    name: 'Ledger MM Test',
    slug: 'ledgermmtest',
    partyId,
    status: 'ACTIVE',
    feeExempt: true,
    clientOrderIdPrefix: 'ledgermmtest-',
    limits: { allowedPairs: ['BTC/USDC', 'ETH/USDC'], maxOpenOrders: 50, ordersPerMinute: 30 },
    ...over,
  };
}

/** Scripts /v1/account, /v1/pairs and /v1/balances for an account of party `partyId`. */
function serveVenue(partyId: string, over: Record<string, unknown> = {}): void {
  stub
    .on('GET', '/v1/account', ok(account(partyId, over)))
    .on(
      'GET',
      '/v1/pairs',
      ok({
        pairs: [
          { pair: 'BTC/USDC', base: 'BTC', quote: 'USDC', minQuoteAmount: '10', feeSymbol: 'USDC' },
          { pair: 'ETH/USDC', base: 'ETH', quote: 'USDC', minQuoteAmount: '10', feeSymbol: 'USDC' },
        ],
      }),
    )
    .on(
      'GET',
      '/v1/balances',
      ok({
        balances: [
          { instrument: 'BTC', available: '2.5', locked: '0' },
          { instrument: 'ETH', available: '40', locked: '0' },
          { instrument: 'USDC', available: '250000', locked: '0' },
        ],
      }),
    );
}

function env(keyFile: string, over: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    LEDGER_MM_BASE_URL: `${stub.origin}/v1`,
    LEDGER_MM_SUBMIT_URL: `${stub.origin}/submit`,
    LEDGER_MM_API_KEY: API_KEY,
    LEDGER_MM_SIGNING_KEY_FILE: keyFile,
    LEDGER_MM_PAIRS: 'BTC/USDC,ETH/USDC',
    ...over,
  };
}

/** The report's check lines, by check name. */
function checkLines(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const m = /^(PASS|FAIL|WARN|SKIP) {2}(\S+(?: \S+)?) {2,}/.exec(line);
    if (m?.[2] !== undefined && (CHECK_NAMES as readonly string[]).includes(m[2].trim())) {
      out.set(m[2].trim(), line);
    }
  }
  return out;
}

function expectNoSecret(run: CapturedRun): void {
  expect(run.stdout).not.toContain(SECRET);
  expect(run.stderr).not.toContain(SECRET);
}

describe('ledger-mm check', () => {
  it('keygen, then check against the venue: one PASS line per check, exit 0', async () => {
    const key = await keygen();
    serveVenue(`ledger-mm-test::${key.fingerprint}`);

    const run = await cli(['check'], env(key.path));

    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    const lines = checkLines(run.stdout);
    expect([...lines.keys()]).toEqual([...CHECK_NAMES]);
    for (const line of lines.values()) expect(line).toMatch(/^PASS {2}/);
    expect(run.stdout.split('\n').filter((l) => /^(PASS|FAIL|WARN|SKIP) /.test(l))).toHaveLength(
      CHECK_NAMES.length,
    );
    expect(lines.get('signing key')).toContain(`fingerprint ${key.fingerprint} matches party`);
    expect(lines.get('pairs')).toContain('BTC/USDC minQuoteAmount 10 USDC');
    expect(run.stdout).toMatch(/\npreflight passed\n$/);
    // The public handle may be printed; the secret never.
    expect(run.stdout).toContain(HANDLE);
    expectNoSecret(run);

    // Reads only; the key goes to authenticated endpoints only, as a bearer token by default.
    expect(stub.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /v1/account',
      'GET /v1/balances',
      'GET /v1/pairs',
    ]);
    expect(stub.requestsTo('GET', '/v1/account')[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(stub.requestsTo('GET', '/v1/balances')[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(stub.requestsTo('GET', '/v1/pairs')[0]?.headers.authorization).toBeUndefined();
  });

  it('refuses a party created with another key: FAIL signing key, exit 1', async () => {
    const key = await keygen();
    const other = await keygen('other-key');
    expect(other.fingerprint).not.toBe(key.fingerprint);
    serveVenue(`ledger-mm-test::${other.fingerprint}`);

    const run = await cli(['check'], env(key.path));

    expect(run.code).toBe(EXIT.FAILED);
    const lines = checkLines(run.stdout);
    expect(lines.get('signing key')).toMatch(/^FAIL {2}signing key +party id namespace /);
    expect(lines.get('signing key')).toContain(other.fingerprint);
    expect(lines.get('signing key')).toContain(key.fingerprint);
    expect(lines.get('signing key')).toContain('refusing to trade');
    for (const name of CHECK_NAMES.filter((n) => n !== 'signing key')) {
      expect(lines.get(name)).toMatch(/^PASS/);
    }
    expect(run.stdout).toMatch(/preflight FAILED/);
    expectNoSecret(run);
  });

  it('prints the report as JSON with --json', async () => {
    const key = await keygen();
    serveVenue(`ledger-mm-test::${OTHER_FINGERPRINT}`);

    const run = await cli(['check', '--json'], env(key.path));

    expect(run.code).toBe(EXIT.FAILED);
    const out = JSON.parse(run.stdout) as {
      ok: boolean;
      venue: { baseUrl: string; apiKey: string };
      checks: { name: string; status: string }[];
      account: { partyId: string };
    };
    expect(out.ok).toBe(false);
    expect(out.venue).toEqual({ baseUrl: `${stub.origin}/v1`, apiKey: HANDLE });
    expect(out.checks.map((c) => c.name)).toEqual([...CHECK_NAMES]);
    expect(out.checks.find((c) => c.name === 'signing key')?.status).toBe('fail');
    expect(out.account.partyId).toBe(`ledger-mm-test::${OTHER_FINGERPRINT}`);
    expectNoSecret(run);
  });

  it('reports a rejected API key (401 INVALID_API_KEY) and does not send it again', async () => {
    const key = await keygen();
    serveVenue(`ledger-mm-test::${key.fingerprint}`);
    stub.on('GET', '/v1/account', fail(401, 'INVALID_API_KEY', {}, 'req-401'));

    const run = await cli(['check'], env(key.path));

    expect(run.code).toBe(EXIT.FAILED);
    const lines = checkLines(run.stdout);
    expect(lines.get('api key')).toMatch(
      /^FAIL {2}api key +GET \/account failed: INVALID_API_KEY \(HTTP 401\)/,
    );
    expect(lines.get('api key')).toContain('requestId req-401');
    expect(lines.get('balances')).toMatch(/^SKIP/);
    expect(stub.requestsTo('GET', '/v1/account')).toHaveLength(1); // 4xx: never retried
    expect(stub.requestsTo('GET', '/v1/balances')).toHaveLength(0);
    expectNoSecret(run);
  });

  it('reports a signing key file that cannot be loaded as a FAIL line, after the venue checks', async () => {
    const key = await keygen();
    serveVenue(`ledger-mm-test::${key.fingerprint}`);

    const run = await cli(['check'], env(join(dir, 'no-such-key')));

    expect(run.code).toBe(EXIT.FAILED);
    const lines = checkLines(run.stdout);
    expect(lines.get('signing key')).toMatch(/^FAIL {2}signing key +key file .*no-such-key/);
    expect(lines.get('api key')).toMatch(/^PASS/);
    expect(stub.requests).toHaveLength(3);
  });

  it.runIf(posix)('reports a key file readable by others as a FAIL line', async () => {
    const key = await keygen();
    chmodSync(key.path, 0o644);
    serveVenue(`ledger-mm-test::${key.fingerprint}`);

    const run = await cli(['check'], env(key.path));

    expect(run.code).toBe(EXIT.FAILED);
    expect(checkLines(run.stdout).get('signing key')).toMatch(/^FAIL {2}signing key +key file /);
  });

  it('reports an unconfigured signing key as a FAIL line', async () => {
    serveVenue(`ledger-mm-test::${OTHER_FINGERPRINT}`);
    const run = await cli(['check'], env('', { LEDGER_MM_SIGNING_KEY_FILE: undefined }));
    expect(run.code).toBe(EXIT.FAILED);
    expect(checkLines(run.stdout).get('signing key')).toMatch(/no signing key configured/);
  });

  it('takes settings from --config files: X-API-Key header, API key from venue.apiKeyFile', async () => {
    const key = await keygen();
    serveVenue(`ledger-mm-test::${key.fingerprint}`);
    writeFileSync(join(dir, 'api-key'), `${API_KEY}\n`, { mode: 0o600 });
    writeFileSync(
      join(dir, 'live.json'),
      JSON.stringify({ venue: { authHeader: 'x-api-key', apiKeyFile: 'api-key' }, pairs: ['BTC/USDC'] }),
    );

    const run = await cli(
      ['check', '--config', 'live.json'],
      env(key.path, { LEDGER_MM_API_KEY: undefined, LEDGER_MM_PAIRS: undefined }),
    );

    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toContain('pairs BTC/USDC\n');
    const sent = stub.requestsTo('GET', '/v1/account')[0]?.headers;
    expect(sent?.['x-api-key']).toBe(API_KEY);
    expect(sent?.authorization).toBeUndefined();
    expectNoSecret(run);
  });

  describe('refuses before anything is sent (exit 2)', () => {
    it('an invalid environment value: LEDGER_MM_METRICS_PORT=notaport', async () => {
      const key = await keygen();
      serveVenue(`ledger-mm-test::${key.fingerprint}`);

      const run = await cli(['check'], env(key.path, { LEDGER_MM_METRICS_PORT: 'notaport' }));

      expect(run.code).toBe(EXIT.USAGE);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('metrics.port');
      expect(run.stderr).toContain('"notaport"');
      expect(run.stderr).toContain('LEDGER_MM_METRICS_PORT');
      expect(run.stderr).toMatch(/must be an integer from 0 to 65535/);
      expectNoSecret(run);
      expect(stub.requests).toHaveLength(0);
    });

    it('a submission timeout below 120 s in a --config file', async () => {
      const key = await keygen();
      serveVenue(`ledger-mm-test::${key.fingerprint}`);
      const file = join(dir, 'short.json');
      writeFileSync(file, JSON.stringify({ venue: { timeouts: { submitMs: 60_000 } } }));

      const run = await cli(['check', '--config', 'short.json'], env(key.path));

      expect(run.code).toBe(EXIT.USAGE);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('venue.timeouts.submitMs = 60000');
      expect(run.stderr).toContain(file);
      expect(run.stderr).toMatch(/at least 120 s/);
      expect(stub.requests).toHaveLength(0);
    });

    // `run` resolves these rules between strategy keys at start; `check` must refuse them too.
    it.each([
      [
        'spread.minBps above spread.maxBps',
        { strategy: { defaults: { spread: { minBps: 50, maxBps: 10 } } } },
        /strategy\.defaults\.spread\.maxBps = 10[\s\S]*must be at least spread\.minBps \(50\)/,
      ],
      [
        'an override for a pair that is not configured',
        { strategy: { pairs: [{ pair: 'SOL/USDC', spread: { bidBps: 20 } }] } },
        /strategy\.pairs\[0\]\.pair = "SOL\/USDC"[\s\S]*is not one of the configured pairs \(BTC\/USDC, ETH\/USDC\)/,
      ],
    ])('a strategy that run would refuse: %s', async (_name, content, message) => {
      const key = await keygen();
      serveVenue(`ledger-mm-test::${key.fingerprint}`);
      writeFileSync(join(dir, 'strategy.json'), JSON.stringify(content));

      const run = await cli(['check', '--config', 'strategy.json'], env(key.path));

      expect(run.code).toBe(EXIT.USAGE);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(stub.requests).toHaveLength(0);
    });

    it('a mistyped environment variable (LEDGER_MM_PAIR), naming the right one', async () => {
      const key = await keygen();
      serveVenue(`ledger-mm-test::${key.fingerprint}`);

      const run = await cli(['check'], env(key.path, { LEDGER_MM_PAIR: 'SOL/USDC' }));

      expect(run.code).toBe(EXIT.USAGE);
      expect(run.stderr).toMatch(
        /env LEDGER_MM_PAIR: unknown environment variable \(did you mean LEDGER_MM_PAIRS\?\)/,
      );
      expect(stub.requests).toHaveLength(0);
    });

    it('a config file that does not exist', async () => {
      const run = await cli(['check', '-c', 'missing.json'], env(join(dir, 'key')));
      expect(run.code).toBe(EXIT.USAGE);
      expect(run.stderr).toContain('missing.json');
      expect(stub.requests).toHaveLength(0);
    });

    it('no API key', async () => {
      const key = await keygen();
      serveVenue(`ledger-mm-test::${key.fingerprint}`);

      const run = await cli(['check'], env(key.path, { LEDGER_MM_API_KEY: undefined }));

      expect(run.code).toBe(EXIT.USAGE);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/no API key configured/);
      expect(run.stderr).toContain('LEDGER_MM_API_KEY');
      expect(stub.requests).toHaveLength(0);
    });

    it('a malformed API key, without echoing it', async () => {
      const run = await cli(['check'], env(join(dir, 'key'), { LEDGER_MM_API_KEY: `not-a-key-${SECRET}` }));
      expect(run.code).toBe(EXIT.USAGE);
      expect(run.stderr).toContain('venue.apiKey');
      expectNoSecret(run);
      expect(stub.requests).toHaveLength(0);
    });

    it.each([[['--bogus']], [['positional']], [['--config']]])('bad usage %j', async (args) => {
      const run = await cli(['check', ...args], env(join(dir, 'key')));
      expect(run.code).toBe(EXIT.USAGE);
      expect(run.stderr).toContain('Usage: ledger-mm check');
      expect(stub.requests).toHaveLength(0);
    });
  });

  it('prints its usage with --help, without loading anything', async () => {
    const run = await cli(['check', '--help'], { LEDGER_MM_METRICS_PORT: 'notaport' });
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toBe(checkCommand.usage);
    expect(stub.requests).toHaveLength(0);
  });
});

describe('liveVenueOptions', () => {
  it('maps every venue setting onto the client options', () => {
    const cwd = dir;
    writeFileSync(
      join(cwd, 'c.json'),
      JSON.stringify({
        venue: {
          authHeader: 'x-api-key',
          timeouts: {
            prepareMs: 31_000,
            cancelPrepareMs: 32_000,
            submitMs: 125_000,
            balancesMs: 33_000,
            defaultMs: 9_000,
          },
          retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 2_000 },
          cursorParam: 'after',
          connections: 3,
        },
      }),
    );
    const config = loadConfig({ configFiles: ['c.json'], env: { LEDGER_MM_API_KEY: API_KEY }, cwd });
    expect(liveVenueOptions(config.venue)).toEqual({
      baseUrl: 'http://127.0.0.1:8710/v1',
      submitUrl: 'http://127.0.0.1:8711/submit',
      apiKey: API_KEY,
      authHeader: 'x-api-key',
      timeouts: { read: 9_000, balances: 33_000, prepare: 31_000, cancelPrepare: 32_000, submit: 125_000 },
      retry: { readAttempts: 4, prepareAttempts: 4, baseDelayMs: 100, maxDelayMs: 2_000 },
      cursorParam: 'after',
      pool: { connections: 3 },
    });
  });
});

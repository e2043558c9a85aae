import { describe, expect, it } from 'vitest';
import {
  CHECK_NAMES,
  formatPreflight,
  runPreflight,
  type CheckName,
  type CheckResult,
  type PreflightInput,
  type PreflightReport,
  type PreflightVenue,
} from '../../../src/daemon/startup/preflight.js';
import { signerFromSeed } from '../../../src/signing/ed25519-signer.js';
import { VenueError, type ErrorCode } from '../../../src/venue/errors.js';
import type { Account, Balance, Pair } from '../../../src/venue/schemas.js';

const KEY = signerFromSeed(new Uint8Array(32).fill(7));
const OTHER_KEY = signerFromSeed(new Uint8Array(32).fill(9));

const PAIRS: Pair[] = [
  { pair: 'BTC/USDC', base: 'BTC', quote: 'USDC', minQuoteAmount: '10', feeSymbol: 'USDC' },
  { pair: 'ETH/USDC', base: 'ETH', quote: 'USDC', minQuoteAmount: null, feeSymbol: null },
];

function account(over: Partial<Account> = {}, limits: Partial<Account['limits']> = {}): Account {
  return {
    name: 'Example MM',
    slug: 'examplemm',
    partyId: `examplemm::${KEY.fingerprint}`,
    status: 'ACTIVE',
    feeExempt: true,
    clientOrderIdPrefix: 'examplemm-',
    ...over,
    limits: { allowedPairs: ['BTC/USDC', 'ETH/USDC'], maxOpenOrders: 50, ordersPerMinute: 30, ...limits },
  };
}

const BALANCES: Balance[] = [
  { instrument: 'BTC', available: '2.5', locked: '0' },
  { instrument: 'ETH', available: '40', locked: '1' },
  { instrument: 'USDC', available: '250000', locked: '0' },
];

function venueError(code: ErrorCode, status?: number, cause?: unknown): VenueError {
  return new VenueError({
    code,
    message:
      status === undefined ? 'GET /x: request failed before a response arrived' : `GET /x: ${status} ${code}`,
    endpoint: 'GET /x',
    requestId: status === undefined ? undefined : 'req-9',
    ...(status === undefined ? {} : { status }),
    ...(cause === undefined ? {} : { cause }),
  });
}

type Read<T> = T | Error;

interface FakeVenue extends PreflightVenue {
  calls: string[];
  signals: (AbortSignal | undefined)[];
}

/** A PreflightVenue answering from fixed values; an Error value is thrown instead. */
function fakeVenue(
  reads: { account?: Read<Account>; pairs?: Read<Pair[]>; balances?: Read<Balance[]> } = {},
): FakeVenue {
  const calls: string[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const answer = async <T>(name: string, value: Read<T>, opts?: { signal?: AbortSignal }): Promise<T> => {
    calls.push(name);
    signals.push(opts?.signal);
    await Promise.resolve();
    if (value instanceof Error) throw value;
    return structuredClone(value);
  };
  return {
    calls,
    signals,
    getAccount: (opts) => answer('getAccount', reads.account ?? account(), opts),
    getPairs: (opts) => answer('getPairs', reads.pairs ?? PAIRS, opts),
    getBalances: (opts) => answer('getBalances', reads.balances ?? BALANCES, opts),
  };
}

async function preflight(
  reads: Parameters<typeof fakeVenue>[0] = {},
  over: Partial<Omit<PreflightInput, 'venue'>> = {},
): Promise<{ report: PreflightReport; venue: FakeVenue }> {
  const venue = fakeVenue(reads);
  const report = await runPreflight({
    venue,
    key: { fingerprint: KEY.fingerprint },
    pairs: ['BTC/USDC', 'ETH/USDC'],
    ...over,
  });
  return { report, venue };
}

function check(report: PreflightReport, name: CheckName): CheckResult {
  const found = report.checks.find((c) => c.name === name);
  if (!found) throw new Error(`no ${name} check in ${JSON.stringify(report.checks)}`);
  return found;
}

function statuses(report: PreflightReport): Record<string, string> {
  return Object.fromEntries(report.checks.map((c) => [c.name, c.status]));
}

describe('runPreflight', () => {
  it('passes every check for an active, fee-exempt account with the right key, one check per name in order', async () => {
    const { report, venue } = await preflight();
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual([...CHECK_NAMES]);
    expect(report.checks.every((c) => c.status === 'pass')).toBe(true);
    expect(report.account?.slug).toBe('examplemm');
    expect(report.pairs).toHaveLength(2);
    expect(report.balances).toHaveLength(3);
    // GET /account is the first call to make.
    expect(venue.calls[0]).toBe('getAccount');
    expect([...venue.calls].sort()).toEqual(['getAccount', 'getBalances', 'getPairs']);
    expect(check(report, 'pairs').detail).toContain('BTC/USDC minQuoteAmount 10 USDC');
    expect(check(report, 'pairs').detail).toContain('ETH/USDC minQuoteAmount none USDC');
    expect(check(report, 'account status').detail).toContain('maxOpenOrders 50, ordersPerMinute 30');
  });

  it.each([
    { status: 'ACTIVE', ok: true, verdict: 'pass' },
    { status: 'SUSPENDED', ok: false, verdict: 'fail' },
    { status: 'DISABLED', ok: false, verdict: 'fail' },
    { status: 'SOMETHING_NEW', ok: false, verdict: 'fail' },
  ])('account $status: account status $verdict, ok $ok', async ({ status, ok, verdict }) => {
    const { report } = await preflight({ account: account({ status }) });
    expect(report.ok).toBe(ok);
    const line = check(report, 'account status');
    expect(line.status).toBe(verdict);
    expect(line.detail).toContain(status);
    if (verdict === 'fail') expect(line.detail).toMatch(/new placements are refused/);
    // The other checks still run and pass.
    expect(check(report, 'fee exempt').status).toBe('pass');
    expect(check(report, 'signing key').status).toBe('pass');
  });

  it('fails when feeExempt is false and says to stop and contact the operator', async () => {
    const { report } = await preflight({ account: account({ feeExempt: false }) });
    expect(report.ok).toBe(false);
    const line = check(report, 'fee exempt');
    expect(line.status).toBe('fail');
    expect(line.detail).toMatch(/stop and contact the operator before trading/);
    expect(formatPreflight(report)).toMatch(/^FAIL {2}fee exempt +feeExempt is false/m);
  });

  describe('pairs', () => {
    it.each<{
      name: string;
      wanted: string[];
      allowed: string[] | 'all';
      verdict: 'pass' | 'fail';
      text?: RegExp;
    }>([
      { name: 'allowed and listed', wanted: ['BTC/USDC'], allowed: ['BTC/USDC'], verdict: 'pass' },
      { name: "allowedPairs 'all'", wanted: ['BTC/USDC', 'ETH/USDC'], allowed: 'all', verdict: 'pass' },
      {
        name: 'not allowed for the account',
        wanted: ['BTC/USDC', 'ETH/USDC'],
        allowed: ['BTC/USDC'],
        verdict: 'fail',
        text: /ETH\/USDC is not allowed for this account \(allowed: BTC\/USDC\)/,
      },
      {
        name: 'not listed by the venue',
        wanted: ['SOL/USDC'],
        allowed: 'all',
        verdict: 'fail',
        text: /SOL\/USDC is not listed/,
      },
      {
        name: 'neither listed nor allowed',
        wanted: ['SOL/USDC'],
        allowed: ['BTC/USDC'],
        verdict: 'fail',
        text: /SOL\/USDC is not listed.*SOL\/USDC is not allowed/,
      },
      { name: 'none configured', wanted: [], allowed: 'all', verdict: 'fail', text: /no pairs configured/ },
    ])('$name: $verdict', async ({ wanted, allowed, verdict, text }) => {
      const { report } = await preflight(
        { account: account({}, { allowedPairs: allowed }) },
        { pairs: wanted },
      );
      const line = check(report, 'pairs');
      expect(line.status).toBe(verdict);
      expect(report.ok).toBe(verdict === 'pass');
      if (text) expect(line.detail).toMatch(text);
    });

    it('fails when GET /pairs fails, and still checks everything else', async () => {
      const { report } = await preflight({ pairs: venueError('INTERNAL_ERROR', 500) });
      expect(check(report, 'pairs')).toMatchObject({ status: 'fail' });
      expect(check(report, 'pairs').detail).toMatch(
        /GET \/pairs failed: INTERNAL_ERROR \(HTTP 500\) requestId req-9/,
      );
      expect(report.pairs).toBeUndefined();
      expect(statuses(report)).toMatchObject({
        'api key': 'pass',
        'account status': 'pass',
        'fee exempt': 'pass',
        balances: 'pass',
        'signing key': 'pass',
      });
    });
  });

  describe('balances', () => {
    it('fails when GET /balances fails, and still checks everything else', async () => {
      const { report } = await preflight({ balances: venueError('CLIENT_TIMEOUT') });
      expect(report.ok).toBe(false);
      const line = check(report, 'balances');
      expect(line.status).toBe('fail');
      expect(line.detail).toMatch(/GET \/balances failed: CLIENT_TIMEOUT/);
      expect(report.balances).toBeUndefined();
      expect(check(report, 'signing key').status).toBe('pass');
    });

    it.each<{ name: string; balances: Balance[]; text: RegExp }>([
      { name: 'no balances at all', balances: [], text: /no funds in BTC, USDC; none/ },
      {
        name: 'a zero balance',
        balances: [
          { instrument: 'BTC', available: '0', locked: '0' },
          { instrument: 'USDC', available: '100', locked: '0' },
        ],
        text: /no funds in BTC;/,
      },
      {
        name: 'everything locked',
        balances: [
          { instrument: 'BTC', available: '0', locked: '1' },
          { instrument: 'USDC', available: '100', locked: '0' },
        ],
        text: /nothing available in BTC \(all locked\)/,
      },
    ])('warns (without failing) on $name', async ({ balances, text }) => {
      const { report } = await preflight({ balances }, { pairs: ['BTC/USDC'] });
      const line = check(report, 'balances');
      expect(line.status).toBe('warn');
      expect(line.detail).toMatch(text);
      expect(report.ok).toBe(true);
      expect(formatPreflight(report)).toMatch(/^WARN {2}balances/m);
    });

    it('ignores tokens outside the configured pairs', async () => {
      const { report } = await preflight(
        {
          balances: [
            ...BALANCES.filter((b) => b.instrument !== 'ETH'),
            { instrument: 'ETH', available: '0', locked: '0' },
          ],
        },
        { pairs: ['BTC/USDC'] },
      );
      expect(check(report, 'balances').status).toBe('pass');
    });
  });

  describe('signing key', () => {
    it.each<{ name: string; partyId: string; verdict: 'pass' | 'fail' | 'warn'; ok: boolean; text: RegExp }>([
      {
        name: 'fingerprint matches the party',
        partyId: `examplemm::${KEY.fingerprint}`,
        verdict: 'pass',
        ok: true,
        text: /matches party/,
      },
      {
        name: 'fingerprint matches, upper-case hex',
        partyId: `examplemm::${KEY.fingerprint.toUpperCase()}`,
        verdict: 'pass',
        ok: true,
        text: /matches party/,
      },
      {
        name: 'the party belongs to another key',
        partyId: `examplemm::${OTHER_KEY.fingerprint}`,
        verdict: 'fail',
        ok: false,
        text: /is not the signing key fingerprint .*refusing to trade/,
      },
      {
        name: 'the party id carries no fingerprint',
        partyId: 'examplemm::abcdef',
        verdict: 'warn',
        ok: true,
        text: /cannot be checked/,
      },
      {
        name: 'the party id has no namespace at all',
        partyId: 'examplemm',
        verdict: 'warn',
        ok: true,
        text: /cannot be checked/,
      },
    ])('$name: $verdict', async ({ partyId, verdict, ok, text }) => {
      const { report } = await preflight({ account: account({ partyId }) });
      const line = check(report, 'signing key');
      expect(line.status).toBe(verdict);
      expect(line.detail).toMatch(text);
      expect(line.detail).toContain(KEY.fingerprint);
      expect(report.ok).toBe(ok);
    });

    it('reports a key that could not be loaded as a failed check, with the venue checks intact', async () => {
      const { report } = await preflight({}, { key: { error: 'key file /x/key: permission denied' } });
      expect(report.ok).toBe(false);
      expect(check(report, 'signing key')).toEqual({
        name: 'signing key',
        status: 'fail',
        detail: 'key file /x/key: permission denied',
      });
      expect(report.checks.filter((c) => c.status !== 'pass').map((c) => c.name)).toEqual(['signing key']);
    });
  });

  describe('API key', () => {
    it.each<{ code: ErrorCode; hint: RegExp }>([
      { code: 'INVALID_API_KEY', hint: /does not recognise this API key/ },
      { code: 'API_KEY_REVOKED', hint: /revoked; ask the operator to reissue/ },
      { code: 'API_KEY_EXPIRED', hint: /expired; ask the operator to reissue/ },
      { code: 'MISSING_API_KEY', hint: /no API key reached the venue/ },
    ])(
      '401 $code: fails, skips what needs the account, does not send GET /balances',
      async ({ code, hint }) => {
        const { report, venue } = await preflight({ account: venueError(code, 401) });
        expect(report.ok).toBe(false);
        expect(report.account).toBeUndefined();
        const line = check(report, 'api key');
        expect(line.status).toBe('fail');
        expect(line.detail).toContain(`GET /account failed: ${code} (HTTP 401) requestId req-9`);
        expect(line.detail).toMatch(hint);
        expect(statuses(report)).toEqual({
          'api key': 'fail',
          'account status': 'skip',
          'fee exempt': 'skip',
          pairs: 'fail',
          balances: 'skip',
          'signing key': 'skip',
        });
        expect(check(report, 'pairs').detail).toMatch(/allowed pairs unknown \(no account\)/);
        expect(check(report, 'signing key').detail).toContain(KEY.fingerprint);
        // GET /pairs is public and still read; the refused key is not sent again.
        expect(venue.calls).toEqual(['getAccount', 'getPairs']);
        expect(report.pairs).toHaveLength(2);
      },
    );

    it('an unreachable venue fails GET /account but still tries the other reads, naming the cause', async () => {
      const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      const down = venueError('CLIENT_NETWORK', undefined, refused);
      const { report, venue } = await preflight({ account: down, pairs: down, balances: down });
      expect(report.ok).toBe(false);
      expect(check(report, 'api key').detail).toBe(
        'GET /account failed: CLIENT_NETWORK - GET /x: request failed before a response arrived (ECONNREFUSED)',
      );
      expect(check(report, 'balances').status).toBe('fail');
      expect([...venue.calls].sort()).toEqual(['getAccount', 'getBalances', 'getPairs']);
    });
  });

  it('passes the caller signal to every read', async () => {
    const controller = new AbortController();
    const { venue } = await preflight({}, { signal: controller.signal });
    expect(venue.signals).toHaveLength(3);
    expect(venue.signals.every((s) => s === controller.signal)).toBe(true);
  });

  it('reports a non-venue error by its message', async () => {
    const { report } = await preflight({ balances: new TypeError('not a decimal string: "x"') });
    expect(check(report, 'balances').detail).toBe('GET /balances failed: not a decimal string: "x"');
  });
});

describe('runPreflight: onBalancesPending (the provisional start)', () => {
  /** A venue whose GET /balances answers only when `release` is called. */
  function slowBalances(reads: Parameters<typeof fakeVenue>[0] = {}) {
    const venue = fakeVenue(reads);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const getBalances = venue.getBalances.bind(venue);
    venue.getBalances = async (opts) => {
      await gate;
      return getBalances(opts);
    };
    return { venue, release: () => release() };
  }

  it.each<{
    name: string;
    reads: Parameters<typeof fakeVenue>[0];
    key?: PreflightInput['key'];
    told: boolean;
  }>([
    { name: 'every other check passes', reads: {}, told: true },
    { name: 'the account is suspended', reads: { account: account({ status: 'SUSPENDED' }) }, told: false },
    { name: 'not fee-exempt', reads: { account: account({ feeExempt: false }) }, told: false },
    { name: 'GET /pairs fails', reads: { pairs: venueError('INTERNAL_ERROR', 500) }, told: false },
    { name: 'the key is not the party', reads: {}, key: { fingerprint: OTHER_KEY.fingerprint }, told: false },
    { name: 'the key could not be loaded', reads: {}, key: { error: 'no key file' }, told: false },
    {
      name: 'the party carries no fingerprint (a warning)',
      reads: { account: account({ partyId: 'examplemm::abcdef' }) },
      told: true,
    },
  ])('$name: told $told, while GET /balances is still being read', async ({ reads, key, told }) => {
    const { venue, release } = slowBalances(reads);
    const early: unknown[] = [];
    const running = runPreflight({
      venue,
      key: key ?? { fingerprint: KEY.fingerprint },
      pairs: ['BTC/USDC', 'ETH/USDC'],
      onBalancesPending: (r) => early.push(r),
    });
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(early).toHaveLength(told ? 1 : 0);
    if (told) expect(early[0]).toMatchObject({ account: { slug: 'examplemm' }, pairs: PAIRS });
    release();
    await running;
    expect(early).toHaveLength(told ? 1 : 0);
  });

  it('told, and the report still fails when GET /balances then fails', async () => {
    const { venue, release } = slowBalances({ balances: venueError('INTERNAL_ERROR', 503) });
    let told = 0;
    const running = runPreflight({
      venue,
      key: { fingerprint: KEY.fingerprint },
      pairs: ['BTC/USDC'],
      onBalancesPending: () => (told += 1),
    });
    for (let i = 0; i < 10; i++) await Promise.resolve();
    release();
    const report = await running;
    expect(told).toBe(1);
    expect(report.ok).toBe(false);
    expect(check(report, 'balances').status).toBe('fail');
  });

  it('not told when GET /balances has answered before GET /pairs', async () => {
    const venue = fakeVenue();
    const getPairs = venue.getPairs.bind(venue);
    venue.getPairs = async (opts) => {
      for (let i = 0; i < 10; i++) await Promise.resolve();
      return getPairs(opts);
    };
    let told = 0;
    const report = await runPreflight({
      venue,
      key: { fingerprint: KEY.fingerprint },
      pairs: ['BTC/USDC'],
      onBalancesPending: () => (told += 1),
    });
    expect(report.ok).toBe(true);
    expect(told).toBe(0);
  });
});

describe('formatPreflight', () => {
  it('prints one aligned line per check, then the verdict', async () => {
    const { report } = await preflight({ account: account({ feeExempt: false }) });
    const lines = formatPreflight(report).trimEnd().split('\n');
    expect(lines).toHaveLength(CHECK_NAMES.length + 2);
    CHECK_NAMES.forEach((name, i) => {
      expect(lines[i]).toMatch(new RegExp(`^(PASS|FAIL|WARN|SKIP) {2}${name} +\\S`));
    });
    const detailColumn = new Set(report.checks.map((c, i) => lines[i]?.indexOf(c.detail)));
    expect(detailColumn.size).toBe(1);
    expect(lines.at(-2)).toBe('');
    expect(lines.at(-1)).toMatch(/^preflight FAILED/);
  });

  it('says passed when every check passed or warned', async () => {
    const { report } = await preflight({ balances: [] });
    expect(formatPreflight(report)).toMatch(/\npreflight passed\n$/);
  });
});

/**
 * The onboarding preflight: read-only checks that the API key works, the account is ACTIVE and
 * fee-exempt, the configured pairs are listed and allowed, the balances read, and the signing key
 * belongs to the party. It owns the check names, their report (every check, even after a failure)
 * and its rendering. The daemon runs it at startup, again on a slow timer until it passes;
 * `ledger-mm check` prints it. Nothing is signed before it passes.
 */
import { dec } from '../../core/decimal.js';
import { checkPartyId } from '../../signing/fingerprint.js';
import { VenueError, type ErrorCode } from '../../venue/errors.js';
import type { Account, Balance, Pair } from '../../venue/schemas.js';

/** The venue reads the preflight needs. The live client and the simulator both provide them. */
export interface PreflightVenue {
  getAccount(opts?: { signal?: AbortSignal }): Promise<Account>;
  getPairs(opts?: { signal?: AbortSignal }): Promise<Pair[]>;
  getBalances(opts?: { signal?: AbortSignal }): Promise<Balance[]>;
}

/** The signing key's identity, as the preflight compares it with the party. */
export interface PreflightKey {
  /** The key's ledger fingerprint. */
  fingerprint: string;
}

/** The names of the checks, in report order. */
export const CHECK_NAMES = [
  'api key',
  'account status',
  'fee exempt',
  'pairs',
  'balances',
  'signing key',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** One line of the preflight report. */
export interface CheckResult {
  name: CheckName;
  status: 'pass' | 'fail' | 'warn' | 'skip';
  detail: string;
}

/** Everything the preflight learned, for the daemon to start from. */
export interface PreflightReport {
  /** True when no check failed or was skipped (warnings allowed). */
  ok: boolean;
  /** One per {@link CHECK_NAMES}, in that order. */
  checks: CheckResult[];
  account?: Account;
  pairs?: Pair[];
  balances?: Balance[];
}

/** Inputs of {@link runPreflight}. */
export interface PreflightInput {
  venue: PreflightVenue;
  /** The signing key, or the reason it could not be loaded. */
  key: PreflightKey | { error: string };
  /** The pairs the configuration asks to quote. */
  pairs: readonly string[];
  signal?: AbortSignal;
  /**
   * Called once, while GET /balances is still being read, when every other check has passed
   * (API key, account status, fee exemption, pairs, signing key): the daemon starts its recovery
   * and prepares its first order beside the read (`execution.prepareBeforeBalances`). The report
   * that follows still decides: nothing may be signed unless it passes. Must not throw.
   */
  onBalancesPending?: (early: BalancesPendingReport) => void;
}

/** What the preflight knows while GET /balances is still being read and every other check passed. */
export interface BalancesPendingReport {
  readonly account: Account;
  readonly pairs: Pair[];
}

/** 401s: the venue refused the credential itself; another authenticated call would only repeat it. */
const CREDENTIAL_HINTS: Partial<Record<ErrorCode, string>> = {
  MISSING_API_KEY: 'no API key reached the venue',
  INVALID_API_KEY: 'the venue does not recognise this API key (wrong key, or a key of another environment?)',
  API_KEY_REVOKED: 'the API key was revoked; ask the operator to reissue it',
  API_KEY_EXPIRED: 'the API key expired; ask the operator to reissue it',
};

/**
 * The onboarding preflight of spec section 1: the API key works (GET /account, the first call),
 * the account is ACTIVE and fee-exempt (if not: stop and contact the operator), the configured
 * pairs are allowed and listed (with their minimum notional), the balances read, and the
 * signing key's fingerprint matches the party. Every check is reported, even after a failure,
 * so an operator sees all problems at once; a check that cannot run says why (`skip`).
 *
 * Reads only: GET /account first, then GET /pairs (public) and GET /balances concurrently
 * (balances can take over 10 s on a cold cache). GET /balances is not sent once the venue has
 * refused the API key. When everything but the balances has passed and the read is still under
 * way, `onBalancesPending` is told (once).
 *
 * Not checkable through the API: the transfer preapprovals each token of the pairs needs. A
 * missing one shows up as a refused placement.
 */
export async function runPreflight(input: PreflightInput): Promise<PreflightReport> {
  const checks: CheckResult[] = [];
  const report: PreflightReport = { ok: false, checks };
  const opts = input.signal ? { signal: input.signal } : {};

  const account = await attempt(() => input.venue.getAccount(opts));
  const acct = account.ok ? account.value : undefined;
  const keyRefused = !account.ok && isCredentialError(account.error);
  if (acct) report.account = acct;
  checks.push(checkApiKey(account));
  checks.push(checkStatus(acct));
  checks.push(checkFeeExempt(acct));

  let read = false;
  const reading = keyRefused
    ? undefined
    : attempt(() => input.venue.getBalances(opts)).then((r) => {
        read = true;
        return r;
      });
  const pairs = await attempt(() => input.venue.getPairs(opts));
  if (pairs.ok) report.pairs = pairs.value;
  checks.push(checkPairs(input.pairs, acct, pairs));
  const keyCheck = checkKey(input.key, acct);
  const passed = (c: CheckResult): boolean => c.status === 'pass' || c.status === 'warn';
  if (!read && reading !== undefined && acct && pairs.ok && checks.every(passed) && passed(keyCheck)) {
    input.onBalancesPending?.({ account: acct, pairs: pairs.value });
  }
  const balances = await reading;

  if (balances === undefined) {
    checks.push({ name: 'balances', status: 'skip', detail: 'not read: the venue refused the API key' });
  } else if (balances.ok) {
    report.balances = balances.value;
    checks.push(checkBalances(balances.value, input.pairs, report.pairs));
  } else {
    checks.push({
      name: 'balances',
      status: 'fail',
      detail: `GET /balances failed: ${describe(balances.error)}`,
    });
  }

  checks.push(keyCheck);
  report.ok = checks.every(passed);
  return report;
}

function isCredentialError(error: unknown): boolean {
  return error instanceof VenueError && CREDENTIAL_HINTS[error.code] !== undefined;
}

function checkApiKey(account: Attempt<Account>): CheckResult {
  if (account.ok) {
    const a = account.value;
    return {
      name: 'api key',
      status: 'pass',
      detail: `account ${a.name} (${a.slug}), party ${a.partyId}, clientOrderIdPrefix ${a.clientOrderIdPrefix}`,
    };
  }
  const hint = account.error instanceof VenueError ? CREDENTIAL_HINTS[account.error.code] : undefined;
  const detail = `GET /account failed: ${describe(account.error)}`;
  return { name: 'api key', status: 'fail', detail: hint === undefined ? detail : `${detail}: ${hint}` };
}

function checkStatus(acct: Account | undefined): CheckResult {
  if (!acct) return { name: 'account status', status: 'skip', detail: 'no account' };
  const limits = `maxOpenOrders ${acct.limits.maxOpenOrders ?? 'default'}, ordersPerMinute ${
    acct.limits.ordersPerMinute ?? 'default'
  }`;
  return acct.status === 'ACTIVE'
    ? { name: 'account status', status: 'pass', detail: `ACTIVE; ${limits}` }
    : {
        name: 'account status',
        status: 'fail',
        detail: `${acct.status}: new placements are refused (resting orders are unaffected)`,
      };
}

function checkFeeExempt(acct: Account | undefined): CheckResult {
  if (!acct) return { name: 'fee exempt', status: 'skip', detail: 'no account' };
  return acct.feeExempt
    ? { name: 'fee exempt', status: 'pass', detail: 'feeExempt is true' }
    : {
        name: 'fee exempt',
        status: 'fail',
        detail: 'feeExempt is false: stop and contact the operator before trading',
      };
}

function checkPairs(
  wanted: readonly string[],
  account: Account | undefined,
  listed: Attempt<Pair[]>,
): CheckResult {
  if (!listed.ok)
    return { name: 'pairs', status: 'fail', detail: `GET /pairs failed: ${describe(listed.error)}` };
  if (wanted.length === 0) {
    return { name: 'pairs', status: 'fail', detail: 'no pairs configured (set pairs or LEDGER_MM_PAIRS)' };
  }
  const allowed = account?.limits.allowedPairs;
  const problems: string[] = [];
  const mins: string[] = [];
  for (const name of wanted) {
    const pair = listed.value.find((p) => p.pair === name);
    if (!pair) problems.push(`${name} is not listed by GET /pairs`);
    if (allowed !== undefined && allowed !== 'all' && !allowed.includes(name)) {
      problems.push(`${name} is not allowed for this account (allowed: ${allowed.join(', ') || 'none'})`);
    }
    if (pair) mins.push(`${name} minQuoteAmount ${pair.minQuoteAmount ?? 'none'} ${pair.quote}`);
  }
  if (!account) problems.push('allowed pairs unknown (no account)');
  return problems.length > 0
    ? { name: 'pairs', status: 'fail', detail: [...problems, ...mins].join('; ') }
    : { name: 'pairs', status: 'pass', detail: mins.join('; ') };
}

function checkBalances(
  balances: Balance[],
  wanted: readonly string[],
  listed: Pair[] | undefined,
): CheckResult {
  const lines = balances.map((b) => `${b.instrument} available ${b.available} locked ${b.locked}`);
  const all = lines.join('; ') || 'none';
  const needed = new Set<string>();
  for (const name of wanted) {
    const pair = listed?.find((p) => p.pair === name);
    if (pair) {
      needed.add(pair.base);
      needed.add(pair.quote);
    }
  }
  const empty: string[] = [];
  const committed: string[] = [];
  for (const token of needed) {
    const b = balances.find((x) => x.instrument === token);
    if (!b || (dec(b.available).isZero() && dec(b.locked).isZero())) empty.push(token);
    else if (dec(b.available).isZero()) committed.push(token);
  }
  const warnings = [
    ...(empty.length > 0 ? [`no funds in ${empty.join(', ')}`] : []),
    ...(committed.length > 0 ? [`nothing available in ${committed.join(', ')} (all locked)`] : []),
  ];
  return warnings.length > 0
    ? { name: 'balances', status: 'warn', detail: `${warnings.join('; ')}; ${all}` }
    : { name: 'balances', status: 'pass', detail: all };
}

function checkKey(key: PreflightInput['key'], account: Account | undefined): CheckResult {
  if ('error' in key) return { name: 'signing key', status: 'fail', detail: key.error };
  if (!account) {
    return {
      name: 'signing key',
      status: 'skip',
      detail: `fingerprint ${key.fingerprint}; no account to compare`,
    };
  }
  const verdict = checkPartyId(account.partyId, key.fingerprint);
  if (verdict.kind === 'match') {
    return {
      name: 'signing key',
      status: 'pass',
      detail: `fingerprint ${key.fingerprint} matches party ${account.partyId}`,
    };
  }
  if (verdict.kind === 'unverifiable') {
    // Not a mismatch: the party id just does not carry a fingerprint to compare with.
    return { name: 'signing key', status: 'warn', detail: `party ${account.partyId}: ${verdict.reason}` };
  }
  return {
    name: 'signing key',
    status: 'fail',
    detail: `${verdict.reason}: this key cannot sign for party ${account.partyId}; refusing to trade`,
  };
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function attempt<T>(fn: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * One line about a failed read: the code, the HTTP status and the request id for the operator;
 * for client-side failures (no venue code) the client's message and the cause's code
 * (ECONNREFUSED, ...). The venue's own message is left out: it may change and is not needed.
 */
function describe(error: unknown): string {
  if (error instanceof VenueError) {
    const parts: string[] = [error.code];
    if (error.status !== undefined) parts.push(`(HTTP ${error.status})`);
    if (error.requestId) parts.push(`requestId ${error.requestId}`);
    if (error.code.startsWith('CLIENT_')) {
      // Shown as written, never inspected: the message is for the operator's eyes only.
      const cause = causeCode(error.cause);
      parts.push(`- ${error.message}${cause === undefined ? '' : ` (${cause})`}`);
    }
    return parts.join(' ');
  }
  return error instanceof Error ? error.message : String(error);
}

/** The first system error code (ECONNREFUSED, ENOTFOUND…) along an error's cause chain. */
export function causeCode(cause: unknown): string | undefined {
  for (let c = cause, depth = 0; c instanceof Error && depth < 4; c = c.cause, depth++) {
    const code = (c as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Renders the report, one line per check, then a verdict line. */
export function formatPreflight(report: PreflightReport): string {
  const mark = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP' } as const;
  const width = Math.max(0, ...report.checks.map((c) => c.name.length));
  const lines = report.checks.map((c) => `${mark[c.status]}  ${c.name.padEnd(width)}  ${c.detail}`);
  lines.push(
    '',
    report.ok ? 'preflight passed' : 'preflight FAILED: do not trade until every FAIL is resolved',
  );
  return `${lines.join('\n')}\n`;
}

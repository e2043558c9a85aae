/**
 * The venue client's options and their resolution: the two hosts' URLs (https, or http to
 * loopback), the API key and its header, per-call timeouts on the injected clock (with the
 * contract's 120 s floor on a submission), retry, jitter and the cursor parameter's name.
 * {@link resolveOptions} validates all of them once, at construction, so a misconfigured client
 * never reaches the venue.
 */
import type { Clock } from '../core/clock.js';
import type { CursorParams, TimeoutClass } from './endpoints.js';
import type { VenueHooks } from './exchange.js';
import { resolveRetryOptions, type RetryEvent, type RetryOptions } from './retry.js';
import type { Transport } from './transport.js';
import { parseBaseUrl, parseSubmitOrigin } from './url-policy.js';

/** Per-call timeouts in milliseconds, each on the injected clock and per attempt. */
export interface VenueTimeouts {
  /** Every call not listed below. Default 10 000. */
  read: number;
  /** GET /balances; a cold cache can exceed 10 s. Default 30 000. */
  balances: number;
  /** POST /orders; the server ceiling is 30 s. Default 35 000. */
  prepare: number;
  /** POST /orders/{contractId}/cancel. Default 35 000. */
  cancelPrepare: number;
  /** POST {submitUrl}; at least {@link MIN_SUBMIT_TIMEOUT_MS}. Default 130 000. */
  submit: number;
}

/** The contract's floor on the submission timeout: a shorter one abandons transactions that may commit. */
export const MIN_SUBMIT_TIMEOUT_MS = 120_000;

/** The defaults of {@link VenueTimeouts}. */
export const DEFAULT_TIMEOUTS: Readonly<VenueTimeouts> = {
  read: 10_000,
  balances: 30_000,
  prepare: 35_000,
  cancelPrepare: 35_000,
  submit: 130_000,
};

/** How the API key is sent; the venue treats both as equivalent. */
export type AuthHeader = 'bearer' | 'x-api-key';

/** Constructor options of `VenueClient`. */
export interface VenueClientOptions extends VenueHooks {
  /** The trade API base, ending with `/v1` (trailing slash tolerated). https, or http to loopback. */
  baseUrl: string;
  /** The submission host; only its origin is used, to vet each `signing.submitUrl`. */
  submitUrl: string;
  /** `mm_ak_<prefix>.<secret>`. Sent only to authenticated endpoints, never to the submit host. */
  apiKey: string;
  /** `Authorization: Bearer <key>` (default) or `X-API-Key: <key>`. */
  authHeader?: AuthHeader;
  transport: Transport;
  clock: Clock;
  /** Jitter source in [0, 1). Default `Math.random`. */
  random?: () => number;
  timeouts?: Partial<VenueTimeouts>;
  retry?: Partial<RetryOptions>;
  /**
   * The query parameter carrying a pagination cursor, which the contract does not name. One
   * name for both lists, or per list. Default `cursor`.
   */
  cursorParam?: string | Partial<CursorParams>;
  /** Called before each retry backoff. */
  onRetry?: (e: RetryEvent) => void;
}

/** {@link VenueClientOptions} validated and with defaults filled. */
export interface ResolvedOptions {
  baseUrl: string;
  submitOrigin: string;
  authHeaders: Readonly<Record<string, string>>;
  timeouts: Readonly<Record<TimeoutClass, number>>;
  retry: RetryOptions;
  cursorParams: CursorParams;
  random: () => number;
}

function resolveTimeouts(partial: Partial<VenueTimeouts> = {}): VenueTimeouts {
  const t = { ...DEFAULT_TIMEOUTS, ...partial };
  for (const [k, v] of Object.entries(t)) {
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`timeouts.${k} must be a positive number of ms`);
  }
  if (t.submit < MIN_SUBMIT_TIMEOUT_MS) {
    throw new RangeError(
      `timeouts.submit must be at least ${MIN_SUBMIT_TIMEOUT_MS} ms (got ${t.submit}): a shorter timeout ` +
        'abandons submissions that may still commit',
    );
  }
  return t;
}

export function resolveAuth(apiKey: string, header: AuthHeader = 'bearer'): Record<string, string> {
  // Never echo the key itself in an error.
  if (apiKey.trim() === '' || /[\r\n\s]/.test(apiKey)) throw new TypeError('apiKey is empty or malformed');
  if (header === 'bearer') return { authorization: `Bearer ${apiKey}` };
  if (header === 'x-api-key') return { 'x-api-key': apiKey };
  throw new TypeError(`authHeader must be 'bearer' or 'x-api-key'`);
}

function resolveCursorParams(p: VenueClientOptions['cursorParam'] = 'cursor'): CursorParams {
  const out = typeof p === 'string' ? { trades: p, orders: p } : { trades: 'cursor', orders: 'cursor', ...p };
  for (const name of [out.trades, out.orders]) {
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new TypeError(`invalid cursorParam ${JSON.stringify(name)}`);
  }
  return out;
}

/**
 * Validates every option. Throws `CLIENT_INSECURE_URL` (a VenueError) for plain http to a
 * non-loopback host, and `TypeError`/`RangeError` for any other misconfiguration, including a
 * submit timeout under {@link MIN_SUBMIT_TIMEOUT_MS}.
 */
export function resolveOptions(o: Omit<VenueClientOptions, 'transport' | 'clock'>): ResolvedOptions {
  return {
    baseUrl: parseBaseUrl(o.baseUrl),
    submitOrigin: parseSubmitOrigin(o.submitUrl),
    authHeaders: resolveAuth(o.apiKey, o.authHeader),
    timeouts: resolveTimeouts(o.timeouts),
    retry: resolveRetryOptions(o.retry),
    cursorParams: resolveCursorParams(o.cursorParam),
    random: o.random ?? Math.random,
  };
}

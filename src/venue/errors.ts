/**
 * The venue's errors as one closed union keyed by `code`, in the style of undici's errors:
 * one class, a `code` discriminant, and a single classification table. Code branches on
 * `err.code` only; `err.message` is for humans and is never parsed.
 *
 * Codes come from two places:
 * - the venue's `error.code` enumeration (`venue-api.md` section 7);
 * - client-side conditions that have no venue code (a timeout, a broken body, a refused
 *   submitUrl), prefixed `CLIENT_` so they can never collide with a venue code;
 * - the hedge venue's failures (a liquid exchange through ccxt, `src/hedge/`), prefixed `HEDGE_`:
 *   the hedge layer raises the same {@link VenueError} and is classified by the same table.
 */

/** Every `error.code` in section 7 of the contract. */
export const VENUE_ERROR_CODES = [
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'API_KEY_REVOKED',
  'API_KEY_EXPIRED',
  'MARKET_MAKER_SUSPENDED',
  'PAIR_NOT_ALLOWED',
  'INVALID_CLIENT_ORDER_ID',
  'VALIDATION_ERROR',
  'INSUFFICIENT_BALANCE',
  'LEDGER_COMMAND_REJECTED',
  'MAX_OPEN_ORDERS',
  'RATE_LIMITED',
  'CACHE_EXPIRED',
  'CONTRACT_NOT_FOUND',
  'ORDER_ALREADY_FILLED',
  'ORDER_ALREADY_CANCELLED',
  'NOT_SUPPORTED',
  'AUTH_NOT_CONFIGURED',
  'INTERNAL_ERROR',
] as const;

/** Client-side codes: conditions the venue has no code for. */
export const CLIENT_ERROR_CODES = [
  /** The venue answered an error whose code is not in the enumeration, or no code at all. */
  'CLIENT_UNKNOWN_CODE',
  /** The body is not JSON, is truncated, or does not match the schema. */
  'CLIENT_PROTOCOL',
  /** The call did not answer within its timeout. The request may have been processed. */
  'CLIENT_TIMEOUT',
  /** The connection failed (refused, reset). The request may have been processed. */
  'CLIENT_NETWORK',
  /** The caller's AbortSignal aborted the call. */
  'CLIENT_ABORTED',
  /** A `signing.submitUrl` whose origin is not the configured submit origin. Nothing was sent. */
  'CLIENT_SUBMIT_URL_REFUSED',
  /** A plain-http URL to a host that is not loopback. Nothing was sent. */
  'CLIENT_INSECURE_URL',
] as const;

/** The hedge venue's codes (`src/hedge/hedge-venue.ts`): what the hedger tells apart. */
export const HEDGE_ERROR_CODES = [
  /** The call failed before reaching the exchange (markets not loaded, unreachable): nothing happened. */
  'HEDGE_UNAVAILABLE',
  /** The exchange answered no (invalid order, bad symbol, credentials): the order is not on its book. */
  'HEDGE_REFUSED',
  /** The exchange refused the order for lack of funds: nothing happened. */
  'HEDGE_INSUFFICIENT_FUNDS',
  /** An order call whose fate is not known (a timeout, a 5xx, a lost answer): read it first. */
  'HEDGE_UNKNOWN_OUTCOME',
] as const;

export type VenueCode = (typeof VENUE_ERROR_CODES)[number];
export type ClientCode = (typeof CLIENT_ERROR_CODES)[number];
export type HedgeCode = (typeof HEDGE_ERROR_CODES)[number];
/** The closed union of every error code the client (or the hedge venue) can raise. */
export type ErrorCode = VenueCode | ClientCode | HedgeCode;

/**
 * What a failed call means for the caller:
 * - `retryable`: nothing took effect; the same call may be made again (after backoff).
 * - `fatal`: nothing took effect; retrying unchanged cannot succeed.
 * - `ambiguous`: the call may have taken effect; read the order before doing anything else.
 */
export type Disposition = 'retryable' | 'fatal' | 'ambiguous';

/** The kinds of call, which differ in what an unanswered request may have done. */
export type CallKind = 'read' | 'prepare' | 'submit';

/**
 * What an error says beyond the call that met it, so callers ask one predicate instead of keeping
 * their own set of codes:
 * - `credential`: the API key cannot work (missing, unknown, revoked, expired, the venue's key
 *   auth not configured): nothing authenticated can succeed until the key is fixed;
 * - `account`: the account cannot place (suspended or disabled); cancels still work;
 * - `party-limit`: a limit of the whole party (rate, open orders, funds, one placement in flight
 *   on the ledger): the next intent would meet the same answer;
 * - `order`: about this order or request only;
 * - `transport`: the call failed on the way (timeout, network, a broken body, a 5xx);
 * - `tamper`: the venue asked for something we must never do (send a signed transaction to a
 *   host other than the configured submit origin): the same alarm as a prepared transaction that
 *   differs from the intent.
 */
export type ErrorScope = 'credential' | 'account' | 'party-limit' | 'order' | 'transport' | 'tamper';

/** A party-wide pause after a refusal; its length is configured (`execution.*CooldownMs`). */
export type Cooldown = 'rate-limit' | 'max-open-orders';

/**
 * What a refusal tells of the order, or of the prepared transaction, the call was about, so a
 * caller settles it from the table instead of matching codes:
 * - `filled`: the order has filled completely; nothing is left to cancel;
 * - `cancelled`: the order is cancelled already;
 * - `contract-gone`: the contract named is not active (a fill, a cancel or a rotation archived
 *   it): read the order to learn which;
 * - `prepared-expired`: the prepared transaction passed its deadline; prepare again at once.
 */
export type OrderFact = 'filled' | 'cancelled' | 'contract-gone' | 'prepared-expired';

/**
 * What a refused prepare tells the strategy, when it is more than "refused": the typed outcome the
 * placement pipeline returns for it (`execution/placement/prepare-refusal.ts`).
 */
export type PrepareRefusal = 'ledger-rejected' | 'rate-limited' | 'max-open-orders' | 'insufficient-balance';

/** One row of the classification: a disposition per kind of call, the scope, the cooldown, the fact. */
export interface Classification extends Readonly<Record<CallKind, Disposition>> {
  readonly scope: ErrorScope;
  /** The party-wide pause the refusal asks for, when it asks for one. */
  readonly cooldown?: Cooldown;
  /** What the refusal tells of the order, when it tells something (see {@link OrderFact}). */
  readonly fact?: OrderFact;
  /** The outcome a refused prepare becomes, when it has one of its own (see {@link PrepareRefusal}). */
  readonly refusal?: PrepareRefusal;
}

type Row = Readonly<Record<CallKind, Disposition>>;
const R: Row = { read: 'retryable', prepare: 'retryable', submit: 'retryable' };
const F: Row = { read: 'fatal', prepare: 'fatal', submit: 'fatal' };
/** Transient: reads and prepares retry (prepare is idempotent on clientOrderId); a submit may have committed. */
const T: Row = { read: 'retryable', prepare: 'retryable', submit: 'ambiguous' };

/**
 * The one classification table (spec section 7, "Retry policy"). Anything an HTTP status
 * alone decides (a 5xx with an unknown code, a 401 without one) is settled in {@link classify}
 * and {@link scopeOf}.
 */
export const CLASSIFICATION: Readonly<Record<ErrorCode, Classification>> = {
  MISSING_API_KEY: { ...F, scope: 'credential' },
  INVALID_API_KEY: { ...F, scope: 'credential' },
  API_KEY_REVOKED: { ...F, scope: 'credential' },
  API_KEY_EXPIRED: { ...F, scope: 'credential' },
  MARKET_MAKER_SUSPENDED: { ...F, scope: 'account' },
  PAIR_NOT_ALLOWED: { ...F, scope: 'order' },
  INVALID_CLIENT_ORDER_ID: { ...F, scope: 'order' },
  VALIDATION_ERROR: { ...F, scope: 'order' },
  // Retryable only once funds free up; the strategy decides, the client never retries it.
  INSUFFICIENT_BALANCE: { ...F, scope: 'party-limit', refusal: 'insufficient-balance' },
  // Also covers a submission timeout and a concurrent prepare: check the order first.
  LEDGER_COMMAND_REJECTED: {
    read: 'fatal',
    prepare: 'ambiguous',
    submit: 'ambiguous',
    scope: 'party-limit',
    refusal: 'ledger-rejected',
  },
  MAX_OPEN_ORDERS: {
    read: 'fatal',
    prepare: 'retryable',
    submit: 'retryable',
    scope: 'party-limit',
    cooldown: 'max-open-orders',
    refusal: 'max-open-orders',
  },
  RATE_LIMITED: { ...R, scope: 'party-limit', cooldown: 'rate-limit', refusal: 'rate-limited' },
  // Past the 5-minute deadline nothing can commit; prepare again.
  CACHE_EXPIRED: { ...F, scope: 'order', fact: 'prepared-expired' },
  CONTRACT_NOT_FOUND: { ...F, scope: 'order', fact: 'contract-gone' },
  ORDER_ALREADY_FILLED: { ...F, scope: 'order', fact: 'filled' },
  ORDER_ALREADY_CANCELLED: { ...F, scope: 'order', fact: 'cancelled' },
  NOT_SUPPORTED: { ...F, scope: 'order' },
  AUTH_NOT_CONFIGURED: { ...F, scope: 'credential' },
  INTERNAL_ERROR: { ...T, scope: 'transport' },
  CLIENT_UNKNOWN_CODE: { ...F, scope: 'order' },
  // A broken body on a 2xx submit still means the host accepted something.
  CLIENT_PROTOCOL: { read: 'retryable', prepare: 'retryable', submit: 'ambiguous', scope: 'transport' },
  CLIENT_TIMEOUT: { ...T, scope: 'transport' },
  CLIENT_NETWORK: { ...T, scope: 'transport' },
  CLIENT_ABORTED: { read: 'fatal', prepare: 'fatal', submit: 'ambiguous', scope: 'transport' },
  CLIENT_SUBMIT_URL_REFUSED: { ...F, scope: 'tamper' },
  CLIENT_INSECURE_URL: { ...F, scope: 'transport' },
  // The hedge venue: an order is `submit`, a read `read` (it has no prepare: `prepare` mirrors read).
  HEDGE_UNAVAILABLE: { ...R, scope: 'transport' },
  HEDGE_REFUSED: { ...F, scope: 'order' },
  HEDGE_INSUFFICIENT_FUNDS: { ...F, scope: 'party-limit' },
  HEDGE_UNKNOWN_OUTCOME: { read: 'retryable', prepare: 'retryable', submit: 'ambiguous', scope: 'transport' },
};

/** True when `code` is a code of the union (a venue code or a client one). */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(CLASSIFICATION, code);
}

/**
 * The scope of an error code (see {@link ErrorScope}); a code the venue did not name with status
 * 401 is `credential`, with a 5xx `transport`. Accepts any string (a placement outcome carries
 * its code as one, and may carry a local code such as `INVALID_INTENT`: scope `order`).
 */
export function scopeOf(code: string, status?: number): ErrorScope {
  if (code === 'CLIENT_UNKNOWN_CODE' && status === 401) return 'credential';
  if (code === 'CLIENT_UNKNOWN_CODE' && status !== undefined && status >= 500) return 'transport';
  return isErrorCode(code) ? CLASSIFICATION[code].scope : 'order';
}

/** The party-wide pause a code asks for, or null. */
export function cooldownOf(code: string): Cooldown | null {
  return isErrorCode(code) ? (CLASSIFICATION[code].cooldown ?? null) : null;
}

/** What a code tells of the order the call was about (see {@link OrderFact}), or null. */
export function orderFactOf(code: string): OrderFact | null {
  return isErrorCode(code) ? (CLASSIFICATION[code].fact ?? null) : null;
}

/** The outcome a refused prepare with this code becomes (see {@link PrepareRefusal}), or null. */
export function refusalOf(code: string): PrepareRefusal | null {
  return isErrorCode(code) ? (CLASSIFICATION[code].refusal ?? null) : null;
}

/**
 * True when the call was stopped by our own AbortSignal (CLIENT_ABORTED): nothing went wrong at
 * the venue; the caller is stopping.
 */
export function isClientAbort(failure: unknown): boolean {
  const code = typeof failure === 'string' ? failure : failure instanceof VenueError ? failure.code : null;
  return code === 'CLIENT_ABORTED';
}

function scopeOfFailure(failure: unknown): ErrorScope | null {
  if (typeof failure === 'string') return scopeOf(failure);
  return failure instanceof VenueError ? scopeOf(failure.code, failure.status) : null;
}

/**
 * True when the failure (a {@link VenueError}, or the code an outcome carries) says the API key
 * cannot work: scope `credential`. Anything else is false.
 */
export function isCredentialFailure(failure: unknown): boolean {
  return scopeOfFailure(failure) === 'credential';
}

/** True when the failure says the account cannot place (scope `account`). */
export function isAccountFailure(failure: unknown): boolean {
  return scopeOfFailure(failure) === 'account';
}

/** True when the failure is a limit of the whole party (scope `party-limit`). */
export function isPartyLimit(failure: unknown): boolean {
  return scopeOfFailure(failure) === 'party-limit';
}

/** True when the venue asked for something never done (scope `tamper`). */
export function isTamperFailure(failure: unknown): boolean {
  return scopeOfFailure(failure) === 'tamper';
}

/** Extra fields the venue attaches to particular codes (section 2, "Error body"). */
export interface VenueErrorDetails {
  expectedPrefix?: string;
  allowedPairs?: string[];
  limit?: number;
  openOrders?: number;
  maxOpenOrders?: number;
  /** For orders: quoted to the operator when asking for the server-side cause. */
  correlationId?: string;
}

/** Constructor options of {@link VenueError}. */
export interface VenueErrorInit extends VenueErrorDetails {
  code: ErrorCode;
  message: string;
  /** HTTP status, when a response arrived. */
  status?: number;
  requestId?: string;
  /** The venue's raw code when `code` is CLIENT_UNKNOWN_CODE. */
  venueCode?: string;
  /** A short excerpt of the body, for CLIENT_PROTOCOL. */
  bodyExcerpt?: string;
  /** The endpoint, e.g. `POST /orders`. */
  endpoint?: string;
  cause?: unknown;
}

/** The one error class of the venue client. Branch on `code`. */
export class VenueError extends Error implements VenueErrorDetails {
  override readonly name = 'VenueError';
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly venueCode: string | undefined;
  readonly bodyExcerpt: string | undefined;
  readonly endpoint: string | undefined;
  readonly expectedPrefix: string | undefined;
  readonly allowedPairs: string[] | undefined;
  readonly limit: number | undefined;
  readonly openOrders: number | undefined;
  readonly maxOpenOrders: number | undefined;
  readonly correlationId: string | undefined;

  constructor(init: VenueErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.venueCode = init.venueCode;
    this.bodyExcerpt = init.bodyExcerpt;
    this.endpoint = init.endpoint;
    this.expectedPrefix = init.expectedPrefix;
    this.allowedPairs = init.allowedPairs;
    this.limit = init.limit;
    this.openOrders = init.openOrders;
    this.maxOpenOrders = init.maxOpenOrders;
    this.correlationId = init.correlationId;
  }
}

/** True when `code` is one of the hedge venue's codes. */
export function isHedgeCode(code: string): code is HedgeCode {
  return (HEDGE_ERROR_CODES as readonly string[]).includes(code);
}

/** True when `code` is a member of the venue's enumeration. */
export function isVenueCode(code: string): code is VenueCode {
  return (VENUE_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * How `err` should be handled for a call of `kind`. A CLIENT_UNKNOWN_CODE with a 5xx status is
 * treated like INTERNAL_ERROR (the status says the server failed), and 429 without a known
 * code like RATE_LIMITED.
 */
export function classify(err: VenueError, kind: CallKind): Disposition {
  if (err.code === 'CLIENT_UNKNOWN_CODE' && err.status !== undefined) {
    if (err.status >= 500) return CLASSIFICATION.INTERNAL_ERROR[kind];
    if (err.status === 429) return CLASSIFICATION.RATE_LIMITED[kind];
  }
  if (err.code === 'CLIENT_PROTOCOL' && err.status !== undefined && err.status >= 500) {
    return CLASSIFICATION.INTERNAL_ERROR[kind];
  }
  return CLASSIFICATION[err.code][kind];
}

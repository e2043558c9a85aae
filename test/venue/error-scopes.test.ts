import { describe, expect, it } from 'vitest';
import {
  CLASSIFICATION,
  VenueError,
  cooldownOf,
  isAccountFailure,
  isCredentialFailure,
  isPartyLimit,
  isTamperFailure,
  scopeOf,
  type ErrorCode,
  type ErrorScope,
} from '../../src/venue/errors.js';

/** The scope of every code, written out once more so a change to the table is a visible decision. */
const SCOPES: Readonly<Record<ErrorScope, readonly ErrorCode[]>> = {
  credential: [
    'MISSING_API_KEY',
    'INVALID_API_KEY',
    'API_KEY_REVOKED',
    'API_KEY_EXPIRED',
    'AUTH_NOT_CONFIGURED',
  ],
  account: ['MARKET_MAKER_SUSPENDED'],
  'party-limit': [
    'INSUFFICIENT_BALANCE',
    'LEDGER_COMMAND_REJECTED',
    'MAX_OPEN_ORDERS',
    'RATE_LIMITED',
    'HEDGE_INSUFFICIENT_FUNDS',
  ],
  order: [
    'PAIR_NOT_ALLOWED',
    'INVALID_CLIENT_ORDER_ID',
    'VALIDATION_ERROR',
    'CACHE_EXPIRED',
    'CONTRACT_NOT_FOUND',
    'ORDER_ALREADY_FILLED',
    'ORDER_ALREADY_CANCELLED',
    'NOT_SUPPORTED',
    'CLIENT_UNKNOWN_CODE',
    'HEDGE_REFUSED',
  ],
  transport: [
    'INTERNAL_ERROR',
    'CLIENT_PROTOCOL',
    'CLIENT_TIMEOUT',
    'CLIENT_NETWORK',
    'CLIENT_ABORTED',
    'CLIENT_INSECURE_URL',
    'HEDGE_UNAVAILABLE',
    'HEDGE_UNKNOWN_OUTCOME',
  ],
  tamper: ['CLIENT_SUBMIT_URL_REFUSED'],
};

describe('error scopes', () => {
  it('every code of the union has exactly the scope written here', () => {
    const written = Object.entries(SCOPES).flatMap(([scope, codes]) => codes.map((c) => [c, scope]));
    expect(Object.fromEntries(written)).toEqual(
      Object.fromEntries(Object.entries(CLASSIFICATION).map(([c, row]) => [c, row.scope])),
    );
  });

  it.each([
    ['CLIENT_UNKNOWN_CODE', 401, 'credential'],
    ['CLIENT_UNKNOWN_CODE', 503, 'transport'],
    ['CLIENT_UNKNOWN_CODE', 400, 'order'],
    ['INVALID_INTENT', undefined, 'order'],
  ] as const)('%s with status %s is %s', (code, status, scope) => {
    expect(scopeOf(code, status)).toBe(scope);
  });

  it('only the party limits the venue throttles name a cooldown', () => {
    const named = Object.keys(CLASSIFICATION).filter((c) => cooldownOf(c) !== null);
    expect(named.sort()).toEqual(['MAX_OPEN_ORDERS', 'RATE_LIMITED']);
    expect(cooldownOf('RATE_LIMITED')).toBe('rate-limit');
    expect(cooldownOf('MAX_OPEN_ORDERS')).toBe('max-open-orders');
    expect(cooldownOf('NOT_A_CODE')).toBeNull();
  });

  it('the predicates take a VenueError or an outcome code, and nothing else', () => {
    const err = (code: ErrorCode, status?: number): VenueError =>
      new VenueError({ code, message: 'x', ...(status === undefined ? {} : { status }) });
    expect(isCredentialFailure(err('API_KEY_EXPIRED', 401))).toBe(true);
    expect(isCredentialFailure('API_KEY_EXPIRED')).toBe(true);
    expect(isCredentialFailure(err('CLIENT_UNKNOWN_CODE', 401))).toBe(true);
    expect(isAccountFailure('MARKET_MAKER_SUSPENDED')).toBe(true);
    expect(isAccountFailure(err('PAIR_NOT_ALLOWED', 403))).toBe(false);
    expect(isPartyLimit('RATE_LIMITED')).toBe(true);
    expect(isTamperFailure(err('CLIENT_SUBMIT_URL_REFUSED'))).toBe(true);
    expect(isCredentialFailure(new Error('401'))).toBe(false);
    expect(isAccountFailure(null)).toBe(false);
  });
});

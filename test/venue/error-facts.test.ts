import { describe, expect, it } from 'vitest';
import {
  CLASSIFICATION,
  VenueError,
  isClientAbort,
  orderFactOf,
  refusalOf,
  type ErrorCode,
  type OrderFact,
  type PrepareRefusal,
} from '../../src/venue/errors.js';

/** The codes that tell something of the order, written out once more: a change is a visible decision. */
const FACTS: Readonly<Record<OrderFact, ErrorCode>> = {
  filled: 'ORDER_ALREADY_FILLED',
  cancelled: 'ORDER_ALREADY_CANCELLED',
  'contract-gone': 'CONTRACT_NOT_FOUND',
  'prepared-expired': 'CACHE_EXPIRED',
};

describe('what a refusal tells of the order (the table the cancel run settles by)', () => {
  it.each(Object.entries(FACTS))('%s is told by %s, and by no other code', (fact, code) => {
    expect(orderFactOf(code)).toBe(fact);
    const others = (Object.keys(CLASSIFICATION) as ErrorCode[]).filter((c) => orderFactOf(c) === fact);
    expect(others).toEqual([code]);
  });

  it('every other code, and a code outside the union, tells nothing', () => {
    const told = new Set<string>(Object.values(FACTS));
    for (const code of Object.keys(CLASSIFICATION)) {
      if (!told.has(code)) expect(orderFactOf(code), code).toBeNull();
    }
    expect(orderFactOf('NOT_A_CODE')).toBeNull();
  });

  it('isClientAbort is true for CLIENT_ABORTED only, as an error or as a code', () => {
    expect(isClientAbort(new VenueError({ code: 'CLIENT_ABORTED', message: 'aborted' }))).toBe(true);
    expect(isClientAbort('CLIENT_ABORTED')).toBe(true);
    expect(isClientAbort(new VenueError({ code: 'CLIENT_TIMEOUT', message: 'timeout' }))).toBe(false);
    expect(isClientAbort('CLIENT_TIMEOUT')).toBe(false);
    expect(isClientAbort(new Error('CLIENT_ABORTED'))).toBe(false);
  });
});

/** The codes a refused prepare turns into an outcome of its own, written out once more. */
const REFUSALS: Readonly<Record<PrepareRefusal, ErrorCode>> = {
  'ledger-rejected': 'LEDGER_COMMAND_REJECTED',
  'rate-limited': 'RATE_LIMITED',
  'max-open-orders': 'MAX_OPEN_ORDERS',
  'insufficient-balance': 'INSUFFICIENT_BALANCE',
};

describe('what a refused prepare becomes (the table the placement pipeline answers by)', () => {
  it.each(Object.entries(REFUSALS))('%s comes from %s, and from no other code', (refusal, code) => {
    expect(refusalOf(code)).toBe(refusal);
    const others = (Object.keys(CLASSIFICATION) as ErrorCode[]).filter((c) => refusalOf(c) === refusal);
    expect(others).toEqual([code]);
  });

  it('every other code, and a code outside the union, has none', () => {
    const named = new Set<string>(Object.values(REFUSALS));
    for (const code of Object.keys(CLASSIFICATION)) {
      if (!named.has(code)) expect(refusalOf(code), code).toBeNull();
    }
    expect(refusalOf('NOT_A_CODE')).toBeNull();
  });
});

/**
 * The hedge venue's codes in the one error union: what an order call's failure means (the
 * `submit` column decides whether the executor may call the order never sent), and the helpers.
 */
import { describe, expect, it } from 'vitest';

import { hedgeCodeOf, hedgeError } from '../../src/hedge/hedge-venue.js';
import { CLASSIFICATION, VenueError, isHedgeCode, type HedgeCode } from '../../src/venue/errors.js';

describe('hedge codes in the classification table', () => {
  it.each([
    ['HEDGE_UNAVAILABLE', 'retryable', 'retryable'],
    ['HEDGE_REFUSED', 'fatal', 'fatal'],
    ['HEDGE_INSUFFICIENT_FUNDS', 'fatal', 'fatal'],
    ['HEDGE_UNKNOWN_OUTCOME', 'retryable', 'ambiguous'],
  ] as const)('%s: a read is %s, an order %s', (code: HedgeCode, read, submit) => {
    expect([CLASSIFICATION[code].read, CLASSIFICATION[code].submit]).toEqual([read, submit]);
  });

  it('hedgeError builds a VenueError that hedgeCodeOf reads back; other errors have no hedge code', () => {
    const e = hedgeError('HEDGE_REFUSED', 'no', new Error('cause'));
    expect([e instanceof VenueError, hedgeCodeOf(e), (e.cause as Error).message]).toEqual([
      true,
      'HEDGE_REFUSED',
      'cause',
    ]);
    expect(hedgeCodeOf(new VenueError({ code: 'CLIENT_TIMEOUT', message: 'x' }))).toBeNull();
    expect(hedgeCodeOf(new Error('HEDGE_REFUSED'))).toBeNull();
    expect([isHedgeCode('HEDGE_UNAVAILABLE'), isHedgeCode('CLIENT_TIMEOUT')]).toEqual([true, false]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXCERPT_MAX, decodeData, decodeFailure, decodeSubmit } from '../../src/venue/decode.js';
import { VenueError } from '../../src/venue/errors.js';
import { OrderData } from '../../src/venue/schemas.js';
import type { TransportResponse } from '../../src/venue/transport.js';
import { ORDER } from './support/fixtures.js';

const resp = (status: number, body: string, truncated = false): TransportResponse => ({
  status,
  headers: {},
  body,
  ...(truncated ? { truncated } : {}),
});

/** Runs `f` and returns what it threw, or `undefined`. */
function thrownBy(f: () => unknown): unknown {
  try {
    f();
    return undefined;
  } catch (e) {
    return e;
  }
}

// Bodies that look like the venue's, broken ones, and arbitrary text.
const body = fc.oneof(
  fc.string(),
  fc.json(),
  fc.constantFrom(
    JSON.stringify({ ok: true, data: { order: ORDER } }),
    JSON.stringify({ ok: false, error: { code: 'RATE_LIMITED', limit: 5 } }),
    JSON.stringify({ ok: false, error: { code: 42 } }),
    JSON.stringify({ ok: true }),
    '<html>502</html>',
    '',
  ),
);
const status = fc.integer({ min: 100, max: 599 });

describe('decoding never crashes', () => {
  it('decodeData returns parsed data or throws a VenueError, whatever the bytes', () => {
    fc.assert(
      fc.property(status, body, fc.boolean(), (s, b, truncated) => {
        const err = thrownBy(() => decodeData('GET /orders/{orderId}', resp(s, b, truncated), OrderData));
        if (err === undefined) {
          expect(s >= 200 && s < 300 && !truncated).toBe(true);
          return;
        }
        expect(err).toBeInstanceOf(VenueError);
        const e = err as VenueError;
        expect(e.status).toBe(s);
        if (e.code === 'CLIENT_PROTOCOL') expect(e.bodyExcerpt!.length).toBeLessThanOrEqual(EXCERPT_MAX);
      }),
    );
  });

  it('decodeSubmit accepts only an unbroken 2xx, and otherwise throws a VenueError', () => {
    fc.assert(
      fc.property(status, body, fc.boolean(), (s, b, truncated) => {
        const err = thrownBy(() => decodeSubmit('POST {submitUrl}', resp(s, b, truncated)));
        if (err === undefined) expect(s >= 200 && s < 300 && !truncated).toBe(true);
        else expect(err).toBeInstanceOf(VenueError);
      }),
    );
  });

  it('decodeFailure always yields a VenueError carrying the status', () => {
    fc.assert(
      fc.property(status, body, (s, b) => {
        const e = decodeFailure('GET /account', resp(s, b));
        expect(e).toBeInstanceOf(VenueError);
        expect(e.status).toBe(s);
      }),
    );
  });

  it('keeps money as the exact decimal strings sent', () => {
    const price = '64000.123456789012345678';
    const got = decodeData(
      'x',
      resp(200, JSON.stringify({ ok: true, data: { order: { ...ORDER, price } } })),
      OrderData,
    );
    expect(got.order.price).toBe(price);
  });
});

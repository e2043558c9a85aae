import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import { jsonValue } from '../../src/sim/router/json-value.js';

/** `jsonValue(x)` must be exactly `JSON.parse(JSON.stringify(x))`, without the text. */

const roundTrip = (x: unknown): unknown => JSON.parse(JSON.stringify(x)) as unknown;

describe('jsonValue', () => {
  it.each<[string, unknown]>([
    ['a decimal (toJSON)', { price: new Dec('60000.10'), qty: [new Dec('0.5')] }],
    ['a date', { at: new Date(1_700_000_000_000) }],
    ['undefined and functions in an object', { a: undefined, b: () => 1, c: 1 }],
    ['undefined and functions in an array', [undefined, () => 1, 2]],
    ['numbers that are not finite, and −0', [Number.NaN, Number.POSITIVE_INFINITY, -0, { z: -0 }]],
    ['a toJSON returning undefined', { gone: { toJSON: () => undefined }, kept: true }],
    ['a sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['integer-like keys (written first)', { b: 1, 2: 'two', a: 3, 1: 'one' }],
    ['nested nulls and booleans', { a: null, b: [true, false, null] }],
  ])('%s', (_name, x) => {
    const copy = jsonValue(x);
    expect(copy).toStrictEqual(roundTrip(x));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(x));
  });

  it('copies: the result shares no object with its input', () => {
    const inner = { p: '1' };
    const x = { inner, list: [inner] };
    const copy = jsonValue(x) as { inner: object; list: object[] };
    expect(copy.inner).not.toBe(inner);
    expect(copy.list[0]).not.toBe(inner);
    inner.p = '2';
    expect(copy.inner).toEqual({ p: '1' });
  });

  it('throws on a bigint, as JSON.stringify does', () => {
    expect(() => jsonValue({ n: 1n })).toThrow(TypeError);
  });

  it('equals the round trip on arbitrary values', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: false, withMap: true, withSet: true, withDate: true }), (x) => {
        // A bare undefined has no JSON text at all (nothing to compare).
        fc.pre(x !== undefined);
        expect(jsonValue(x)).toStrictEqual(roundTrip(x));
      }),
      { numRuns: 500, seed: 25 },
    );
  });
});

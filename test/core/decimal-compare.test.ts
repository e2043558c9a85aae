import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, compareDec, floatNear } from '../../src/core/decimal.js';

/**
 * `compareDec` decides an order from the doubles when they differ and from the decimals when
 * they do not: it must always answer what `Dec#cmp` answers, above all for decimals that differ
 * beyond a double's precision.
 */

describe('compareDec', () => {
  it.each([
    ['1', '2', -1],
    ['2', '1', 1],
    ['0.1', '0.10', 0],
    // Equal as doubles, different as decimals: the decimal comparison decides.
    ['64321.1200000000000000000001', '64321.12', 1],
    ['64321.12', '64321.1200000000000000000001', -1],
    ['-0.000000000000000000000000000001', '0', -1],
    ['1e-400', '0', 1],
  ] as const)('%s against %s: %d', (a, b, want) => {
    expect(compareDec(new Dec(a), new Dec(b))).toBe(want);
    expect(new Dec(a).cmp(new Dec(b))).toBe(want);
  });

  it.each([
    ['123.45', 123.45],
    ['-0.000012345', -0.000012345],
    ['64321.12', 64321.12],
    ['12345678.9012345678901234567890123', 12345678.901234567],
    ['0', 0],
    ['1e-400', Number.NaN],
    ['1e+300', Number.NaN],
    ['NaN', Number.NaN],
    ['Infinity', Number.NaN],
  ])('floatNear(%s) is %d within 1e-15', (x, want) => {
    const got = floatNear(new Dec(x));
    if (Number.isNaN(want)) expect(got).toBeNaN();
    else expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-15 * Math.abs(want));
  });

  it('floatNear is within 1e-15 of the nearest double on random decimals', () => {
    const decimals = fc.stringMatching(/^-?[1-9]\d{0,12}\.\d{1,40}$|^-?0\.0{0,20}[1-9]\d{0,30}$/);
    fc.assert(
      fc.property(decimals, (text) => {
        const x = new Dec(text);
        const near = x.toNumber();
        expect(Math.abs(floatNear(x) - near)).toBeLessThanOrEqual(1e-15 * Math.abs(near));
      }),
      { numRuns: 3_000, seed: 25 },
    );
  });

  it('answers what Dec#cmp answers on random pairs, near ties included', () => {
    const digits = fc.stringMatching(/^-?[1-9]\d{0,6}\.\d{1,30}$/);
    fc.assert(
      fc.property(digits, fc.constantFrom('0', '1e-25', '-1e-25', '1e-12', '3'), (a, delta) => {
        const x = new Dec(a);
        const y = x.plus(delta);
        expect(compareDec(x, y)).toBe(x.cmp(y));
        expect(compareDec(y, x)).toBe(y.cmp(x));
      }),
      { numRuns: 2_000, seed: 25 },
    );
  });
});

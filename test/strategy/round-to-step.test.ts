import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import { ceilToStep, floorToStep } from '../../src/strategy/spread-levels.js';

/**
 * Rounding to a step that is a power of ten goes through `toDecimalPlaces` instead of a 40-digit
 * division; the result must be the division's, value and text, for every step and sign.
 */

const byDivision = (x: Dec, step: Dec, up: boolean): Dec =>
  up ? x.div(step).ceil().times(step) : x.div(step).floor().times(step);

describe('floorToStep and ceilToStep', () => {
  it.each([
    ['1.23456', '0.01', '1.23', '1.24'],
    ['-1.23456', '0.01', '-1.24', '-1.23'],
    ['0.00003', '0.0001', '0', '0.0001'],
    ['-0.00003', '0.0001', '-0.0001', '-0'],
    ['5', '1', '5', '5'],
    ['64321.129', '0.5', '64321', '64321.5'],
    ['123.4567890123', '1e-10', '123.4567890123', '123.4567890123'],
  ])('%s to %s: floor %s, ceil %s', (x, step, floor, ceil) => {
    expect(floorToStep(new Dec(x), new Dec(step)).toString()).toBe(new Dec(floor).toString());
    expect(ceilToStep(new Dec(x), new Dec(step)).toString()).toBe(new Dec(ceil).toString());
  });

  it('equals the division on random values and steps', () => {
    const value = fc.stringMatching(/^-?(0|[1-9]\d{0,9})\.\d{1,25}$/);
    const step = fc.constantFrom('1', '0.1', '0.01', '0.0001', '1e-10', '1e-20', '10', '0.5', '0.0025', '3');
    fc.assert(
      fc.property(value, step, (v, s) => {
        const x = new Dec(v);
        const st = new Dec(s);
        expect(floorToStep(x, st).toString()).toBe(byDivision(x, st, false).toString());
        expect(ceilToStep(x, st).toString()).toBe(byDivision(x, st, true).toString());
        expect(floorToStep(x, st).isNeg()).toBe(byDivision(x, st, false).isNeg());
        expect(ceilToStep(x, st).isNeg()).toBe(byDivision(x, st, true).isNeg());
      }),
      { numRuns: 3_000, seed: 25 },
    );
  });
});

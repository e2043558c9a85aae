import { describe, expect, it } from 'vitest';
import { toWire } from '../../../src/core/decimal.js';
import { gridStep, quantize, toUnits, unitsToDec } from '../../../src/sim/market/quantize.js';

describe('quantize', () => {
  it.each([
    [60060.123123, 2, 'floor', '60060.12'],
    [60060.123123, 2, 'ceil', '60060.13'],
    [60060.125, 2, 'nearest', '60060.13'],
    [0.000123, 5, 'nearest', '0.00012'],
    [0.000127, 5, 'nearest', '0.00013'],
    [1234.5, 0, 'floor', '1234'],
    [-1.234, 2, 'floor', '-1.24'],
    // Float noise snaps to the grid instead of costing a whole tick.
    [100 * (1 - 0.9), 2, 'floor', '10'],
    [60_000 * (1 + 0.003), 2, 'ceil', '60180'],
    // Beyond the exact-integer range the decimal path takes over.
    [123456789.12345679, 10, 'floor', '123456789.12345679'],
  ] as const)('%d to %d places (%s) is %s', (x, decimals, mode, expected) => {
    expect(toWire(quantize(x, decimals, mode))).toBe(expected);
  });

  it('refuses non-finite values', () => {
    expect(() => quantize(Number.NaN, 2, 'floor')).toThrow(RangeError);
    expect(() => quantize(Number.POSITIVE_INFINITY, 2, 'floor')).toThrow(RangeError);
  });

  it('toUnits gives up beyond 2^52, unitsToDec builds exact decimals', () => {
    expect(toUnits(1e6, 10, 'floor')).toBeUndefined();
    expect(toUnits(59820.01, 2, 'nearest')).toBe(5_982_001);
    expect(toWire(unitsToDec(5_982_001, 2))).toBe('59820.01');
    expect(toWire(unitsToDec(7, 5))).toBe('0.00007');
    expect(toWire(unitsToDec(-7, 1))).toBe('-0.7');
    expect(toWire(unitsToDec(42, 0))).toBe('42');
    expect(gridStep(2)).toBe(0.01);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, toWire } from '../../src/core/decimal.js';

/** `toWire`: plain notation, no exponent, no trailing zeros and no trailing point. */
describe('toWire', () => {
  it.each([
    ['1.50', '1.5'],
    ['100', '100'],
    ['100.000', '100'],
    ['0.0001000', '0.0001'],
    ['-2.50', '-2.5'],
    ['1e-12', '0.000000000001'],
    ['1.2e25', '12000000000000000000000000'],
    ['0', '0'],
  ])('%s → %s', (input, wire) => {
    expect(toWire(new Dec(input))).toBe(wire);
  });

  it('is the regex-trimmed toFixed() for any decimal', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 4 }),
        (n, k, z) => {
          const x = new Dec(`${n}e-${k}`).toFixed(k + z);
          const s = new Dec(x).toFixed();
          const trimmed = s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
          expect(toWire(new Dec(x))).toBe(trimmed);
          expect(toWire(new Dec(x))).toBe(
            new Dec(x)
              .toFixed()
              .replace(/(\.\d*?)0+$/, '$1')
              .replace(/\.$/, ''),
          );
        },
      ),
    );
  });
});

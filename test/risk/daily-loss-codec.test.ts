import { describe, expect, it } from 'vitest';
import { DAY_MS, stepDailyLoss, utcDay, type DailyLossState } from '../../src/risk/daily-loss-guard.js';
import { decodeDailyLoss, encodeDailyLoss, sameDailyLoss } from '../../src/risk/daily-loss-codec.js';
import { T0, d } from './support/fixtures.js';

const DAY = utcDay(T0);

const STATE: DailyLossState = {
  day: DAY,
  baseline: {
    'BTC/USDC': d('1234.567890123456789012345678'),
    'ETH/USDC': d('-0.00000001'),
    'SOL/EUR': d('0'),
  },
  halted: { 'BTC/USDC': 'day loss 600 beyond the per-pair limit 500' },
};

/** The fields of a valid encoding, to break one at a time. */
const VALID = {
  v: 1,
  day: DAY,
  baseline: { 'BTC/USDC': '1000.5' },
  halted: { 'BTC/USDC': 'day loss 600 beyond the per-pair limit 500' },
};

describe('daily loss codec', () => {
  it('round-trips a state exactly, decimals as decimal strings, keys sorted', () => {
    const text = encodeDailyLoss(STATE);
    expect(JSON.parse(text)).toEqual({
      v: 1,
      day: DAY,
      baseline: { 'BTC/USDC': '1234.567890123456789012345678', 'ETH/USDC': '-0.00000001', 'SOL/EUR': '0' },
      halted: { 'BTC/USDC': 'day loss 600 beyond the per-pair limit 500' },
    });
    const back = decodeDailyLoss(text, DAY)!;
    expect(back).not.toBeNull();
    expect(back.day).toBe(DAY);
    expect(Object.fromEntries(Object.entries(back.baseline).map(([k, v]) => [k, v.toFixed()]))).toEqual({
      'BTC/USDC': '1234.567890123456789012345678',
      'ETH/USDC': '-0.00000001',
      'SOL/EUR': '0',
    });
    expect(back.halted).toEqual(STATE.halted);
    expect(sameDailyLoss(back, STATE)).toBe(true);
    expect(encodeDailyLoss(back)).toBe(text);
    // Insertion order does not change the text.
    const reordered: DailyLossState = {
      day: DAY,
      baseline: Object.fromEntries(Object.entries(STATE.baseline).reverse()),
      halted: STATE.halted,
    };
    expect(encodeDailyLoss(reordered)).toBe(text);
  });

  it('round-trips what the guard produces, empty records included', () => {
    const lim = { perPair: d('100'), total: d('150') };
    const quoteOf = (pair: string): string => pair.split('/')[1]!;
    const empty = stepDailyLoss(null, {}, [], quoteOf, T0, lim).state;
    expect(sameDailyLoss(decodeDailyLoss(encodeDailyLoss(empty), DAY), empty)).toBe(true);
    let s = stepDailyLoss(null, { 'A/USDC': d('10.25') }, ['A/USDC', 'B/USDC'], quoteOf, T0, lim).state;
    s = stepDailyLoss(
      s,
      { 'A/USDC': d('-95'), 'B/USDC': d('0') },
      ['A/USDC', 'B/USDC'],
      quoteOf,
      T0 + 1,
      lim,
    ).state;
    expect(Object.keys(s.halted)).toEqual(['A/USDC']);
    const back = decodeDailyLoss(encodeDailyLoss(s), DAY)!;
    expect(sameDailyLoss(back, s)).toBe(true);
    expect(back.baseline['A/USDC']!.toFixed()).toBe('10.25');
  });

  it('a state of another UTC day is not restored; without a day any day decodes', () => {
    const text = encodeDailyLoss(STATE);
    expect(decodeDailyLoss(text, DAY + 1)).toBeNull();
    expect(decodeDailyLoss(text, DAY - 1)).toBeNull();
    expect(decodeDailyLoss(text, utcDay(T0 + DAY_MS))).toBeNull();
    expect(decodeDailyLoss(text)?.day).toBe(DAY);
  });

  it.each<{ name: string; text: string }>([
    { name: 'empty text', text: '' },
    { name: 'not JSON', text: '{"v":1,' },
    { name: 'JSON null', text: 'null' },
    { name: 'an array', text: '[1,2]' },
    { name: 'a string', text: '"risk"' },
    { name: 'a number', text: '20150' },
    { name: 'another version', text: JSON.stringify({ ...VALID, v: 2 }) },
    { name: 'version missing', text: JSON.stringify({ day: DAY, baseline: {}, halted: {} }) },
    { name: 'day missing', text: JSON.stringify({ v: 1, baseline: {}, halted: {} }) },
    { name: 'day as a string', text: JSON.stringify({ ...VALID, day: String(DAY) }) },
    { name: 'day fractional', text: JSON.stringify({ ...VALID, day: DAY + 0.5 }) },
    { name: 'day negative', text: JSON.stringify({ ...VALID, day: -1 }) },
    { name: 'an extra field', text: JSON.stringify({ ...VALID, extra: true }) },
    { name: 'baseline missing', text: JSON.stringify({ v: 1, day: DAY, halted: {} }) },
    { name: 'baseline an array', text: JSON.stringify({ ...VALID, baseline: ['1'] }) },
    { name: 'baseline null', text: JSON.stringify({ ...VALID, baseline: null }) },
    {
      name: 'a baseline as a JSON number',
      text: JSON.stringify({ ...VALID, baseline: { 'BTC/USDC': 1000.5 } }),
    },
    {
      name: 'a baseline in exponent form',
      text: JSON.stringify({ ...VALID, baseline: { 'BTC/USDC': '1e3' } }),
    },
    { name: 'a baseline not a decimal', text: JSON.stringify({ ...VALID, baseline: { 'BTC/USDC': 'NaN' } }) },
    {
      name: 'a baseline with a plus sign',
      text: JSON.stringify({ ...VALID, baseline: { 'BTC/USDC': '+1' } }),
    },
    { name: 'a baseline null', text: JSON.stringify({ ...VALID, baseline: { 'BTC/USDC': null } }) },
    { name: 'an empty pair name', text: JSON.stringify({ ...VALID, baseline: { '': '1' } }) },
    { name: 'halted missing', text: JSON.stringify({ v: 1, day: DAY, baseline: {} }) },
    { name: 'halted an array', text: JSON.stringify({ ...VALID, halted: ['BTC/USDC'] }) },
    { name: 'a halt reason not a string', text: JSON.stringify({ ...VALID, halted: { 'BTC/USDC': true } }) },
    { name: 'a halt reason empty', text: JSON.stringify({ ...VALID, halted: { 'BTC/USDC': '' } }) },
  ])('malformed: $name → null', ({ text }) => {
    expect(decodeDailyLoss(text, DAY)).toBeNull();
    expect(decodeDailyLoss(text)).toBeNull();
  });

  it('the valid base of the malformed cases decodes', () => {
    expect(decodeDailyLoss(JSON.stringify(VALID), DAY)?.baseline['BTC/USDC']?.toFixed()).toBe('1000.5');
  });

  it('a "__proto__" key is an ordinary pair name, not a prototype', () => {
    const text = `{"v":1,"day":${DAY},"baseline":{"__proto__":"5"},"halted":{}}`;
    const s = decodeDailyLoss(text, DAY)!;
    expect(Object.getPrototypeOf(s.baseline)).toBe(Object.prototype);
    expect(Object.keys(s.baseline)).toEqual(['__proto__']);
  });

  it.each<{ name: string; b: DailyLossState | null; same: boolean }>([
    { name: 'the same values in new objects', b: { ...STATE, baseline: { ...STATE.baseline } }, same: true },
    {
      name: 'an equal decimal written differently',
      b: { ...STATE, baseline: { ...STATE.baseline, 'SOL/EUR': d('0.000') } },
      same: true,
    },
    {
      name: 'a halt reason changed only',
      b: { ...STATE, halted: { 'BTC/USDC': 'another reason' } },
      same: true,
    },
    { name: 'null', b: null, same: false },
    { name: 'another day', b: { ...STATE, day: DAY + 1 }, same: false },
    {
      name: 'a baseline added',
      b: { ...STATE, baseline: { ...STATE.baseline, 'XRP/USDC': d('1') } },
      same: false,
    },
    {
      name: 'a baseline replaced by another pair',
      b: {
        ...STATE,
        baseline: {
          'BTC/USDC': STATE.baseline['BTC/USDC']!,
          'ETH/USDC': d('-0.00000001'),
          'XRP/EUR': d('0'),
        },
      },
      same: false,
    },
    {
      name: 'a baseline value changed',
      b: { ...STATE, baseline: { ...STATE.baseline, 'SOL/EUR': d('0.01') } },
      same: false,
    },
    { name: 'a halt latched', b: { ...STATE, halted: { ...STATE.halted, 'ETH/USDC': 'x' } }, same: false },
    { name: 'a halt gone', b: { ...STATE, halted: {} }, same: false },
  ])('sameDailyLoss: $name → $same', ({ b, same }) => {
    expect(sameDailyLoss(STATE, b)).toBe(same);
    expect(sameDailyLoss(b, STATE)).toBe(same);
  });

  it('sameDailyLoss: null equals null only', () => {
    expect(sameDailyLoss(null, null)).toBe(true);
  });
});

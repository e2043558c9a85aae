import { describe, expect, it } from 'vitest';
import { toWire } from '../../../src/core/decimal.js';
import { BackgroundMakers, buildBackgroundBook } from '../../../src/sim/market/background-makers.js';
import { BackgroundConfigSchema, MarketConfigSchema } from '../../../src/sim/market/market-config.js';
import { MarketModel } from '../../../src/sim/market/market-model.js';
import { Rng } from '../../../src/sim/rng.js';
import { HOUR_MS, newFakeClock, num, RecordingPort } from './support/recording-port.js';

const grid = { priceDecimals: 2, quantityDecimals: 5 };
const config = BackgroundConfigSchema.parse({
  levels: 5,
  firstLevelBps: 30,
  spacingBps: 10,
  sizeBase: '0.25',
  sizeJitter: 0.3,
});

/** Distance of `price` from `reference`, bps. */
const bps = (price: number, reference: number): number => (Math.abs(price - reference) / reference) * 10_000;

describe('buildBackgroundBook', () => {
  it('puts `levels` levels each side, first at firstLevelBps, then spacingBps apart', () => {
    const ref = 60_000;
    const book = buildBackgroundBook(ref, config, grid, new Rng(1));
    expect(book.bids).toHaveLength(5);
    expect(book.asks).toHaveLength(5);
    book.bids.forEach(([p], i) => expect(bps(num(p), ref)).toBeCloseTo(30 + 10 * i, 2));
    book.asks.forEach(([p], i) => expect(bps(num(p), ref)).toBeCloseTo(30 + 10 * i, 2));
    expect(book.bids.map(([p]) => toWire(p))).toEqual(['59820', '59760', '59700', '59640', '59580']);
    expect(book.asks.map(([p]) => toWire(p))).toEqual(['60180', '60240', '60300', '60360', '60420']);
  });

  it('bids descend below the reference, asks ascend above it, never closer than intended', () => {
    // Levels closer than one price tick apart fall on the same price and merge: at 0.98765 with two
    // decimals the five levels of each side are one.
    const cases = [
      [60_000.123, 5],
      [3_001.987, 5],
      [17.3333, 5],
      [0.98765, 1],
    ] as const;
    for (const [ref, levels] of cases) {
      const book = buildBackgroundBook(ref, config, grid, new Rng(3));
      const bids = book.bids.map(([p]) => num(p));
      const asks = book.asks.map(([p]) => num(p));
      expect([bids.length, asks.length], `${ref}`).toEqual([levels, levels]);
      expect(bids.every((p, i) => i === 0 || p < bids[i - 1]!)).toBe(true);
      expect(asks.every((p, i) => i === 0 || p > asks[i - 1]!)).toBe(true);
      expect(bids[0]!).toBeLessThan(ref);
      expect(asks[0]!).toBeGreaterThan(ref);
      // Rounded away from the reference: at least firstLevelBps (a float hair of slack).
      expect(bps(bids[0]!, ref)).toBeGreaterThanOrEqual(30 - 1e-9);
      expect(bps(asks[0]!, ref)).toBeGreaterThanOrEqual(30 - 1e-9);
      for (const [p] of [...book.bids, ...book.asks]) expect(p.decimalPlaces()).toBeLessThanOrEqual(2);
    }
  });

  it('sizes stay within sizeBase·(1 ± sizeJitter) on the quantity step, and do vary', () => {
    const sizes: number[] = [];
    const rng = new Rng(9);
    for (let i = 0; i < 200; i++) {
      const book = buildBackgroundBook(60_000, config, grid, rng);
      for (const [, q] of [...book.bids, ...book.asks]) {
        expect(q.decimalPlaces()).toBeLessThanOrEqual(5);
        sizes.push(num(q));
      }
    }
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(0.175);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(0.325);
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    expect(mean).toBeGreaterThan(0.245);
    expect(mean).toBeLessThan(0.255);
    expect(new Set(sizes).size).toBeGreaterThan(1000);
  });

  it('merges levels that land on the same tick and drops non-positive bids', () => {
    const coarse = BackgroundConfigSchema.parse({
      levels: 4,
      firstLevelBps: 1,
      spacingBps: 1,
      sizeBase: '1',
      sizeJitter: 0,
    });
    const book = buildBackgroundBook(100, coarse, { priceDecimals: 0, quantityDecimals: 0 }, new Rng(1));
    expect(book.bids.map(([p, q]) => [toWire(p), toWire(q)])).toEqual([['99', '4']]);
    expect(book.asks.map(([p, q]) => [toWire(p), toWire(q)])).toEqual([['101', '4']]);
    const deep = BackgroundConfigSchema.parse({
      levels: 3,
      firstLevelBps: 9000,
      spacingBps: 1000,
      sizeBase: '1',
    });
    const deepBook = buildBackgroundBook(100, deep, grid, new Rng(1));
    expect(deepBook.bids.map(([p]) => toWire(p))).toEqual(['10']);
    expect(deepBook.asks).toHaveLength(3);
  });

  it('a size below one step becomes one step', () => {
    const tiny = BackgroundConfigSchema.parse({ levels: 1, sizeBase: '0.0000001', sizeJitter: 0 });
    const book = buildBackgroundBook(100, tiny, grid, new Rng(1));
    expect(toWire(book.bids[0]![1])).toBe('0.00001');
  });
});

describe('BackgroundMakers', () => {
  it('does nothing when disabled', () => {
    const { clock } = newFakeClock();
    const port = new RecordingPort(clock);
    const makers = new BackgroundMakers({
      pair: 'BTC/USDC',
      port,
      config: { ...config, enabled: false },
      grid,
      rng: new Rng(1),
    });
    expect(makers.refresh(60_000)).toBeUndefined();
    expect(port.log).toEqual([]);
    expect(makers.refreshes).toBe(0);
  });
});

describe('background book through the model', () => {
  const build = (enabled: boolean) => {
    const { fake, clock } = newFakeClock();
    const port = new RecordingPort(clock);
    const pair = (initialPrice: string) => ({
      initialPrice,
      background: { enabled, sizeBase: '1', refreshMs: 2000 },
      takers: { enabled: false, meanSizeBase: '1' },
    });
    const cfg = MarketConfigSchema.parse({ pairs: { 'BTC/USDC': pair('60000'), 'ETH/USDC': pair('3000') } });
    const model = new MarketModel({ port, clock, rng: new Rng(5), config: cfg });
    return { fake, port, model };
  };

  it('refreshes each pair at start and every refreshMs, around the current reference', () => {
    const { fake, port, model } = build(true);
    model.start();
    fake.tick(HOUR_MS);
    model.close();
    for (const pair of ['BTC/USDC', 'ETH/USDC']) {
      const calls = port.backgrounds.filter((c) => c.pair === pair);
      expect(calls).toHaveLength(1801);
      expect(calls.map((c) => c.at).slice(0, 3)).toEqual([0, 2000, 4000]);
      for (const call of calls) {
        const ref = num(call.reference);
        expect(call.bids).toHaveLength(5);
        expect(call.asks).toHaveLength(5);
        expect(num(call.bids[0]![0])).toBeLessThan(ref);
        expect(num(call.asks[0]![0])).toBeGreaterThan(ref);
        // Built around the float reference; the published one is within half a tick of it.
        expect(bps(num(call.bids[0]![0]), ref)).toBeGreaterThan(29.9);
        expect(bps(num(call.asks[4]![0]), ref)).toBeLessThan(70.1);
      }
      expect(model.snapshot().pairs[pair]!.backgroundRefreshes).toBe(1801);
    }
  });

  it('turned off: no setBackgroundLiquidity calls at all', () => {
    const { fake, port, model } = build(false);
    model.start();
    fake.tick(HOUR_MS);
    model.close();
    expect(port.backgrounds).toHaveLength(0);
    expect(port.references.length).toBeGreaterThan(0);
  });
});

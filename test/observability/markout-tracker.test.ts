import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { createMetrics } from '../../src/observability/metrics/create-metrics.js';
import { observeMarkoutEvent } from '../../src/observability/metrics/markout-metrics.js';
import { MarkoutTracker } from '../../src/observability/markout-tracker.js';
import type { BookView, MarketSnapshot, OwnOrderView } from '../../src/market/market-snapshot.js';
import { parseExposition } from './support/exposition.js';

const S = 1000;

describe('the live markout tracker', () => {
  const setup = (maxPending?: number) => {
    let now = 0;
    const t = new MarkoutTracker({
      now: () => now,
      horizonsS: [5, 30],
      ...(maxPending === undefined ? {} : { maxPending }),
    });
    return { t, at: (ms: number) => (now = ms) };
  };

  it('measures each horizon at the first mid polled at or after it, signed from our side', () => {
    const { t, at } = setup();
    t.onMid('ETH/USDC', dec('100'), 0);
    at(1 * S);
    expect(t.onFill('ETH/USDC', 'BUY')).toBe(true);
    expect(t.onFill('ETH/USDC', 'SELL')).toBe(true);
    expect(t.onMid('ETH/USDC', dec('101'), 4 * S)).toEqual([]);
    // 6 s ≥ 1 s + 5 s: +1 % after the buy, −1 % after the sell.
    expect(t.onMid('ETH/USDC', dec('101'), 6 * S)).toEqual([
      { pair: 'ETH/USDC', side: 'BUY', horizonS: 5, bps: 100 },
      { pair: 'ETH/USDC', side: 'SELL', horizonS: 5, bps: -100 },
    ]);
    expect(t.waiting).toBe(2);
    const late = t.onMid('ETH/USDC', dec('99.5'), 31 * S);
    expect(late.map((s) => [s.side, s.horizonS, s.bps])).toEqual([
      ['BUY', 30, -50],
      ['SELL', 30, 50],
    ]);
    expect(t.waiting).toBe(0);
  });

  it.each([
    ['no mid yet', () => undefined, false],
    ['a mid older than 10 s', (t: MarkoutTracker) => t.onMid('ETH/USDC', dec('100'), -20 * S), false],
    ['a fresh mid of another pair', (t: MarkoutTracker) => t.onMid('BTC/USDC', dec('100'), 0), false],
    ['a fresh mid', (t: MarkoutTracker) => t.onMid('ETH/USDC', dec('100'), 0), true],
  ])('a fill with %s is measured: %s', (_name, before, measured) => {
    const { t } = setup();
    before(t);
    expect(t.onFill('ETH/USDC', 'BUY')).toBe(measured);
  });

  it('a horizon with no mid until long after it is dropped, not measured late', () => {
    const { t } = setup();
    t.onMid('ETH/USDC', dec('100'), 0);
    t.onFill('ETH/USDC', 'BUY');
    // The 5 s horizon's first mid comes at 40 s (35 s late): dropped; 30 s is 10 s late: kept.
    expect(t.onMid('ETH/USDC', dec('102'), 40 * S)).toEqual([
      { pair: 'ETH/USDC', side: 'BUY', horizonS: 30, bps: 200 },
    ]);
  });

  it('keeps at most maxPending fills, dropping the oldest', () => {
    const { t } = setup(2);
    t.onMid('ETH/USDC', dec('100'), 0);
    for (let i = 0; i < 5; i++) t.onFill('ETH/USDC', 'BUY');
    expect(t.waiting).toBe(2);
  });
});

describe('ledger_mm_fill_markout_bps from the daemon stream', () => {
  it('a fill, then quote cycles: the mid without our own orders, observed by pair, side and horizon', async () => {
    let now = 0;
    const metrics = createMetrics({ pairs: ['ETH/USDC'], now: () => now, defaultMetrics: false });
    const book = (bid: string, ask: string, receivedAt: number): BookView => ({
      bids: [
        { price: dec(bid), quantity: dec('1') },
        { price: dec('90'), quantity: dec('1') },
      ],
      asks: [{ price: dec(ask), quantity: dec('1') }],
      sequence: receivedAt,
      receivedAt,
    });
    // Our own bid rests at the top of the book: the mid leaves it out.
    const own = [
      { pair: 'ETH/USDC', side: 'BUY', price: dec('99'), remaining: dec('1') },
    ] as unknown as OwnOrderView[];
    const cycle = (b: BookView) => ({
      type: 'cycle',
      report: { snapshot: { now, pairs: { 'ETH/USDC': { book: b } } } as unknown as MarketSnapshot, own },
    });
    observeMarkoutEvent(metrics.markouts, metrics.labels, cycle(book('99', '110', 0)));
    now = 1 * S;
    observeMarkoutEvent(metrics.markouts, metrics.labels, {
      type: 'fill',
      fill: { pair: 'ETH/USDC', side: 'SELL' },
    });
    now = 7 * S;
    // Mid without our bid: (90 + 110) / 2 = 100 at the fill; (90 + 108) / 2 = 99 at 7 s.
    observeMarkoutEvent(metrics.markouts, metrics.labels, cycle(book('99', '108', 7 * S)));
    const families = parseExposition(await metrics.scrape());
    const h = families.get('ledger_mm_fill_markout_bps')!;
    const count = h.samples.filter((s) => s.name.endsWith('_count'));
    expect(count.map((s) => [s.labels, s.value])).toEqual([
      [{ pair: 'ETH/USDC', side: 'sell', horizon: '5' }, 1],
    ]);
    const sum = h.samples.find((s) => s.name.endsWith('_sum'))!;
    expect(sum.value).toBeCloseTo(100, 9);
    metrics.close();
  });
});

/**
 * Hedging for the daemon on fake timers, over the simulated hedge venue: a fill on this venue is
 * hedged at once (not at the next interval), the net position's hedge side (position, quote flow
 * with fees deducted, from the journal after a restart), the gate while the venue fails or the
 * cap is reached, and the loud log of a failure and of its end.
 */
import FakeTimers from '@sinonjs/fake-timers';
import { afterEach, describe, expect, it } from 'vitest';

import { fakeClock } from '../../src/core/clock.js';
import { Dec } from '../../src/core/decimal.js';
import { HedgeJournal } from '../../src/hedge/hedge-journal.js';
import type { HedgeSettings } from '../../src/hedge/hedge-settings.js';
import { hedgeError } from '../../src/hedge/hedge-venue.js';
import { Hedging } from '../../src/hedge/hedging.js';
import { HedgeVenueSim } from '../../src/lab/hedge/hedge-venue-sim.js';
import { createLogger } from '../../src/logging/logger.js';
import { Rng } from '../../src/sim/rng.js';

const d = (x: string | number): Dec => new Dec(x);
const SETTINGS: HedgeSettings = {
  pair: 'BTC/USDC',
  exchange: 'sim',
  symbol: 'BTC/USDT',
  market: 'spot',
  rules: {
    mode: 'every-fill',
    thresholdBase: d(0),
    minOrderBase: d('0.001'),
    maxOrderBase: d(5),
    maxPositionBase: d(1),
    maxSlippageBps: 20,
    stepBase: d('0.0001'),
  },
  spotBaselineBase: d(0),
  onFailure: 'stop',
  widenBps: 20,
  dryRun: false,
  intervalMs: 60_000,
  timeoutMs: 5_000,
};

const stops: AbortController[] = [];
afterEach(() => {
  for (const c of stops.splice(0)) c.abort();
});

function setup(settings: HedgeSettings = SETTINGS, journalFile = ':memory:') {
  const fake = FakeTimers.createClock(1_700_000_000_000);
  const clock = fakeClock(fake);
  const venue = new HedgeVenueSim({
    clock,
    truePrice: () => d(50_000),
    halfSpreadBps: 1,
    takerFeeBps: 5,
    latencyMs: 200,
    rng: new Rng(3).fork('hedge'),
  });
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (l: string) => void lines.push(JSON.parse(l) as { level: number; msg: string }) },
  });
  let venueBase = d(0);
  const journal = new HedgeJournal(journalFile);
  const hedging = new Hedging({
    settings: new Map([[settings.pair, settings]]),
    venueFor: () => Promise.resolve(venue),
    journal: () => journal,
    clock,
    logger,
    venueBase: () => venueBase,
    reference: () => d(50_000),
  });
  const stop = new AbortController();
  stops.push(stop);
  return {
    fake,
    venue,
    lines,
    journal,
    hedging,
    stop,
    setBase: (b: string) => (venueBase = d(b)),
    start: () => hedging.start(stop.signal),
  };
}

describe('Hedging', () => {
  it('hedges a fill at once, and hands over the net position with the fees deducted', async () => {
    const h = setup();
    h.start();
    await h.fake.tickAsync(1_000); // the first tick: flat, nothing to do
    expect(h.venue.received).toHaveLength(0);
    h.setBase('0.4'); // a BUY fill of 0.4 on this venue
    h.hedging.onFill('BTC/USDC');
    await h.fake.tickAsync(1_000); // far less than intervalMs: the fill woke it
    expect(h.venue.received.map((r) => [r.side, r.quantity.toFixed()])).toEqual([['SELL', '0.4']]);
    const off = h.hedging.offsets()['BTC/USDC']!;
    // Sold 0.4 at 50 000 × (1 − 1 bps) = 49 995, fee 5 bps of 19 998.
    expect([off.base.toFixed(), off.quote.toFixed(), off.gate]).toEqual(['-0.4', '19988.001', undefined]);
    expect(h.journal.all().map((r) => r.state)).toEqual(['settled']);
    const r = h.hedging.report()[0]!;
    expect([r.unhedgedBase?.toFixed(), r.fills, r.costQuote.toFixed()]).toEqual(['0', 1, '11.999']);
  });

  it('takes the quote flow of settled orders from the journal after a restart', async () => {
    const first = setup();
    first.start();
    first.setBase('-0.2');
    first.hedging.onFill('BTC/USDC');
    await first.fake.tickAsync(2_000);
    expect(first.venue.received.map((r) => r.side)).toEqual(['BUY']);
    const rows = first.journal.all();
    const second = setup(SETTINGS);
    for (const row of rows)
      second.journal.intend('BTC/USDC', { ...row, clientOrderId: row.clientOrderId }, 0);
    second.journal.settle(
      {
        clientOrderId: rows[0]!.clientOrderId,
        status: 'closed',
        side: 'BUY',
        filled: rows[0]!.filled,
        averagePrice: rows[0]!.averagePrice,
        feeQuote: rows[0]!.feeQuote,
      },
      0,
    );
    second.start();
    // Bought 0.2 at 50 005: paid 10 001 and a fee of 5.0005.
    expect(second.hedging.offsets()['BTC/USDC']!.quote.toFixed()).toBe('-10006.0005');
  });

  it('while the venue fails, stops the side that adds to the unhedged position, loudly, until it answers', async () => {
    const h = setup();
    (h.venue as unknown as { o: { unavailableRate: number } }).o.unavailableRate = 1;
    h.setBase('0.3');
    h.start();
    await h.fake.tickAsync(1_000);
    const gate = h.hedging.offsets()['BTC/USDC']!.gate!;
    // Long 0.3 unhedged: a BUY fill adds to it, a SELL reduces it.
    expect([gate.BUY.quote, gate.BUY.reason, gate.SELL.quote]).toEqual([false, 'hedge-venue-failing', true]);
    expect(h.lines.filter((l) => l.level === 50).map((l) => l.msg)).toEqual([
      'hedge venue sim failing for BTC/USDC; the side that adds to the unhedged position is not quoted until it answers',
    ]);
    (h.venue as unknown as { o: { unavailableRate: number } }).o.unavailableRate = 0;
    await h.fake.tickAsync(60_000);
    expect(h.hedging.offsets()['BTC/USDC']!.gate).toBeUndefined();
    expect(h.venue.received.map((r) => r.quantity.toFixed())).toEqual(['0.3']);
    expect(h.lines.some((l) => l.msg === 'hedge venue sim answers again for BTC/USDC')).toBe(true);
  });

  it('a venue that refuses every order stays failing, logged once, until an order goes through', async () => {
    const h = setup();
    const place = h.venue.placeIoc.bind(h.venue);
    let funds = false;
    h.venue.placeIoc = (req, signal) =>
      funds ? place(req, signal) : Promise.reject(hedgeError('HEDGE_INSUFFICIENT_FUNDS', 'no funds'));
    h.setBase('0.3');
    h.start();
    await h.fake.tickAsync(1_000);
    const firstRefusal = h.hedging.report()[0]!.state!.failingSince;
    expect(firstRefusal).not.toBeNull();
    await h.fake.tickAsync(3 * 60_000); // more ticks, each refused
    // Failing since the first refusal, not since the last: the reads in between do not clear it.
    expect(h.hedging.report()[0]!.state!.failingSince).toBe(firstRefusal);
    expect(h.hedging.offsets()['BTC/USDC']!.gate?.BUY.quote).toBe(false);
    expect(h.lines.filter((l) => l.level >= 30).map((l) => l.msg.slice(0, 30))).toEqual([
      'hedge venue sim failing for BT',
    ]);
    expect(h.journal.all().map((r) => r.state)).toEqual(['never-sent', 'never-sent', 'never-sent']);
    funds = true;
    await h.fake.tickAsync(60_000);
    expect(h.hedging.offsets()['BTC/USDC']!.gate).toBeUndefined();
    expect(h.venue.received.map((r) => r.quantity.toFixed())).toEqual(['0.3']);
  });

  it('at the position cap, hedges up to it, warns once and gates the adding side', async () => {
    const h = setup();
    h.setBase('1.5'); // the cap is 1
    h.start();
    await h.fake.tickAsync(1_000);
    await h.fake.tickAsync(60_000);
    expect(h.venue.received.map((r) => r.quantity.toFixed())).toEqual(['1']);
    const r = h.hedging.report()[0]!;
    expect([r.atCap, r.unhedgedBase?.toFixed()]).toEqual([true, '0.5']);
    expect(h.hedging.offsets()['BTC/USDC']!.gate?.BUY.quote).toBe(false);
    expect(h.lines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
      'hedge position of BTC/USDC at its cap (hedge.maxPositionBase); the rest stays unhedged',
    ]);
  });

  it('dryRun journals the order and sends nothing', async () => {
    const h = setup({ ...SETTINGS, dryRun: true });
    h.setBase('0.2');
    h.start();
    await h.fake.tickAsync(1_000);
    expect([h.venue.received.length, h.journal.all().map((r) => r.state)]).toEqual([0, ['never-sent']]);
  });

  it('close() waits for the loops and closes the journal', async () => {
    const h = setup();
    h.start();
    await h.fake.tickAsync(1_000);
    h.stop.abort();
    await h.hedging.close();
    expect(() => h.journal.all()).toThrow(/not open/);
  });
});

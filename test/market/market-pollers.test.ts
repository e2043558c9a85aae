import FakeTimers from '@sinonjs/fake-timers';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../../src/core/clock.js';
import { defaultsOf } from '../../src/config/define.js';
import { checkFormat } from '../../src/config/formats.js';
import { marketSchema, type MarketConfig } from '../../src/config/sections/market.js';
import { MarketPollers } from '../../src/market/market-pollers.js';
import { isCredentialFailure } from '../../src/venue/errors.js';
import { VenueError } from '../../src/venue/errors.js';
import { FakeVenue, book, trade } from './support/fake-venue.js';

const T0 = 1_700_000_000_000;
const PAIR_NAMES = ['BTC/USDC', 'ETH/USDC'];
const DEFAULTS = defaultsOf(marketSchema) as unknown as MarketConfig;

function config(over: Partial<MarketConfig> = {}): MarketConfig {
  return { ...DEFAULTS, jitterMs: 0, ...over };
}

let open: MarketPollers[] = [];
afterEach(async () => {
  await Promise.all(open.map((p) => p.close()));
  open = [];
});

function setup(over: Partial<MarketConfig> = {}, random?: () => number) {
  const fake = FakeTimers.createClock(T0);
  const clock = fakeClock(fake);
  const venue = new FakeVenue(clock);
  const errors: string[] = [];
  const pollers = new MarketPollers({
    config: config(over),
    pairs: PAIR_NAMES,
    venue,
    clock,
    ...(random === undefined ? {} : { random }),
    onError: (name) => errors.push(name),
  });
  open.push(pollers);
  return { fake, clock, venue, pollers, state: pollers.state, errors };
}

function gaps(times: readonly number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]!);
}

function cycle(values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

const BOOK_CASES = [
  { name: '1000 ms, no jitter', book: 1_000, jitter: 0 },
  { name: '1000 ms, 400 ms jitter', book: 1_000, jitter: 400 },
  { name: '1500 ms, 250 ms jitter', book: 1_500, jitter: 250 },
  { name: '2000 ms, 1000 ms jitter', book: 2_000, jitter: 1_000 },
];

describe('MarketPollers under fake timers', () => {
  it('builds one book and one trades poller per pair, plus balances, account and pairs', () => {
    const { pollers } = setup();
    expect(pollers.names).toEqual([
      'pairs',
      'account',
      'balances',
      'book:BTC/USDC',
      'trades:BTC/USDC',
      'book:ETH/USDC',
      'trades:ETH/USDC',
    ]);
  });

  it.each(BOOK_CASES)(
    "never polls one pair's book twice within its interval ($name)",
    async ({ book: ms, jitter }) => {
      // Extremes of the jitter source first: 0 is the shortest period the poller can draw.
      const { fake, venue, pollers } = setup(
        { book: { intervalMs: ms, depth: 20 }, jitterMs: jitter },
        cycle([0, 0.999_999, 0, 0.5, 0.25]),
      );
      pollers.start();
      await fake.tickAsync(60_000);
      for (const pair of PAIR_NAMES) {
        const g = gaps(venue.callsOf('getOrderBook', pair).map((c) => c.at));
        expect(g.length).toBeGreaterThan(60_000 / (ms + jitter) - 2);
        expect(Math.min(...g)).toBeGreaterThanOrEqual(ms);
        expect(Math.min(...g)).toBeGreaterThanOrEqual(1_000);
        expect(Math.max(...g)).toBeLessThanOrEqual(ms + jitter);
      }
    },
  );

  it('passes depth and limit to the venue', async () => {
    const { fake, venue, pollers } = setup({
      book: { intervalMs: 1_000, depth: 7 },
      trades: { intervalMs: 5_000, limit: 11, keep: 100 },
    });
    pollers.start();
    await fake.tickAsync(0);
    expect(venue.callsOf('getOrderBook', 'BTC/USDC')[0]!.query).toEqual({ depth: 7 });
    expect(venue.callsOf('getTrades', 'ETH/USDC')[0]!.query).toEqual({ pair: 'ETH/USDC', limit: 11 });
  });

  it('skips overlapping runs: a slow book poll delays the next one, never two at once', async () => {
    const { fake, venue, pollers } = setup({ book: { intervalMs: 1_000, depth: 20 } });
    venue.latency = { getOrderBook: 2_500 };
    pollers.start();
    await fake.tickAsync(10_100);
    const starts = venue.callsOf('getOrderBook', 'BTC/USDC').map((c) => c.at - T0);
    expect(starts).toEqual([0, 2_500, 5_000, 7_500, 10_000]);
    // Pairs poll concurrently, but each pair's book poller never has two calls in flight.
    for (const pair of PAIR_NAMES) expect(venue.maxInFlightBy.get(`getOrderBook:${pair}`)).toBe(1);
    expect(pollers.poller('book:BTC/USDC')!.skipped).toBeGreaterThan(0);
  });

  it('updates lastSuccessAt on each good poll and not on a failed one', async () => {
    const { fake, venue, pollers, state, errors } = setup({ book: { intervalMs: 1_000, depth: 20 } });
    venue.latency = { getOrderBook: 100 };
    pollers.start();
    await fake.tickAsync(150);
    expect(pollers.poller('book:BTC/USDC')!.lastSuccessAt).toBe(T0 + 100);
    expect(state.lastSuccessAt('book:BTC/USDC')).toBe(T0 + 100);
    expect(state.snapshot(fake.now).pairs['BTC/USDC']!.book!.receivedAt).toBe(T0 + 100);

    venue.failures.getOrderBook = new VenueError({ code: 'CLIENT_TIMEOUT', message: 'timeout' });
    await fake.tickAsync(2_000);
    expect(pollers.poller('book:BTC/USDC')!.lastSuccessAt).toBe(T0 + 100);
    expect(pollers.poller('book:BTC/USDC')!.consecutiveFailures).toBe(2);
    expect(errors).toContain('book:BTC/USDC');

    delete venue.failures.getOrderBook;
    await fake.tickAsync(1_000);
    expect(pollers.poller('book:BTC/USDC')!.lastSuccessAt).toBe(T0 + 3_100);
    expect(pollers.poller('book:BTC/USDC')!.consecutiveFailures).toBe(0);
  });

  it('reads balances at start, then never more often than every 60 s', async () => {
    const { fake, venue, pollers, state } = setup(
      { balances: { intervalMs: 60_000 }, jitterMs: 2_000 },
      cycle([0, 1, 0.5]),
    );
    pollers.start();
    await fake.tickAsync(0);
    expect(venue.callsOf('getBalances').map((c) => c.at)).toEqual([T0]);
    expect(state.snapshot(fake.now).balances!['USDC']!.available.toFixed()).toBe('1000.5');
    await fake.tickAsync(10 * 60_000);
    const g = gaps(venue.callsOf('getBalances').map((c) => c.at));
    expect(g.length).toBeGreaterThanOrEqual(9);
    expect(Math.min(...g)).toBeGreaterThanOrEqual(60_000);
    expect(Math.max(...g)).toBeLessThanOrEqual(62_000);
  });

  it('polls account and pairs on their slow timers', async () => {
    const { fake, venue, pollers } = setup({
      account: { intervalMs: 300_000 },
      pairs: { intervalMs: 120_000 },
    });
    pollers.start();
    await fake.tickAsync(600_000);
    expect(venue.callsOf('getAccount').map((c) => c.at - T0)).toEqual([0, 300_000, 600_000]);
    expect(venue.callsOf('getPairs').map((c) => c.at - T0)).toEqual([
      0, 120_000, 240_000, 360_000, 480_000, 600_000,
    ]);
  });

  it('de-duplicates trades across overlapping polls', async () => {
    const { fake, venue, pollers, state } = setup({ trades: { intervalMs: 1_000, limit: 3, keep: 10 } });
    venue.trades.set('BTC/USDC', [trade(3, T0 - 1), trade(2, T0 - 2), trade(1, T0 - 3)]);
    pollers.start();
    await fake.tickAsync(0);
    venue.trades.set('BTC/USDC', [trade(5, T0 + 500), trade(4, T0 + 400), trade(3, T0 - 1)]);
    await fake.tickAsync(1_000);
    await fake.tickAsync(1_000); // the same page again
    const trades = state.snapshot(fake.now).pairs['BTC/USDC']!.trades;
    expect(trades.map((t) => t.tradeId)).toEqual(['t5', 't4', 't3', 't2', 't1']);
    expect(venue.callsOf('getTrades', 'BTC/USDC')).toHaveLength(3);
  });

  it('builds a snapshot with Dec values from the polls', async () => {
    const { fake, venue, pollers, state } = setup();
    venue.books.set('BTC/USDC', book('BTC/USDC', 4, '99.99', '100.01'));
    pollers.start();
    await fake.tickAsync(0);
    const snap = state.snapshot(fake.now);
    const btc = snap.pairs['BTC/USDC']!;
    expect(btc.book!.bids[0]!.price.toFixed()).toBe('99.99');
    expect(btc.mids!.map((m) => m.price.toFixed())).toEqual(['100']);
    expect(btc.minQuoteAmount!.toFixed()).toBe('10');
    expect(snap.account!.status).toBe('ACTIVE');
    expect(snap.balances!['BTC']!.locked.toFixed()).toBe('0.01');
  });

  it('marks authFailing on a 401 and clears it when an authenticated read succeeds', async () => {
    const { fake, venue, pollers, state } = setup();
    pollers.start();
    await fake.tickAsync(0);
    expect(state.snapshot(fake.now).account!.authFailing).toBe(false);

    const revoked = new VenueError({ code: 'API_KEY_REVOKED', message: 'revoked', status: 401 });
    venue.failures.getBalances = revoked;
    venue.failures.getAccount = revoked;
    await fake.tickAsync(60_000);
    expect(state.authFailing).toBe(true);
    expect(state.snapshot(fake.now).account!.authFailing).toBe(true);

    delete venue.failures.getBalances;
    delete venue.failures.getAccount;
    await fake.tickAsync(60_000);
    expect(state.authFailing).toBe(false);
    expect(state.snapshot(fake.now).account!.authFailing).toBe(false);
  });

  it('does not treat other failures as auth failures', async () => {
    const { fake, venue, pollers, state } = setup();
    venue.failures.getAccount = new VenueError({ code: 'INTERNAL_ERROR', message: 'boom', status: 500 });
    venue.failures.getBalances = new VenueError({ code: 'CLIENT_TIMEOUT', message: 'slow' });
    pollers.start();
    await fake.tickAsync(0);
    expect(state.authFailing).toBe(false);
    expect(pollers.poller('account')!.failures).toBe(1);
  });

  it('close() aborts the runs in flight and stops polling', async () => {
    const { fake, venue, pollers } = setup();
    venue.latencyMs = 5_000;
    pollers.start();
    await fake.tickAsync(100);
    const before = venue.calls.length;
    expect(venue.inFlight).toBeGreaterThan(0);
    await pollers.close();
    expect(venue.inFlight).toBe(0);
    await fake.tickAsync(120_000);
    expect(venue.calls.length).toBe(before);
  });
});

describe('market poll limits', () => {
  it.each([
    ['book below 1000 ms', { book: { intervalMs: 999, depth: 20 } }, /market.book.intervalMs/],
    ['balances below 60000 ms', { balances: { intervalMs: 59_999 } }, /market.balances.intervalMs/],
  ])('the constructor refuses %s', (_name, over, message) => {
    const fake = FakeTimers.createClock(T0);
    const clock = fakeClock(fake);
    expect(
      () =>
        new MarketPollers({ config: config(over), pairs: PAIR_NAMES, venue: new FakeVenue(clock), clock }),
    ).toThrow(message);
  });

  it.each([
    ['book.intervalMs', marketSchema.book.intervalMs.format, 999, 1_000],
    ['trades.intervalMs', marketSchema.trades.intervalMs.format, 999, 1_000],
    ['balances.intervalMs', marketSchema.balances.intervalMs.format, 59_999, 60_000],
  ])('config validation refuses %s below its floor', (_key, format, bad, good) => {
    expect(() => checkFormat(format, bad)).toThrow(`must be an integer from ${good} to`);
    expect(() => checkFormat(format, good)).not.toThrow();
  });

  it('names the venue rule in the refusal', () => {
    expect(() => checkFormat(marketSchema.book.intervalMs.format, 500)).toThrow(/1000 ms/);
    expect(() => checkFormat(marketSchema.balances.intervalMs.format, 1_000)).toThrow(/60000 ms/);
  });
});

describe('isCredentialFailure', () => {
  it.each([
    ['MISSING_API_KEY', 401, true],
    ['INVALID_API_KEY', 401, true],
    ['API_KEY_REVOKED', 401, true],
    ['API_KEY_EXPIRED', 401, true],
    ['CLIENT_UNKNOWN_CODE', 401, true],
    ['CLIENT_UNKNOWN_CODE', 500, false],
    ['MARKET_MAKER_SUSPENDED', 403, false],
    ['RATE_LIMITED', 429, false],
  ] as const)('%s (%i) → %s', (code, status, want) => {
    expect(isCredentialFailure(new VenueError({ code, message: 'x', status }))).toBe(want);
  });

  it('is false for anything that is not a VenueError', () => {
    expect(isCredentialFailure(new Error('401'))).toBe(false);
  });
});

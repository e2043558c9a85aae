import { sleep } from '../../../src/core/clock.js';
import type { Clock } from '../../../src/core/clock.js';
import type { MarketVenue } from '../../../src/market/market-pollers.js';
import type { OrderBookQuery, TradesQuery } from '../../../src/venue/endpoints.js';
import type { Account, Balance, OrderBook, Pair, PublicTrade } from '../../../src/venue/schemas.js';

/** One recorded call of the fake venue. */
export interface FakeCall {
  readonly method: 'getOrderBook' | 'getTrades' | 'getBalances' | 'getAccount' | 'getPairs';
  readonly pair: string | null;
  /** Clock ms when the call started. */
  readonly at: number;
  readonly query?: OrderBookQuery | TradesQuery;
}

export const PAIRS: Pair[] = [
  { pair: 'BTC/USDC', base: 'BTC', quote: 'USDC', minQuoteAmount: '10', feeSymbol: 'USDC' },
  { pair: 'ETH/USDC', base: 'ETH', quote: 'USDC', minQuoteAmount: null, feeSymbol: null },
  { pair: 'SOL/USDC', base: 'SOL', quote: 'USDC', minQuoteAmount: '5', feeSymbol: null },
];

export function account(over: Partial<Account> = {}): Account {
  return {
    name: 'Test MM',
    slug: 'testmm',
    partyId: 'testmm::1220abcd',
    status: 'ACTIVE',
    feeExempt: true,
    clientOrderIdPrefix: 'testmm-',
    limits: { allowedPairs: 'all', maxOpenOrders: 50, ordersPerMinute: 60 },
    ...over,
  };
}

export function book(pair: string, sequence: number, bid = '100.5', ask = '101.5'): OrderBook {
  return {
    pair,
    bids: [
      [bid, '1.25'],
      ['100', '3'],
    ],
    asks: [
      [ask, '0.75'],
      ['102', '2'],
    ],
    asOf: { updateId: sequence * 10, sequence, source: 'projection' },
  };
}

export function trade(id: number, at: number, price = '101'): PublicTrade {
  return { tradeId: `t${id}`, price, quantity: '0.1', executedAt: new Date(at).toISOString() };
}

/**
 * A venue double implementing the five reads the market pollers use. Responses come from
 * mutable fields (or a thrown error); each call takes `latencyMs` on the injected clock and
 * honours its AbortSignal, like the real client.
 */
export class FakeVenue implements MarketVenue {
  calls: FakeCall[] = [];
  latencyMs = 0;
  /** Per-method latency override. */
  latency: Partial<Record<FakeCall['method'], number>> = {};
  books = new Map<string, OrderBook>();
  trades = new Map<string, PublicTrade[]>();
  balances: Balance[] = [
    { instrument: 'USDC', available: '1000.50', locked: '20' },
    { instrument: 'BTC', available: '0.5', locked: '0.01' },
  ];
  account: Account = account();
  pairs: Pair[] = PAIRS;
  /** When set, the method rejects with it. */
  failures: Partial<Record<FakeCall['method'], Error>> = {};
  inFlight = 0;
  /** Most calls in flight at once per `method:pair` (one poller each). */
  maxInFlightBy = new Map<string, number>();
  private inFlightBy = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  private async call<T>(
    method: FakeCall['method'],
    pair: string | null,
    signal: AbortSignal | undefined,
    value: () => T,
    query?: FakeCall['query'],
  ): Promise<T> {
    this.calls.push({ method, pair, at: this.clock.now(), ...(query === undefined ? {} : { query }) });
    const key = `${method}:${pair ?? ''}`;
    this.inFlight += 1;
    this.inFlightBy.set(key, (this.inFlightBy.get(key) ?? 0) + 1);
    this.maxInFlightBy.set(key, Math.max(this.maxInFlightBy.get(key) ?? 0, this.inFlightBy.get(key)!));
    try {
      const ms = this.latency[method] ?? this.latencyMs;
      if (ms > 0) await sleep(this.clock, ms, signal);
      const failure = this.failures[method];
      if (failure !== undefined) throw failure;
      return value();
    } finally {
      this.inFlight -= 1;
      this.inFlightBy.set(key, this.inFlightBy.get(key)! - 1);
    }
  }

  callsOf(method: FakeCall['method'], pair: string | null = null): FakeCall[] {
    return this.calls.filter((c) => c.method === method && (pair === null || c.pair === pair));
  }

  getOrderBook(
    pair: string,
    query: OrderBookQuery = {},
    opts: { signal?: AbortSignal } = {},
  ): Promise<OrderBook> {
    return this.call('getOrderBook', pair, opts.signal, () => this.books.get(pair) ?? book(pair, 1), query);
  }

  getTrades(query: TradesQuery = {}, opts: { signal?: AbortSignal } = {}) {
    const pair = query.pair ?? null;
    return this.call(
      'getTrades',
      pair,
      opts.signal,
      () => ({
        pair,
        trades: (this.trades.get(pair ?? '') ?? []).slice(0, query.limit ?? 50),
        nextCursor: null,
      }),
      query,
    );
  }

  getBalances(opts: { signal?: AbortSignal } = {}): Promise<Balance[]> {
    return this.call('getBalances', null, opts.signal, () => this.balances);
  }

  getAccount(opts: { signal?: AbortSignal } = {}): Promise<Account> {
    return this.call('getAccount', null, opts.signal, () => this.account);
  }

  getPairs(opts: { signal?: AbortSignal } = {}): Promise<Pair[]> {
    return this.call('getPairs', null, opts.signal, () => this.pairs);
  }
}

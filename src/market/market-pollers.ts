/**
 * The pollers, the first stage of the data flow: {@link MarketPollers} builds every market-data
 * poller from config (the book and public trades of each pair, balances, account, pairs) on the
 * generic `Poller`, with the venue's floors on the book and balances periods and jitter that only
 * lengthens a period. It owns the pollers' lifecycle and writes every read into the
 * {@link MarketState}, which the quote cycle turns into a snapshot; a refused key or a suspended
 * account is recorded there too.
 */
import type { Clock } from '../core/clock.js';
import { Poller, type PollerStats } from '../core/poller.js';
import type { MarketConfig } from '../config/sections/market.js';
import { MIN_BALANCES_POLL_MS, MIN_BOOK_POLL_MS } from '../config/sections/market.js';
import type { VenueClient } from '../venue/client.js';
import type { Account, Balance } from '../venue/schemas.js';
import { isAccountFailure, isCredentialFailure } from '../venue/errors.js';
import { MarketState } from './market-state.js';

/** The venue reads the market pollers make (a fake in tests). */
export type MarketVenue = Pick<
  VenueClient,
  'getOrderBook' | 'getTrades' | 'getBalances' | 'getAccount' | 'getPairs'
>;

/** Per-run timeouts of the pollers, ms (each also bounded per attempt by the venue client). */
export interface MarketPollTimeouts {
  readonly book: number;
  readonly trades: number;
  /** A cold balances cache can exceed 10 s. */
  readonly balances: number;
  readonly account: number;
  readonly pairs: number;
}

/** Defaults of {@link MarketPollTimeouts}. */
export const DEFAULT_MARKET_POLL_TIMEOUTS: MarketPollTimeouts = {
  book: 10_000,
  trades: 10_000,
  balances: 60_000,
  account: 30_000,
  pairs: 30_000,
};

/** Options of {@link MarketPollers}. */
export interface MarketPollersOptions {
  readonly config: MarketConfig;
  /** The pairs to poll (config `pairs`). */
  readonly pairs: readonly string[];
  readonly venue: MarketVenue;
  readonly clock: Clock;
  /** Where the pollers write; default a new one built from `config`. */
  readonly state?: MarketState;
  readonly timeouts?: Partial<MarketPollTimeouts>;
  /** Jitter source in [0, 1); default `Math.random`. */
  readonly random?: () => number;
  /** Each failed run, with the poller's name (`book:BTC/USDC`, `balances`…). Must not throw. */
  readonly onError?: (poller: string, error: unknown) => void;
  /**
   * Public market data from elsewhere, started and closed with the book and trade pollers (the
   * "exchanges" reference, `src/market/reference/`). Its `start` must be idempotent.
   */
  readonly feeds?: readonly { start(): void; close(): Promise<void> }[];
  /**
   * Reads that replace the venue client's own: a firm of several parties reads every party's
   * balances and sums them, and states its account limits as the sum of its parties'.
   */
  readonly reads?: FirmReads;
}

/** The firm's reads of balances and account (see {@link MarketPollersOptions.reads}). */
export interface FirmReads {
  readonly balances: (signal: AbortSignal) => Promise<readonly Balance[]>;
  readonly account: (signal: AbortSignal) => Promise<Account>;
}

/**
 * Every market-data poller, built from config on the generic {@link Poller} (one run at a time,
 * never overlapping, jittered, timeout-bounded, with `lastSuccessAt`):
 *
 * - `book:<pair>`: GET /orderbook/{pair} every `market.book.intervalMs` (≥ 1 s) per pair;
 * - `trades:<pair>`: GET /trades?pair= per pair, merged into a bounded, de-duplicated window;
 * - `balances`: at start, then every `market.balances.intervalMs` (≥ 60 s);
 * - `account` and `pairs`: slow timers. A 401 on an authenticated read marks `authFailing`, a
 *   success clears it; 403 MARKET_MAKER_SUSPENDED marks the account suspended.
 *
 * Jitter only ever lengthens a period: each is drawn from `[intervalMs, intervalMs + jitterMs]`,
 * and runs are spaced from start to start, so two polls of one pair's book are never less than
 * `market.book.intervalMs` apart. All pollers run once at {@link MarketPollers.start}.
 */
export class MarketPollers {
  readonly state: MarketState;
  private readonly byName = new Map<string, Poller>();
  private readonly feeds: readonly { start(): void; close(): Promise<void> }[];

  /** Throws RangeError when an interval is below the venue's floors (config validation refuses them too). */
  constructor(options: MarketPollersOptions) {
    this.feeds = options.feeds ?? [];
    const { config, venue, clock } = options;
    if (config.book.intervalMs < MIN_BOOK_POLL_MS) {
      throw new RangeError(`market.book.intervalMs must be at least ${MIN_BOOK_POLL_MS} ms`);
    }
    if (config.balances.intervalMs < MIN_BALANCES_POLL_MS) {
      throw new RangeError(`market.balances.intervalMs must be at least ${MIN_BALANCES_POLL_MS} ms`);
    }
    const timeouts = { ...DEFAULT_MARKET_POLL_TIMEOUTS, ...options.timeouts };
    this.state =
      options.state ??
      new MarketState({ pairs: options.pairs, tradesKeep: config.trades.keep, mids: config.mids });
    const state = this.state;
    const add = (
      name: string,
      intervalMs: number,
      timeoutMs: number,
      task: (signal: AbortSignal) => Promise<void>,
    ) => {
      // Centre the Poller's symmetric jitter above the floor: periods fall in [intervalMs, intervalMs + 2·half].
      const half = Math.floor(config.jitterMs / 2);
      const poller = new Poller({
        name,
        clock,
        intervalMs: intervalMs + half,
        jitterMs: half,
        timeoutMs,
        task,
        ...(options.random === undefined ? {} : { random: options.random }),
        onError: (err) => options.onError?.(name, err),
        // A refused API key lasts until an operator acts (the account recheck watches for it).
        failureBackoff: { maxMs: Math.max(60_000, intervalMs), when: isCredentialFailure },
      });
      this.byName.set(name, poller);
    };
    const authenticated = async <T>(read: () => Promise<T>): Promise<T> => {
      try {
        return await read();
      } catch (err) {
        if (isCredentialFailure(err)) state.recordAuthFailure();
        else if (isAccountFailure(err)) state.recordSuspended();
        throw err;
      }
    };

    add('pairs', config.pairs.intervalMs, timeouts.pairs, async (signal) => {
      const pairs = await venue.getPairs({ signal });
      state.applyPairs(pairs, clock.now());
    });
    add('account', config.account.intervalMs, timeouts.account, async (signal) => {
      const account = await authenticated(
        () => options.reads?.account(signal) ?? venue.getAccount({ signal }),
      );
      state.applyAccount(account, clock.now());
    });
    add('balances', config.balances.intervalMs, timeouts.balances, async (signal) => {
      const balances = await authenticated(
        () => options.reads?.balances(signal) ?? venue.getBalances({ signal }),
      );
      state.applyBalances(balances, clock.now());
    });
    for (const pair of options.pairs) {
      add(`book:${pair}`, config.book.intervalMs, timeouts.book, async (signal) => {
        const book = await venue.getOrderBook(pair, { depth: config.book.depth }, { signal });
        state.applyBook(pair, book, clock.now());
      });
      add(`trades:${pair}`, config.trades.intervalMs, timeouts.trades, async (signal) => {
        const data = await venue.getTrades({ pair, limit: config.trades.limit }, { signal });
        state.applyTrades(pair, data.trades, clock.now());
      });
    }
  }

  /** The poller names: `pairs`, `account`, `balances`, then `book:<pair>` and `trades:<pair>` per pair. */
  get names(): readonly string[] {
    return [...this.byName.keys()];
  }

  /** One poller by name (for metrics, or `runNow` after an operator action). */
  poller(name: string): Poller | undefined {
    return this.byName.get(name);
  }

  /** Every poller's stats (lastSuccessAt, failures, skipped…), for metrics and readiness. */
  stats(): readonly PollerStats[] {
    return [...this.byName.values()];
  }

  /** Starts every poller; each runs at once, then on its own timer. Idempotent. */
  start(): void {
    for (const p of this.byName.values()) p.start();
    for (const f of this.feeds) f.start();
  }

  /**
   * Starts the public market data alone, the book and trade pollers (the startup's provisional
   * quoting: pairs, account and balances are the preflight's reads). {@link start} starts the
   * rest later. Idempotent.
   */
  startMarketData(): void {
    for (const [name, p] of this.byName)
      if (name.startsWith('book:') || name.startsWith('trades:')) p.start();
    for (const f of this.feeds) f.start();
  }

  /** Stops every poller, aborting and awaiting the runs in flight. Idempotent. */
  async close(): Promise<void> {
    await Promise.all([...this.byName.values()].map((p) => p.close()));
    await Promise.all(this.feeds.map((f) => f.close()));
  }
}

/** Builds the market pollers (not started). */
export function createMarketPollers(options: MarketPollersOptions): MarketPollers {
  return new MarketPollers(options);
}

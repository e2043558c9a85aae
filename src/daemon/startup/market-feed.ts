/**
 * The market data the daemon quotes from: the market state and its pollers (books and trades
 * per pair, balances, account, pairs). The state tells the daemon the moment a balances poll is
 * taken, so the local wallet (`src/portfolio/local-balances.ts`) takes its baseline at exactly that point.
 */
import type { Clock } from '../../core/clock.js';
import type { MmConfig } from '../../config/schema.js';
import { MarketState } from '../../market/market-state.js';
import { createMarketPollers, type FirmReads, type MarketPollers } from '../../market/market-pollers.js';
import type { MarketStateOptions } from '../../market/market-state.js';
import type { VenueClient } from '../../venue/client.js';
import type { Balance } from '../../venue/schemas.js';
import type { Logger } from '../../logging/logger.js';
import { type ExchangeFactory, ccxtExchangeFactory } from '../../market/reference/ccxt-exchanges.js';
import { type ExchangesReference, exchangesReferenceOf } from '../../market/reference/exchanges-reference.js';
import { pairConfig } from '../../config/sections/strategy-rules.js';
import { toPairParams } from '../../strategy/params.js';

/** A {@link MarketState} that reports every balances poll it takes. */
export class ObservedMarketState extends MarketState {
  constructor(
    options: MarketStateOptions,
    private readonly onBalances: (at: number) => void,
  ) {
    super(options);
  }

  override applyBalances(balances: readonly Balance[], at: number): void {
    super.applyBalances(balances, at);
    this.onBalances(at);
  }
}

/** The state and its pollers (not started). */
export interface MarketFeed {
  readonly state: ObservedMarketState;
  readonly pollers: MarketPollers;
  /** The "exchanges" reference, started with the pollers; null unless a pair uses it. */
  readonly reference: ExchangesReference | null;
}

/** Builds the market feed of `config`. */
export function createMarketFeed(opts: {
  readonly config: MmConfig;
  readonly venue: VenueClient;
  readonly clock: Clock;
  readonly random?: () => number;
  readonly onBalances: (at: number) => void;
  readonly onError: (poller: string, error: unknown) => void;
  readonly logger?: Logger;
  /** Makes the ccxt exchanges of the "exchanges" reference; default ccxt's own (tests inject). */
  readonly exchanges?: ExchangeFactory;
  /** A firm of several parties: its summed balances and account (default the venue client's). */
  readonly reads?: FirmReads;
}): MarketFeed {
  const { config } = opts;
  const state = new ObservedMarketState(
    { pairs: config.pairs, tradesKeep: config.market.trades.keep, mids: config.market.mids },
    opts.onBalances,
  );
  const reference = exchangesReferenceOf(
    config.pairs.map((pair) => {
      const p = toPairParams(pairConfig(config.strategy, pair));
      return { pair, source: p.reference.source, settings: p.exchanges };
    }),
    {
      clock: opts.clock,
      exchanges:
        opts.exchanges ?? ccxtExchangeFactory({ timeoutMs: config.strategy.defaults.exchanges.timeoutMs }),
      onReadings: (pair, readings) => state.setSources(pair, readings),
      ...(opts.logger === undefined ? {} : { log: opts.logger }),
      venueMid: (pair) => {
        const mids = state.snapshot(opts.clock.now()).pairs[pair]?.mids;
        return mids?.[mids.length - 1]?.price ?? null;
      },
    },
  );
  const pollers = createMarketPollers({
    config: config.market,
    pairs: config.pairs,
    venue: opts.venue,
    clock: opts.clock,
    state,
    ...(opts.random === undefined ? {} : { random: opts.random }),
    onError: opts.onError,
    ...(reference === null ? {} : { feeds: [reference] }),
    ...(opts.reads === undefined ? {} : { reads: opts.reads }),
  });
  return { state, pollers, reference };
}

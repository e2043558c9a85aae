/**
 * The market data the daemon quotes from: the market state and its pollers (books and trades
 * per pair, balances, account, pairs). The state tells the daemon the moment a balances poll is
 * taken, so the local wallet (`src/portfolio/local-balances.ts`) takes its baseline at exactly that point.
 */
import type { Clock } from '../../core/clock.js';
import type { MmConfig } from '../../config/schema.js';
import { MarketState, createMarketPollers, type MarketPollers } from '../../market/index.js';
import type { MarketStateOptions } from '../../market/market-state.js';
import type { VenueClient } from '../../venue/client.js';
import type { Balance } from '../../venue/schemas.js';

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
}

/** Builds the market feed of `config`. */
export function createMarketFeed(opts: {
  readonly config: MmConfig;
  readonly venue: VenueClient;
  readonly clock: Clock;
  readonly random?: () => number;
  readonly onBalances: (at: number) => void;
  readonly onError: (poller: string, error: unknown) => void;
}): MarketFeed {
  const { config } = opts;
  const state = new ObservedMarketState(
    { pairs: config.pairs, tradesKeep: config.market.trades.keep, mids: config.market.mids },
    opts.onBalances,
  );
  const pollers = createMarketPollers({
    config: config.market,
    pairs: config.pairs,
    venue: opts.venue,
    clock: opts.clock,
    state,
    ...(opts.random === undefined ? {} : { random: opts.random }),
    onError: opts.onError,
  });
  return { state, pollers };
}

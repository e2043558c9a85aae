/**
 * The `market` config section: the periods of the market-data pollers (book, public trades,
 * balances, account, pairs), their jitter, and the bounded trade window and mid history kept per
 * pair. It owns the floors the venue imposes (a book poll at most once a second, balances at most
 * once a minute). The first stage of the data flow: `daemon/startup/market-feed.ts` starts the
 * pollers that fill the market snapshot with these settings.
 */
import type { SchemaOf } from '../define.js';
import { intFormat } from '../formats.js';

/** One poller's period. `intervalMs` is the MINIMUM spacing between two runs' starts. */
export interface PollIntervalConfig {
  readonly intervalMs: number;
}

/** The order-book pollers (one per pair). */
export interface BookPollConfig extends PollIntervalConfig {
  readonly depth: number;
}

/** The public-trades pollers (one per pair). */
export interface TradesPollConfig extends PollIntervalConfig {
  readonly limit: number;
  readonly keep: number;
}

/** Whether the mid history is taken from the book with or without the daemon's own orders. */
export type MidsOwnOrders = 'include' | 'exclude';

/** The mid-price history kept per pair (for volatility estimation and the jump test). */
export interface MidsConfig {
  readonly keepMs: number;
  readonly maxSamples: number;
  readonly ownOrders: MidsOwnOrders;
}

/** The market-data pollers that build the `MarketSnapshot`. */
export interface MarketConfig {
  readonly book: BookPollConfig;
  readonly trades: TradesPollConfig;
  readonly balances: PollIntervalConfig;
  readonly account: PollIntervalConfig;
  readonly pairs: PollIntervalConfig;
  readonly jitterMs: number;
  readonly mids: MidsConfig;
}

/** The venue serves a fresh book at most once a second (venue-api.md section 8). */
export const MIN_BOOK_POLL_MS = 1_000;
/** GET /balances is for startup and a slow timer only; this daemon's floor is one minute. */
export const MIN_BALANCES_POLL_MS = 60_000;

const DAY_MS = 86_400_000;

export const marketSchema: SchemaOf<MarketConfig> = {
  book: {
    intervalMs: {
      doc: 'Minimum time between two GET /orderbook/{pair} polls of one pair, in ms (1000 to 60000). The venue serves fresh data at most every 1 to 2 s; faster is refused.',
      format: intFormat(MIN_BOOK_POLL_MS, 60_000, {
        name: 'mm-book-poll-ms',
        why: 'the venue allows a book poll every 1 to 2 s at most; never faster than 1000 ms',
      }),
      default: 1_500,
    },
    depth: {
      doc: 'Levels per side requested from GET /orderbook/{pair} (the venue default is 20).',
      format: intFormat(1, 500),
      default: 20,
    },
  },
  trades: {
    intervalMs: {
      doc: 'Minimum time between two GET /trades?pair= polls of one pair, in ms (1000 to 600000).',
      format: intFormat(1_000, 600_000),
      default: 5_000,
    },
    limit: {
      doc: 'Trades requested per GET /trades poll (newest first; the venue default is 50).',
      format: intFormat(1, 500),
      default: 50,
    },
    keep: {
      doc: 'Recent public trades kept per pair (a bounded window, newest first, de-duplicated by tradeId).',
      format: intFormat(1, 10_000),
      default: 200,
    },
  },
  balances: {
    intervalMs: {
      doc: 'Minimum time between two GET /balances reads, in ms (at least 60000). Read once at startup, then on this slow timer.',
      format: intFormat(MIN_BALANCES_POLL_MS, DAY_MS, {
        name: 'mm-balances-poll-ms',
        why: 'GET /balances is for startup and a slow timer only; never faster than 60000 ms',
      }),
      default: 60_000,
    },
  },
  account: {
    intervalMs: {
      doc: 'Minimum time between two GET /account reads, in ms (60000 to 86400000). A 401 marks the API key as failing until a read succeeds.',
      format: intFormat(60_000, DAY_MS),
      default: 300_000,
    },
  },
  pairs: {
    intervalMs: {
      doc: 'Minimum time between two GET /pairs reads, in ms (60000 to 86400000).',
      format: intFormat(60_000, DAY_MS),
      default: 300_000,
    },
  },
  jitterMs: {
    doc: 'Random extra delay added to each poll period, in ms, drawn uniformly from 0 to this value, so pollers do not fire in lockstep. Never shortens a period below its intervalMs.',
    format: intFormat(0, 60_000),
    default: 250,
  },
  mids: {
    keepMs: {
      doc: 'How far back the mid-price history of each pair reaches, in ms (for volatility estimation).',
      format: intFormat(1_000, DAY_MS),
      default: 900_000,
    },
    maxSamples: {
      doc: 'Most mid-price samples kept per pair (one per book poll that changed the book or its time).',
      format: intFormat(2, 100_000),
      default: 1_200,
    },
    ownOrders: {
      doc: "Which book the mid history is taken from: `exclude` the daemon's own orders (the market's mid, as the `mid` reference is), or `include` them (the polled book's mid; while the daemon's quotes are the best bid and ask that is their centre, which moves only when they are repriced or taken, so σ and the jump test then see the daemon's own quotes more than the market).",
      format: ['include', 'exclude'],
      default: 'include',
    },
  },
};

/**
 * The market as the pollers last saw it, between the pollers and the pure strategy:
 * {@link MarketState} takes each parsed venue response (pairs, books, trades, balances, account,
 * and the external and "exchanges" reference prices), turns wire strings into `Dec` once, and
 * hands the quote cycle an immutable {@link MarketSnapshot}. It owns the per-pair views, the mid
 * history and trade window, the key-failing and suspended flags, and each source's last success.
 */
import type { Dec } from '../core/decimal.js';
import type { Account, Balance, OrderBook, Pair, PublicTrade } from '../venue/schemas.js';
import type {
  AccountView,
  BalanceView,
  BookView,
  MarketSnapshot,
  MidSample,
  OwnOrderView,
  PairMarket,
  TradeView,
} from './market-snapshot.js';
import { appendMid, midPrice, type MidHistoryLimits } from './mid-history.js';
import { bookWithoutOwn } from './ownless-book.js';
import type { MidsOwnOrders } from '../config/sections/market.js';
import type { SourceReading } from './reference/combine-sources.js';
import { mergeTrades, tradeIds } from './trade-window.js';
import {
  toAccountView,
  toBalancesView,
  toBookViewFrom,
  toPairInfo,
  toTradeView,
  type PairInfo,
} from './wire-convert.js';

/** Options of {@link MarketState}. */
export interface MarketStateOptions {
  /** The configured pairs: the only ones kept and reported. */
  readonly pairs: readonly string[];
  /** Recent trades kept per pair. Default 200. */
  readonly tradesKeep?: number;
  /**
   * Bounds of the mid-price history (default 15 min, 1 200 samples), and which book its mids are
   * taken from (`market.mids.ownOrders`; default `include`: the polled book's).
   */
  readonly mids?: MidHistoryLimits & { readonly ownOrders?: MidsOwnOrders };
}

/** The daemon's own orders (every pair's), read when a book poll is applied. */
export type OwnOrdersSource = () => readonly OwnOrderView[];

/** The name a data source's last success is kept under: `pairs`, `account`, `balances`, `book:<pair>`, `trades:<pair>`. */
export type MarketSource = 'pairs' | 'account' | 'balances' | `book:${string}` | `trades:${string}`;

/** What applying a book poll did. */
export type BookApply = 'applied' | 'out-of-order' | 'unknown-pair';

/** Counters for metrics (observed, never decided on). */
export interface MarketStateCounters {
  /** Books dropped because their `asOf.sequence` was older than the one held. */
  readonly booksOutOfOrder: number;
  /** New public trades taken into a window. */
  readonly tradesAdded: number;
  /** Trades dropped because `executedAt` could not be parsed. */
  readonly tradesUnparseable: number;
}

interface PairSlot {
  info: PairInfo | null;
  book: BookView | null;
  /** The wire book `book` was made from, and its mid (a poll of the same levels reuses both). */
  bookWire: OrderBook | null;
  bookMid: Dec | null;
  trades: readonly TradeView[];
  mids: readonly MidSample[];
  /** When the first mid of the run was recorded; null before. */
  midsSince: number | null;
  external: { price: Dec; at: number } | null;
  /** The "exchanges" reference sources; undefined unless the pair has them. */
  sources?: readonly SourceReading[];
  /** The frozen view, rebuilt only after a write. */
  view: PairMarket | null;
}

const NONE: readonly never[] = Object.freeze([]);
const DEFAULT_MIDS: MidHistoryLimits = { keepMs: 900_000, maxSamples: 1_200 };

/**
 * The market as the pollers last saw it. Pollers write parsed venue responses into it; the
 * daemon's loop reads an immutable {@link MarketSnapshot} from it with {@link MarketState.snapshot}.
 * Wire strings become `Dec` here, at the boundary, once per poll: a snapshot is assembled from
 * frozen per-pair views that are shared between snapshots until the next write to that pair.
 *
 * A configured pair appears in a snapshot only once GET /pairs has listed it (its
 * `minQuoteAmount` must be known before anything is sized); its book and trades are kept from
 * the first poll either way.
 */
export class MarketState {
  private readonly slots = new Map<string, PairSlot>();
  private readonly tradesKeep: number;
  private readonly midLimits: MidHistoryLimits;
  private readonly midsWithoutOwn: boolean;
  private ownOrders: OwnOrdersSource | null = null;
  private readonly successes = new Map<MarketSource, number>();
  private balances: Readonly<Record<string, BalanceView>> | null = null;
  private balancesAt: number | null = null;
  private balancesPending = false;
  private account: AccountView | null = null;
  private authFailingFlag = false;
  private listedPairs: ReadonlySet<string> | null = null;
  private counters = { booksOutOfOrder: 0, tradesAdded: 0, tradesUnparseable: 0 };

  constructor(options: MarketStateOptions) {
    for (const pair of options.pairs) {
      this.slots.set(pair, {
        info: null,
        book: null,
        bookWire: null,
        bookMid: null,
        trades: NONE,
        mids: NONE,
        midsSince: null,
        external: null,
        view: null,
      });
    }
    this.tradesKeep = options.tradesKeep ?? 200;
    this.midLimits = options.mids ?? DEFAULT_MIDS;
    this.midsWithoutOwn = options.mids?.ownOrders === 'exclude';
  }

  /** The configured pairs. */
  get pairs(): readonly string[] {
    return [...this.slots.keys()];
  }

  /** True while the API key is failing (the last authenticated read answered 401). */
  get authFailing(): boolean {
    return this.authFailingFlag;
  }

  /** Configured pairs GET /pairs did not list (empty until GET /pairs has answered). */
  get unlistedPairs(): readonly string[] {
    const listed = this.listedPairs;
    return listed === null ? [] : this.pairs.filter((p) => !listed.has(p));
  }

  /** Counters since construction. */
  get stats(): MarketStateCounters {
    return { ...this.counters };
  }

  /**
   * Where the daemon's own orders are read from, for a mid history taken without them
   * (`market.mids.ownOrders: exclude`); set once the order engine exists. Until then, or
   * without it, the mids are the polled book's.
   */
  useOwnOrders(source: OwnOrdersSource): void {
    this.ownOrders = source;
  }

  /** GET /pairs answered: records the configured pairs' metadata. */
  applyPairs(pairs: readonly Pair[], at: number): void {
    const infos = pairs.map(toPairInfo);
    this.listedPairs = new Set(infos.map((p) => p.pair));
    for (const info of infos) {
      const slot = this.slots.get(info.pair);
      if (slot === undefined) continue;
      slot.info = info;
      slot.view = null;
    }
    this.successes.set('pairs', at);
  }

  /**
   * GET /orderbook/{pair} answered at `at`. A book whose `asOf.sequence` is older than the one
   * held is dropped (the held book keeps its older `receivedAt`, so staleness still shows); an
   * equal sequence refreshes the time: the venue confirmed nothing changed.
   */
  applyBook(pair: string, book: OrderBook, at: number): BookApply {
    const slot = this.slots.get(pair);
    if (slot === undefined) return 'unknown-pair';
    this.successes.set(`book:${pair}`, at);
    if (slot.book !== null && book.asOf.sequence < slot.book.sequence) {
      this.counters.booksOutOfOrder += 1;
      return 'out-of-order';
    }
    const held =
      slot.book === null || slot.bookWire === null ? null : { wire: slot.bookWire, view: slot.book };
    const view = toBookViewFrom(book, at, held);
    // The same levels have the same mid: the decimal is reused with them.
    const mid = held !== null && view.bids === held.view.bids ? slot.bookMid : midPrice(view);
    slot.book = view;
    slot.bookWire = book;
    slot.bookMid = mid;
    const sample =
      this.midsWithoutOwn && this.ownOrders !== null ? ownlessMid(view, this.ownOrders(), pair) : mid;
    if (sample !== null) {
      slot.mids = appendMid(slot.mids, { at, price: sample }, this.midLimits);
      slot.midsSince ??= at;
    }
    slot.view = null;
    return 'applied';
  }

  /** GET /trades?pair= answered (newest first). Returns how many trades were new. */
  applyTrades(pair: string, trades: readonly PublicTrade[], at: number): number {
    const slot = this.slots.get(pair);
    if (slot === undefined) return 0;
    this.successes.set(`trades:${pair}`, at);
    const views: TradeView[] = [];
    // A trade already in the window parsed before and is dropped by the merge: skip parsing it.
    const known = tradeIds(slot.trades);
    for (const t of trades) {
      if (known.has(t.tradeId)) continue;
      const v = toTradeView(t);
      if (v === null) this.counters.tradesUnparseable += 1;
      else views.push(v);
    }
    const merged = mergeTrades(slot.trades, views, this.tradesKeep);
    if (merged.trades !== slot.trades) {
      slot.trades = merged.trades;
      slot.view = null;
    }
    this.counters.tradesAdded += merged.added;
    return merged.added;
  }

  /** GET /balances answered. An authenticated success: the key works. */
  applyBalances(balances: readonly Balance[], at: number): void {
    this.balances = toBalancesView(balances);
    this.balancesAt = at;
    this.balancesPending = false;
    this.successes.set('balances', at);
    this.recordAuthOk();
  }

  /**
   * Marks the balances as being read at startup while the daemon prepares beside the read (or
   * clears the mark): until balances are applied, snapshots carry `balancesPending`. Applying
   * balances ends it.
   */
  setBalancesPending(pending: boolean): void {
    this.balancesPending = pending;
  }

  /** GET /account answered: replaces the account view and clears `authFailing`. */
  applyAccount(account: Account, at: number): void {
    this.account = toAccountView(account, at);
    this.authFailingFlag = false;
    this.successes.set('account', at);
  }

  /** An authenticated read answered 401: the key is failing until an authenticated read succeeds. */
  recordAuthFailure(): void {
    this.authFailingFlag = true;
    if (this.account !== null && !this.account.authFailing) {
      this.account = Object.freeze({ ...this.account, authFailing: true });
    }
  }

  /** An authenticated read succeeded: clears `authFailing`. */
  recordAuthOk(): void {
    this.authFailingFlag = false;
    if (this.account?.authFailing === true)
      this.account = Object.freeze({ ...this.account, authFailing: false });
  }

  /**
   * An authenticated read answered 403 MARKET_MAKER_SUSPENDED: the account is not ACTIVE, even
   * if the last GET /account said so. The next successful GET /account replaces the status.
   */
  recordSuspended(): void {
    if (this.account !== null && this.account.status !== 'SUSPENDED') {
      this.account = Object.freeze({ ...this.account, status: 'SUSPENDED' });
    }
  }

  /** Sets (or clears, with null) a pair's external reference price. */
  setExternal(pair: string, price: { price: Dec; at: number } | null): void {
    const slot = this.slots.get(pair);
    if (slot === undefined) return;
    slot.external = price === null ? null : Object.freeze({ price: price.price, at: price.at });
    slot.view = null;
  }

  /** Sets a pair's "exchanges" reference sources and their last prices (the strategy's median input). */
  setSources(pair: string, readings: readonly SourceReading[]): void {
    const slot = this.slots.get(pair);
    if (slot === undefined) return;
    slot.sources = Object.freeze([...readings]);
    slot.view = null;
  }

  /** When `source` last succeeded (clock ms), or null. */
  lastSuccessAt(source: MarketSource): number | null {
    return this.successes.get(source) ?? null;
  }

  /** The last success of every expected source (null: never), for metrics and readiness. */
  lastSuccesses(): Readonly<Partial<Record<MarketSource, number | null>>> {
    const out: Partial<Record<MarketSource, number | null>> = {};
    const sources: MarketSource[] = ['pairs', 'account', 'balances'];
    for (const pair of this.slots.keys()) sources.push(`book:${pair}`, `trades:${pair}`);
    for (const s of sources) out[s] = this.lastSuccessAt(s);
    return out;
  }

  /** An immutable snapshot of everything known, stamped `now`. */
  snapshot(now: number): MarketSnapshot {
    const pairs: Record<string, PairMarket> = {};
    for (const [name, slot] of this.slots) {
      const view = this.viewOf(slot);
      if (view !== null) pairs[name] = view;
    }
    return Object.freeze({
      now,
      pairs: Object.freeze(pairs),
      balances: this.balances,
      balancesAt: this.balancesAt,
      account: this.account,
      ...(this.balancesPending && this.balances === null ? { balancesPending: true } : {}),
    });
  }

  private viewOf(slot: PairSlot): PairMarket | null {
    if (slot.info === null) return null;
    slot.view ??= Object.freeze({
      pair: slot.info.pair,
      base: slot.info.base,
      quote: slot.info.quote,
      minQuoteAmount: slot.info.minQuoteAmount,
      book: slot.book,
      trades: slot.trades,
      external: slot.external,
      mids: slot.mids,
      ...(slot.midsSince === null ? {} : { midsSince: slot.midsSince }),
      ...(slot.sources === undefined ? {} : { sources: slot.sources }),
    });
    return slot.view;
  }
}

/** The mid of `book` without the own orders of `pair`; null when a side is then empty. */
function ownlessMid(book: BookView, own: readonly OwnOrderView[], pair: string): Dec | null {
  return own.some((o) => o.pair === pair) ? midPrice(bookWithoutOwn(book, own, pair)) : midPrice(book);
}

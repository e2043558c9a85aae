/** Market data: the pollers, the market state they write, and the snapshot it assembles. */
export type {
  AccountView,
  BalanceView,
  BalancesPending,
  BookView,
  ExternalPrice,
  Level,
  MarketSnapshot,
  MidSample,
  OwnOrderView,
  PairMarket,
  TradeView,
  WalletInput,
} from './market-snapshot.js';
export { BALANCES_PENDING } from './market-snapshot.js';
export { MarketState } from './market-state.js';
export type { BookApply, MarketSource, MarketStateCounters, MarketStateOptions } from './market-state.js';
export { DEFAULT_MARKET_POLL_TIMEOUTS, MarketPollers, createMarketPollers } from './market-pollers.js';
export type { MarketPollTimeouts, MarketPollersOptions, MarketVenue } from './market-pollers.js';
export { appendMid, midPrice } from './mid-history.js';
export type { MidHistoryLimits } from './mid-history.js';
export { mergeTrades } from './trade-window.js';
export type { TradeMerge } from './trade-window.js';
export { toAccountView, toBalancesView, toBookView, toPairInfo, toTradeView } from './wire-convert.js';
export type { PairInfo } from './wire-convert.js';

/**
 * What the daemon exposes, read-only, for the state-derived metrics, `/status` and `/readyz`.
 * The daemon implements it as a function returning a fresh view; the metrics module calls it
 * once per scrape (and per status/readiness request) and never keeps it. Money stays `Dec`
 * here: the conversion to numbers happens in this module, at the metrics boundary only.
 *
 * Everything is optional that the daemon might not know yet: a pair without a reference, no
 * balances before the first poll, no risk verdict before the first cycle.
 */
import type { Dec } from '../../core/decimal.js';
import type { OrderState } from '../../orders/fsm/index.js';
import type { PairRiskState } from '../../risk/risk-types.js';
import type { Side } from '../../core/order-terms.js';

/** See the module doc. */
export interface DaemonStateView {
  /** The daemon clock's now, ms since the epoch: ages are measured against it. */
  readonly now: number;
  /** One entry per configured pair. */
  readonly pairs: readonly PairStateView[];
  /** Wallet balances by token; null before the first balances poll. */
  readonly balances: Readonly<Record<string, BalanceAmounts>> | null;
  /** Every poller's last success (book and trades per pair, orders, balances, account, pairs). */
  readonly pollers: readonly PollerView[];
  /** Tracked orders per local state (`OrderRegistry.countsByState()`); missing states count 0. */
  readonly orderCounts: Readonly<Partial<Record<OrderState, number>>>;
  /** The client-side placement budget (the risk gate's token bucket), when known. */
  readonly rateBudget?: { readonly tokens: number; readonly capacity: number } | null;
  /** Current queue figures; when absent, the last queue events are used. */
  readonly queues?: {
    readonly placement?: QueueView;
    readonly cancel?: QueueView;
  };
  /** What the placement pipeline is doing now (for /status). */
  readonly pipeline?: PipelineStepView | null;
  /** The most recent fills, newest first (for /status; a handful is enough). */
  readonly lastFills?: readonly FillView[];
  /** Readiness inputs: the startup preflight passed (account, key, pairs, balances). */
  readonly preflightPassed?: boolean;
  /** Readiness inputs: the account as last read; null before the first read. */
  readonly account?: { readonly status: string; readonly authFailing: boolean } | null;
  /** Pauses, the kill switch and the daily loss halts; absent when the daemon has no controls. */
  readonly controls?: ControlsView;
}

/** Quoting held on purpose: by an operator, by the kill switch, by the daily loss limit. */
export interface ControlsView {
  /** The paused scopes as asked (`all pairs`, `BTC/USDC`, `BTC/USDC BUY`), oldest first. */
  readonly pauses: readonly PauseView[];
  /** Each configured pair and side held now, with the first reason that holds it. */
  readonly held: readonly HeldSideView[];
  readonly killSwitch: KillSwitchView;
}

/** Why a side is held: `operator`, `kill-switch` (pauses, until a resume), `daily-loss` (until the UTC day ends). */
export type HoldReason = 'operator' | 'kill-switch' | 'daily-loss';

/** One paused scope. */
export interface PauseView {
  /** `all pairs`, `BTC/USDC`, `BTC/USDC BUY`, `BUY on all pairs`. */
  readonly scope: string;
  readonly pair: string | null;
  readonly side: Side | null;
  readonly reason: HoldReason;
  readonly by: string;
  readonly since: number;
  readonly detail: string;
}

/** A pair and side held. */
export interface HeldSideView {
  readonly pair: string;
  readonly side: Side;
  readonly reason: HoldReason;
  readonly by: string;
  /** When it began (null: not known, a daily loss halt restored from the store). */
  readonly since: number | null;
  /** When it ends by itself (the daily loss halt), ms; null: at a resume. */
  readonly until: number | null;
  readonly detail: string;
}

/** The kill switch: its rules and, per key it watches, the day's figures. */
export interface KillSwitchView {
  /** False when neither rule is set. */
  readonly enabled: boolean;
  readonly scope: 'daemon' | 'pair';
  readonly drawdown: Dec | null;
  readonly profitLock: Dec | null;
  /** Per pair (`scope: pair`) or `quote:<instrument>` (`scope: daemon`). */
  readonly watches: readonly {
    readonly key: string;
    readonly pnl: Dec;
    readonly peak: Dec;
    readonly armedAt: Dec;
    readonly tripped: boolean;
  }[];
}

/** One configured pair. */
export interface PairStateView {
  readonly pair: string;
  /** Our live (resting) orders in quote slots. */
  readonly quotes: readonly LiveQuoteView[];
  /** The strategy's reference price, and when it was observed (ms). */
  readonly reference: { readonly price: Dec; readonly at: number } | null;
  /** Net position from fills: base gained (negative: sold), quote received (negative: paid). */
  readonly inventory: { readonly base: Dec; readonly quote?: Dec } | null;
  /**
   * PnL in the quote instrument: with the position marked to the mid (`quote + base × mid`),
   * and realised (on the matched quantity; absent when the daemon does not compute it).
   */
  readonly pnl: { readonly realised?: Dec; readonly marked: Dec } | null;
  /**
   * The position's cost basis by the average-cost method: average entry price (null when flat),
   * realised PnL against it, unrealised PnL at the mark (null while none is known). Absent when
   * the daemon does not compute it.
   */
  readonly cost?: {
    readonly averagePrice: Dec | null;
    readonly realised: Dec;
    readonly unrealised: Dec | null;
  } | null;
  /** The risk gate's standing; null before its first verdict. */
  readonly riskState: PairRiskState | null;
  /** Overrides the derived flag (at least one live quote on each side). */
  readonly twoSided?: boolean;
  /** Active orders of the party on this pair that this daemon did not place. */
  readonly foreignOrders?: number;
  /** Sides with no resting quote of ours: since when, and why (a word of a fixed set). */
  readonly sideMissing?: readonly SideMissingView[];
}

/** A side of a pair without a resting quote. */
export interface SideMissingView {
  readonly side: Side;
  /** Since when, ms. */
  readonly since: number;
  /** One word of the daemon's fixed set (`side-missing-reasons.ts`), kebab-case. */
  readonly reason: string;
  readonly detail: string;
}

/** One live quote. */
export interface LiveQuoteView {
  readonly side: Side;
  /** 0 is the innermost level. */
  readonly level: number;
  readonly price: Dec;
  /** Quantity still on the book, base units. */
  readonly remaining: Dec;
  /** When the reference price the quote was made from was observed (ms); null when unknown. */
  readonly referenceAt: number | null;
  /** The registry key (for /status). */
  readonly key?: string;
}

/** A token's balance. */
export interface BalanceAmounts {
  readonly available: Dec;
  readonly locked: Dec;
}

/**
 * One poller. `poller` is its kind (`book`, `trades`, `orders`, `balances`, `account`, `pairs`);
 * `pair` is set for per-pair pollers. {@link pollerViewsFromSources} builds these from
 * `MarketState.lastSuccesses()` names such as `book:BTC/USDC`.
 */
export interface PollerView {
  readonly poller: string;
  readonly pair: string | null;
  /** Clock ms of the last success, or null (never). */
  readonly lastSuccessAt: number | null;
  readonly consecutiveFailures?: number;
}

/** One execution queue now. */
export interface QueueView {
  readonly depth: number;
  readonly inFlight: number;
  /** Age of the oldest waiting task, ms (0 when none waits). */
  readonly oldestWaitMs: number;
}

/** The placement pipeline's current step. */
export interface PipelineStepView {
  /** e.g. `idle`, `prepare`, `sign`, `submit`, `confirm`, `backoff`. */
  readonly step: string;
  /** The order being placed, if any. */
  readonly key?: string | null;
  /** When the step began, ms. */
  readonly since?: number | null;
}

/** A fill, for /status. */
export interface FillView {
  readonly pair: string;
  readonly side: Side;
  /** Null for a MARKET order. */
  readonly price: Dec | null;
  readonly quantity: Dec;
  readonly at: number;
  readonly orderId?: string | null;
}

/**
 * Poller views from source names: `book:BTC/USDC` → `{poller: 'book', pair: 'BTC/USDC'}`,
 * `balances` → `{poller: 'balances', pair: null}`. Fits `MarketState.lastSuccesses()` directly.
 */
export function pollerViewsFromSources(
  lastSuccesses: Readonly<Partial<Record<string, number | null>>>,
): PollerView[] {
  return Object.entries(lastSuccesses).map(([name, at]) => {
    const i = name.indexOf(':');
    return {
      poller: i < 0 ? name : name.slice(0, i),
      pair: i < 0 ? null : name.slice(i + 1),
      lastSuccessAt: at ?? null,
    };
  });
}

/**
 * Where the daily loss guard's state outlives the process: the order journal's `meta` table,
 * under {@link RISK_MEMORY_KEY}, through the engine's `meta` view. The quote cycle
 * (`src/daemon/trading/quote-cycle.ts`) loads it once when it seeds the risk state and saves it whenever
 * it changes; the encoding is the risk module's pure codec.
 */
import { decodeDailyLoss, encodeDailyLoss } from './daily-loss-codec.js';
import type { DailyLossState } from './daily-loss-guard.js';

/** The meta key of the daily loss state. */
export const RISK_MEMORY_KEY = 'risk.daily_loss';

/**
 * The quote cycle's port to durable risk state. Both methods may throw; the cycle reports it
 * and goes on (see `QuoteCycleDeps.riskMemory`).
 */
export interface RiskMemory {
  /** The stored state (of whatever day it was saved on), or null when none is stored. */
  load(): DailyLossState | null;
  /** Stores `state` durably (replacing the previous one). */
  save(state: DailyLossState): void;
}

/** A stored value that is not a daily loss state (see `decodeDailyLoss`). */
export class RiskMemoryCorrupt extends Error {
  override readonly name = 'RiskMemoryCorrupt';
}

/**
 * Durable text values by key: the order journal's `meta` table, as the execution layer's
 * `OrderEngine.meta` gives it (`set` is durable on return and may throw).
 */
export interface MetaStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** The memory in the journal's meta; `meta` is read at each call (the engine's journal opens at start). */
export function journalRiskMemory(meta: () => MetaStore): RiskMemory {
  return {
    load: () => {
      const text = meta().get(RISK_MEMORY_KEY);
      if (text === undefined) return null;
      const state = decodeDailyLoss(text);
      if (state === null) {
        const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
        throw new RiskMemoryCorrupt(`meta ${RISK_MEMORY_KEY} is not a daily loss state: ${shown}`);
      }
      return state;
    },
    save: (state) => meta().set(RISK_MEMORY_KEY, encodeDailyLoss(state)),
  };
}

/** What happened to the risk memory, for the log and the alarms. */
export type RiskMemoryEvent =
  /** A state of the current day was loaded: its baselines and halts are in force. */
  | { readonly type: 'restored'; readonly state: DailyLossState; readonly at: number }
  /** The load failed (or found something unreadable): the day starts afresh. */
  | { readonly type: 'load-failed'; readonly error: unknown; readonly at: number }
  /** The first failing save of a streak (each later pass retries until one succeeds). */
  | { readonly type: 'save-failed'; readonly error: unknown; readonly at: number }
  /** A save succeeded after a streak of failures. */
  | { readonly type: 'saved-again'; readonly at: number };

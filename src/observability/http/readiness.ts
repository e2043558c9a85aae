/**
 * Readiness (`/readyz`): ready to trade when the startup preflight passed, the API key works, the
 * account is ACTIVE, and market data is fresh. {@link assessReadiness} derives it from the
 * {@link DaemonStateView}; the HTTP server takes any `() => Readiness` so the daemon may add
 * reasons of its own (e.g. "recovering", "shutting down").
 */
import type { DaemonStateView } from './state-view.js';

/** The answer of a readiness provider. */
export interface Readiness {
  readonly ready: boolean;
  /** Why not ready; empty when ready. For people: never parsed. */
  readonly reasons: readonly string[];
  /**
   * What is paused or halted on purpose (an operator's pause, the kill switch, the daily loss
   * halt), one line each; it does not make the daemon not ready. Absent: nothing to say.
   */
  readonly paused?: readonly string[];
}

/** Options of {@link assessReadiness}. */
export interface ReadinessOptions {
  /**
   * Market data older than this is stale, ms. Use the risk gate's `staleBookMs`, so /readyz
   * fails exactly when the gate stops quoting on stale books.
   */
  readonly marketDataMaxAgeMs: number;
  /** The poller kinds that count as market data. Default `['book']`. */
  readonly marketDataPollers?: readonly string[];
}

/** Readiness from the daemon's state. Every failing condition is listed, not just the first. */
export function assessReadiness(view: DaemonStateView, opts: ReadinessOptions): Readiness {
  const reasons: string[] = [];
  if (view.preflightPassed !== true) reasons.push('the startup preflight has not passed');
  const account = view.account ?? null;
  if (account === null) reasons.push('the account has not been read yet');
  else {
    if (account.authFailing) reasons.push('the API key is failing (401 on the last authenticated read)');
    if (account.status !== 'ACTIVE') reasons.push(`the account is ${account.status}, not ACTIVE`);
  }
  const kinds = new Set(opts.marketDataPollers ?? ['book']);
  const market = view.pollers.filter((p) => kinds.has(p.poller));
  if (market.length === 0) reasons.push('no market data poller is running');
  for (const p of market) {
    const name = p.pair === null ? p.poller : `${p.poller} ${p.pair}`;
    if (p.lastSuccessAt === null) {
      reasons.push(`market data is stale: ${name} has never been polled successfully`);
      continue;
    }
    const age = view.now - p.lastSuccessAt;
    if (age > opts.marketDataMaxAgeMs) {
      reasons.push(
        `market data is stale: ${name} last polled ${(age / 1000).toFixed(1)} s ago ` +
          `(limit ${(opts.marketDataMaxAgeMs / 1000).toFixed(1)} s)`,
      );
    }
  }
  return { ready: reasons.length === 0, reasons };
}

/**
 * The pause set: which scopes (the whole daemon, a pair, a side of a pair, a side of every pair)
 * an operator or the kill switch has paused, and what it does to the quoting. Pure.
 *
 * A paused scope is an input of the quoting like any other: {@link applyPauses} takes the
 * strategy's quotes in that scope out and reports each as a skip (`paused …`), so the reconciler
 * cancels the resting orders there through the cancel pool and places nothing, and the pipeline's
 * freshness check drops an intent queued there before its prepare and before signing. Resuming is
 * taking the scope out of the set: the next cycle quotes it again.
 */
import type { Side } from '../core/order-terms.js';
import type { QuoteSkip, StrategyResult } from '../strategy/quote-types.js';

/** Who paused: an operator (`ledger-mm pause`), or the kill switch (`risk.killSwitch`). */
export type PauseReason = 'operator' | 'kill-switch';

/** The reasons, for metrics labels and checks. */
export const PAUSE_REASONS: readonly PauseReason[] = ['operator', 'kill-switch'];

/** A scope: a pair or every pair (null), a side or both (null). */
export interface PauseScope {
  readonly pair: string | null;
  readonly side: Side | null;
}

/** One paused scope, with who asked, when and why. */
export interface PauseEntry extends PauseScope {
  readonly reason: PauseReason;
  /** Who asked: `token:<id> from <address>`, `loopback <address>`, or `kill-switch`. */
  readonly by: string;
  readonly at: number;
  /** For people (the kill switch's rule and figures); may be empty. */
  readonly detail: string;
}

/** The set in force, oldest first. At most one entry per scope. */
export type PauseSet = readonly PauseEntry[];

/** The first words of a skip reason {@link applyPauses} adds. */
export const PAUSED_SKIP = 'paused';

/** `all pairs`, `BTC/USDC`, `BTC/USDC BUY`, `BUY on all pairs`. */
export function describeScope(scope: PauseScope): string {
  if (scope.pair === null) return scope.side === null ? 'all pairs' : `${scope.side} on all pairs`;
  return scope.side === null ? scope.pair : `${scope.pair} ${scope.side}`;
}

/** True when `scope` covers (pair, side); a null side asks about the whole pair. */
export function covers(scope: PauseScope, pair: string, side: Side | null): boolean {
  return (
    (scope.pair === null || scope.pair === pair) &&
    (scope.side === null || (side !== null && scope.side === side))
  );
}

/** True when `outer` covers every (pair, side) that `inner` does. */
export function within(inner: PauseScope, outer: PauseScope): boolean {
  return (
    (outer.pair === null || outer.pair === inner.pair) && (outer.side === null || outer.side === inner.side)
  );
}

/** The entry that pauses (pair, side), the widest first; null when it is not paused. */
export function pauseOf(set: PauseSet, pair: string, side: Side): PauseEntry | null {
  let found: PauseEntry | null = null;
  for (const e of set) {
    if (!covers(e, pair, side)) continue;
    if (found === null || width(e) > width(found)) found = e;
  }
  return found;
}

function width(scope: PauseScope): number {
  return (scope.pair === null ? 2 : 0) + (scope.side === null ? 1 : 0);
}

function sameScope(a: PauseScope, b: PauseScope): boolean {
  return a.pair === b.pair && a.side === b.side;
}

/** The set with `entry` added; an entry of the same scope is replaced (the newest wins). */
export function withPause(set: PauseSet, entry: PauseEntry): PauseSet {
  return [...set.filter((e) => !sameScope(e, entry)), entry];
}

/**
 * The set without every entry within `scope` (a resume of `BTC/USDC` lifts `BTC/USDC` and
 * `BTC/USDC BUY`, not `all pairs`), and the entries lifted.
 */
export function withoutPauses(
  set: PauseSet,
  scope: PauseScope,
): { readonly set: PauseSet; readonly lifted: readonly PauseEntry[] } {
  const lifted = set.filter((e) => within(e, scope));
  return { set: set.filter((e) => !within(e, scope)), lifted };
}

/** The entries still pausing some part of `scope` once it has been resumed (wider pauses). */
export function stillPausing(set: PauseSet, scope: PauseScope): PauseEntry[] {
  return set.filter(
    (e) =>
      (e.pair === null || scope.pair === null || e.pair === scope.pair) &&
      (e.side === null || scope.side === null || e.side === scope.side),
  );
}

/**
 * The strategy's result with the paused scopes taken out: their quotes are dropped and each
 * paused (pair, side) that had quotes or was asked about is reported in `skipped` (not
 * `keepOrders`: the reconciler cancels what rests there). The set empty: `result` itself.
 */
export function applyPauses(result: StrategyResult, set: PauseSet, pairs: readonly string[]): StrategyResult {
  if (set.length === 0) return result;
  const skipped: QuoteSkip[] = [];
  for (const pair of pairs) {
    for (const side of ['BUY', 'SELL'] as const) {
      const p = pauseOf(set, pair, side);
      if (p !== null) skipped.push({ pair, side, reason: pauseSkipReason(p) });
    }
  }
  if (skipped.length === 0) return result;
  const quotes = result.quotes.filter((q) => pauseOf(set, q.pair, q.side) === null);
  return { ...result, quotes, skipped: [...skipped, ...result.skipped] };
}

/** `paused (operator: token:ab12cd34 from 127.0.0.1)`. */
export function pauseSkipReason(p: PauseEntry): string {
  return `${PAUSED_SKIP} (${p.reason}: ${p.reason === 'kill-switch' ? p.detail : p.by})`;
}

/**
 * The hedged pairs in `/status` (`docs/hedging.md`): per pair the hedge venue, its position, what
 * is left unhedged, whether it fails (since when, and why) or is at its cap, and the hedge cost.
 * Decimals as strings; absent from `/status` when no pair is hedged.
 */
import type { PairHedgeReport } from '../../hedge/hedging.js';

/** One hedged pair as `/status` shows it. */
export interface HedgeStatus {
  readonly pair: string;
  readonly exchange: string;
  readonly symbol: string;
  readonly dryRun: boolean;
  readonly positionBase: string | null;
  readonly unhedgedBase: string | null;
  readonly failing: boolean;
  readonly failingSince: string | null;
  readonly lastError: string | null;
  readonly atCap: boolean;
  readonly lastHold: string | null;
  readonly costQuote: string;
  readonly fills: number;
}

/** `{ hedge: [...] }`, or `{}` without a hedged pair. */
export function hedgeStatus(reports: readonly PairHedgeReport[]): {
  readonly hedge?: readonly HedgeStatus[];
} {
  if (reports.length === 0) return {};
  return {
    hedge: reports.map((r) => {
      const s = r.state;
      const err = s?.lastError;
      return {
        pair: r.pair,
        exchange: r.exchange,
        symbol: r.symbol,
        dryRun: r.dryRun,
        positionBase: s === null ? null : s.positionBase.toFixed(),
        unhedgedBase: r.unhedgedBase === null ? null : r.unhedgedBase.toFixed(),
        failing: s === null || s.failing,
        failingSince: s?.failingSince == null ? null : new Date(s.failingSince).toISOString(),
        lastError: describe(err),
        atCap: r.atCap,
        lastHold: r.lastHold,
        costQuote: r.costQuote.toDecimalPlaces(8).toFixed(),
        fills: r.fills,
      };
    }),
  };
}

function describe(err: unknown): string | null {
  if (err === null || err === undefined) return null;
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : JSON.stringify(err);
}

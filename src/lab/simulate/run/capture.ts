/**
 * What a simulated run leaves behind for the figures: the simulated venue's ground truth about
 * the daemon's parties (their orders with their full histories, their trades, placement spans,
 * calls and commits), the reference price of every pair, and the little the daemon itself is
 * asked for (which quote slot each clientOrderId was placed for, the cycles it ran, its warnings).
 * Plain data, taken once at the end of the run.
 */
import { Dec } from '../../../core/decimal.js';
import type { HedgeSimTrade } from '../../hedge/hedge-venue-sim.js';
import type { CallRecord, CommitRecord, OrderTruth, TradeTruth } from '../../../sim/truth/ground-truth.js';
import type { PlacementSpan } from '../../../sim/truth/ground-truth-view.js';
import type { LatencyKey, LatencyRange } from '../../../sim/latency.js';
import type { SimVenue } from '../../../sim/sim-venue.js';
import type { GuardEpisode } from '../figures/guard-episodes.js';

/** Log lines of the daemon at warn level or above: counts, and the first distinct messages. */
export interface LogTally {
  warn: number;
  error: number;
  messages: string[];
}

/** A reference price point: clock ms and price (a decimal string). */
export interface ReferencePoint {
  readonly at: number;
  readonly price: string;
}

/** The ground truth of one run; see the module doc. */
export interface SimCapture {
  /** Clock ms of the run's start (the daemon's start) and end. */
  readonly start: number;
  readonly end: number;
  /** The daemon's parties (one, or the firm's several; the first is the primary). */
  readonly partyIds: readonly string[];
  readonly pairs: readonly string[];
  /** The party's orders, oldest first. */
  readonly orders: readonly OrderTruth[];
  /** Trades the party was in (as maker or taker), by time. */
  readonly trades: readonly TradeTruth[];
  /** The party's placements, prepare to commit. */
  readonly spans: readonly PlacementSpan[];
  /** The party's prepare, cancel-prepare and submit calls. */
  readonly calls: readonly CallRecord[];
  /** The party's commits (placements and cancels). */
  readonly commits: readonly CommitRecord[];
  readonly references: Readonly<Record<string, readonly ReferencePoint[]>>;
  /** clientOrderId → registry slot (a quote slot `pair:side:level` and a sub-slot), from the daemon. */
  readonly slots: ReadonlyMap<string, string>;
  /** The party's balances when the run started. */
  readonly initialBalances: Readonly<Record<string, string>>;
  readonly cycles: number;
  /** Every halt and guard trip of the run, from the risk gate's verdicts. */
  readonly guards: readonly GuardEpisode[];
  /**
   * The daemon's abandoned prepares by why (its `prepare-abandoned` events: the freshness
   * check's cause for `not-wanted`, else the reason).
   */
  readonly abandonedBy: Readonly<Record<string, number>>;
  /**
   * The daemon's finished placements by outcome (its `placement` events: `placed`, `not-wanted`,
   * …; `no-party:<reason>` when no party of the firm could take it, `firm/party-allocator.ts`).
   */
  readonly placementOutcomes: Readonly<Record<string, number>>;
  readonly log: LogTally;
  /** The venue's latency ranges in force (the profile with its overrides). */
  readonly latencyRanges: Readonly<Record<LatencyKey, LatencyRange>>;
  /** The simulated hedge venue's fills by hedged pair; absent or empty when nothing is hedged. */
  readonly hedgeTrades?: Readonly<Record<string, readonly HedgeSimTrade[]>>;
}

/** What {@link captureTruth} reads. */
export interface CaptureInput {
  readonly venue: SimVenue;
  readonly partyIds: readonly string[];
  readonly pairs: readonly string[];
  readonly start: number;
  readonly end: number;
  readonly slots: ReadonlyMap<string, string>;
  readonly cycles: number;
  readonly guards: readonly GuardEpisode[];
  readonly abandonedBy: Readonly<Record<string, number>>;
  readonly placementOutcomes: Readonly<Record<string, number>>;
  readonly log: LogTally;
  readonly latencyRanges: Readonly<Record<LatencyKey, LatencyRange>>;
}

/** The calls of the party the figures read. */
export const PARTY_CALLS: ReadonlySet<CallRecord['endpoint']> = new Set([
  'prepare',
  'cancelPrepare',
  'submit',
]);

/** Reads the venue's ground truth about the party at the end of a run. */
export function captureTruth(i: CaptureInput): SimCapture {
  const { truth } = i.venue;
  const ids = new Set(i.partyIds);
  const mine = (p: string | null): boolean => p !== null && ids.has(p);
  const references: Record<string, ReferencePoint[]> = {};
  for (const pair of i.pairs) references[pair] = truth.referencePrices(pair);
  const initialBalances: Record<string, string> = {};
  for (const id of i.partyIds) {
    const first = truth.balances(id)[0];
    for (const [token, b] of Object.entries(first?.balances ?? {}))
      initialBalances[token] =
        initialBalances[token] === undefined
          ? b.available
          : new Dec(initialBalances[token]).plus(b.available).toFixed();
  }
  return {
    start: i.start,
    end: i.end,
    partyIds: [...i.partyIds],
    pairs: [...i.pairs],
    orders: truth.orders().filter((o) => mine(o.partyId)),
    trades: truth
      .trades()
      .filter((t) => mine(t.maker.partyId) || mine(t.taker.partyId))
      .sort((a, b) => a.at - b.at),
    spans: i.partyIds.flatMap((id) => truth.placementSpans(id)),
    calls: truth.calls().filter((c) => mine(c.partyId) && PARTY_CALLS.has(c.endpoint)),
    commits: truth.commits().filter((c) => mine(c.partyId)),
    references,
    slots: i.slots,
    initialBalances,
    cycles: i.cycles,
    guards: i.guards,
    abandonedBy: { ...i.abandonedBy },
    placementOutcomes: { ...i.placementOutcomes },
    log: i.log,
    latencyRanges: i.latencyRanges,
  };
}

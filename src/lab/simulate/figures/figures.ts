/**
 * Every figure of one run, computed from its capture (the venue's ground truth). Money leaves as
 * decimal strings (4 places, quote units), shares as numbers in 0–1, times in ms; this is the
 * boundary where `Dec` turns into report values.
 */
import { Dec, ZERO } from '../../../core/decimal.js';
import type { SimCapture } from '../run/capture.js';
import { summariseGuards, type GuardEpisode, type GuardSummary } from './guard-episodes.js';
import { invariantBreaks, type InvariantBreaks } from './invariants.js';
import { combineMarkouts, markouts, type Markout } from './markouts.js';
import { netFigures, type NetFigures } from './hedge-figures.js';
import { moneyPath, ownFills, pairMoney, type MoneyPath, type OwnFill } from './money-figures.js';
import { occupancy, pipelineFigures, placementPhases, type OccupancyBucket } from './pipeline-figures.js';
import {
  fullFillBound,
  quantile,
  quoteSteps,
  requoteLatencies,
  twoSided,
  type QuoteStep,
} from './quote-figures.js';
import { ReferenceSeries } from './reference-series.js';
import type { StrategyName } from '../run/strategies.js';
import { venueLimit, versusLimit, type VenueLimit, type VersusLimit } from './venue-limit.js';

/** The figures of one pair. */
export interface PairFigures {
  readonly pair: string;
  readonly timeToTwoSidedMs: number | null;
  readonly twoSidedAfterFirst: number;
  readonly twoSidedOverall: number;
  /** Orders of the pair filled in full. */
  readonly fullFills: number;
  /** The venue's bound on `twoSidedAfterFirst` given those fills (see `fullFillBound`). */
  readonly twoSidedBound: number;
  readonly longestOneSidedMs: number;
  readonly avgQuotedSpreadBps: number | null;
  readonly fills: number;
  readonly volumeBase: string;
  readonly volumeQuote: string;
  readonly spreadCaptured: string;
  readonly spreadCapturedBps: number | null;
  readonly inventoryMean: string;
  readonly inventoryStd: string;
  readonly finalPosition: string;
  readonly pnl: string;
  /** Markout at 60 s, bps (see {@link MarkoutFigure}); null without fills. */
  readonly markout60Bps: number | null;
}

/** One horizon's markout: the reference's move after our fills, signed from our side. */
export interface MarkoutFigure {
  readonly horizonS: number;
  readonly fills: number;
  /** Volume-weighted, bps; negative is adverse selection. */
  readonly bps: number | null;
  /** Quote units. */
  readonly pnl: string;
}

/** The figures of one run. */
export interface RunFigures {
  readonly strategy: StrategyName;
  readonly hours: number;
  /** Mean over the pairs of the share of time two-sided after both sides first rested. */
  readonly twoSidedAfterFirst: number;
  /** Mean over the pairs of the share of the whole run two-sided. */
  readonly twoSidedOverall: number;
  /**
   * Mean over the pairs of the most {@link twoSidedAfterFirst} the venue allowed given the run's
   * full fills: each leaves its side empty for at least one placement time.
   */
  readonly twoSidedBound: number;
  /** Orders filled in full (each empties its side until a new order rests). */
  readonly fullFills: number;
  /** The first pair to be two-sided; null when none was. */
  readonly timeToFirstTwoSidedMs: number | null;
  /** The last pair to be two-sided; null when one never was. */
  readonly timeToAllTwoSidedMs: number | null;
  readonly requoteToleranceBps: number;
  readonly requoteMoves: number;
  readonly requoteCensored: number;
  readonly requoteP50Ms: number | null;
  readonly requoteP95Ms: number | null;
  /** Requote p50 after moves toward the order (it was left too aggressive), and away from it. */
  readonly requoteTowardP50Ms: number | null;
  readonly requoteAwayP50Ms: number | null;
  readonly pipelineUtilisation: number;
  readonly prepares: number;
  readonly placements: number;
  readonly cancels: number;
  readonly placementsPerHour: number;
  readonly cancelsPerHour: number;
  readonly abandonedPrepares: number;
  /** The daemon's abandoned prepares by why (see `SimCapture.abandonedBy`). */
  readonly abandonedBy: Readonly<Record<string, number>>;
  /** The daemon's finished placements by outcome (see `SimCapture.placementOutcomes`). */
  readonly placementOutcomes: Readonly<Record<string, number>>;
  readonly expiredPrepares: number;
  readonly failedPlacements: number;
  readonly fills: number;
  readonly volumeQuote: string;
  readonly avgQuotedSpreadBps: number | null;
  readonly spreadCaptured: string;
  readonly spreadCapturedBps: number | null;
  readonly inventoryValueMean: string;
  readonly inventoryValueStd: string;
  readonly pnl: string;
  /** PnL less the spread captured: the position's move with the reference after each fill. */
  readonly inventoryRevaluation: string;
  /** Markouts at 5, 30, 60 and 300 s. */
  readonly markouts: readonly MarkoutFigure[];
  /** The loss of the 60 s markout (minus its PnL; negative when the reference moved our way). */
  readonly adverseSelection60: string;
  /** {@link adverseSelection60} per volume, bps. */
  readonly adverseSelection60Bps: number | null;
  readonly maxDrawdown: string;
  /** The firm's figures with the hedge venue (equal to this venue's own without a hedge). */
  readonly net: NetFigures;
  /** Halts (pair or account) after the start: count, summed duration, by rule. */
  readonly halts: GuardSummary;
  /** Guard trips that only allowed reducing the position (max-inventory). */
  readonly guardTrips: GuardSummary;
  /** The episodes themselves, oldest first (at most {@link MAX_EPISODES}); times in ms since the start. */
  readonly guardEpisodes: readonly GuardEpisode[];
  readonly invariantBreaks: InvariantBreaks;
  readonly vsLimit: VersusLimit;
  readonly daemon: {
    readonly cycles: number;
    readonly warnings: number;
    readonly errors: number;
    readonly messages: readonly string[];
  };
  readonly pairs: readonly PairFigures[];
}

/** What the charts of the main run are drawn from, besides the figures. */
export interface RunDetail {
  readonly steps: ReadonlyMap<string, readonly QuoteStep[]>;
  readonly fills: readonly OwnFill[];
  readonly references: ReadonlyMap<string, ReferenceSeries>;
  readonly money: MoneyPath;
  readonly occupancy: readonly OccupancyBucket[];
  readonly limit: VenueLimit;
}

/** Episodes listed in the figures (the counts cover them all). */
export const MAX_EPISODES = 50;

const money = (d: Dec): string => d.toFixed(4);
const bps = (d: Dec | null): number | null => (d === null ? null : Number(d.toFixed(2)));
const round = (x: number, digits = 6): number => Number(x.toFixed(digits));

function meanOf(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** Computes every figure of a run; `toleranceBps` is the requote measure's band. */
export function runFigures(
  strategy: StrategyName,
  c: SimCapture,
  toleranceBps: number,
): { figures: RunFigures; detail: RunDetail } {
  const hours = (c.end - c.start) / 3_600_000;
  const references = new Map(c.pairs.map((p) => [p, new ReferenceSeries(c.references[p] ?? [])]));
  const fills = ownFills(c.trades, c.partyIds);
  const fillsByPair = new Map(c.pairs.map((p) => [p, fills.filter((f) => f.pair === p)]));
  const steps = new Map(c.pairs.map((p) => [p, quoteSteps(c.orders, p, c.start, c.end)]));
  const limit = venueLimit(c.latencyRanges, c.partyIds.length);
  const pairs = c.pairs.map((pair) => {
    const q = twoSided(steps.get(pair)!, c.start, c.end);
    const m = pairMoney(fillsByPair.get(pair)!, references.get(pair)!, c.start, c.end);
    const first = q.timeToTwoSidedMs === null ? null : c.start + q.timeToTwoSidedMs;
    const b = fullFillBound(c.orders, pair, limit.placementMs, first, c.end);
    const mk = markouts(fillsByPair.get(pair)!, references.get(pair)!, c.end);
    return { pair, q, m, b, mk };
  });
  const phases = placementPhases(c);
  const pipe = pipelineFigures(c, phases);
  const requotes = requoteLatencies(c.orders, c.slots, references, toleranceBps, c.end);
  const stepMs = Math.max(1_000, Math.ceil((c.end - c.start) / 2_000 / 1_000) * 1_000);
  const path = moneyPath(fillsByPair, references, c.start, c.end, stepMs);
  const firsts = pairs.map((p) => p.q.timeToTwoSidedMs);
  const first = firsts.every((x) => x === null) ? null : Math.min(...firsts.filter((x) => x !== null));
  const all = firsts.some((x) => x === null) ? null : Math.max(...(firsts as number[]));
  const twoSidedMs = pairs.map((p) => p.q.shareOverall * (c.end - c.start));
  const spreadWeight = twoSidedMs.reduce((s, x) => s + x, 0);
  const volume = pairs.reduce((s, p) => s.plus(p.m.volumeQuote), ZERO);
  const captured = pairs.reduce((s, p) => s.plus(p.m.spreadCaptured), ZERO);
  const placementsPerHour = hours > 0 ? pipe.placements / hours : 0;
  const allMarkouts = combineMarkouts(pairs.map((p) => p.mk));
  const at60 = (ms: readonly Markout[]): Markout | undefined => ms.find((m) => m.horizonS === 60);
  const m60 = at60(allMarkouts);
  const pnl = path.pnl[path.pnl.length - 1] ?? ZERO;
  const figures: RunFigures = {
    strategy,
    hours: round(hours, 4),
    twoSidedAfterFirst: round(meanOf(pairs.map((p) => p.q.shareAfterFirst))),
    twoSidedOverall: round(meanOf(pairs.map((p) => p.q.shareOverall))),
    twoSidedBound: round(meanOf(pairs.map((p) => p.b.bound))),
    fullFills: pairs.reduce((n, p) => n + p.b.fullFills, 0),
    timeToFirstTwoSidedMs: first,
    timeToAllTwoSidedMs: all,
    requoteToleranceBps: toleranceBps,
    requoteMoves: requotes.latenciesMs.length + requotes.censored,
    requoteCensored: requotes.censored,
    requoteP50Ms: quantile(requotes.latenciesMs, 0.5),
    requoteP95Ms: quantile(requotes.latenciesMs, 0.95),
    requoteTowardP50Ms: quantile(requotes.towardMs, 0.5),
    requoteAwayP50Ms: quantile(requotes.awayMs, 0.5),
    pipelineUtilisation: round(pipe.utilisation),
    prepares: pipe.prepares,
    placements: pipe.placements,
    cancels: pipe.cancels,
    placementsPerHour: round(placementsPerHour, 3),
    cancelsPerHour: round(hours > 0 ? pipe.cancels / hours : 0, 3),
    abandonedPrepares: pipe.abandonedPrepares,
    abandonedBy: { ...c.abandonedBy },
    placementOutcomes: { ...c.placementOutcomes },
    expiredPrepares: pipe.expiredPrepares,
    failedPlacements: pipe.failedPlacements,
    fills: fills.length,
    volumeQuote: money(volume),
    avgQuotedSpreadBps:
      spreadWeight > 0
        ? round(
            pairs.reduce((s, p, i) => s + (p.q.avgQuotedSpreadBps ?? 0) * twoSidedMs[i]!, 0) / spreadWeight,
            3,
          )
        : null,
    spreadCaptured: money(captured),
    spreadCapturedBps: volume.gt(0) ? bps(captured.div(volume).times(10_000)) : null,
    inventoryValueMean: money(path.inventoryValueMean),
    inventoryValueStd: money(path.inventoryValueStd),
    pnl: money(pnl),
    inventoryRevaluation: money(pnl.minus(captured)),
    markouts: allMarkouts.map((m) => ({
      horizonS: m.horizonS,
      fills: m.fills,
      bps: bps(m.bps),
      pnl: money(m.pnl),
    })),
    adverseSelection60: money(m60 === undefined ? ZERO : ZERO.minus(m60.pnl)),
    adverseSelection60Bps: m60?.bps == null ? null : bps(ZERO.minus(m60.bps)),
    maxDrawdown: money(path.maxDrawdown),
    net: netFigures(fillsByPair, c.hedgeTrades ?? {}, references, c.start, c.end, stepMs),
    halts: summariseGuards(c.guards, 'halt'),
    guardTrips: summariseGuards(c.guards, 'reducing'),
    guardEpisodes: c.guards
      .slice(0, MAX_EPISODES)
      .map((e) => ({ ...e, start: e.start - c.start, end: e.end - c.start })),
    invariantBreaks: invariantBreaks(c),
    vsLimit: versusLimit(limit, first, placementsPerHour),
    daemon: { cycles: c.cycles, warnings: c.log.warn, errors: c.log.error, messages: c.log.messages },
    pairs: pairs.map(({ pair, q, m, b, mk }) => ({
      pair,
      timeToTwoSidedMs: q.timeToTwoSidedMs,
      twoSidedAfterFirst: round(q.shareAfterFirst),
      twoSidedOverall: round(q.shareOverall),
      fullFills: b.fullFills,
      twoSidedBound: round(b.bound),
      longestOneSidedMs: q.longestGapMs,
      avgQuotedSpreadBps: q.avgQuotedSpreadBps === null ? null : round(q.avgQuotedSpreadBps, 3),
      fills: m.fills,
      volumeBase: m.volumeBase.toFixed(),
      volumeQuote: money(m.volumeQuote),
      spreadCaptured: money(m.spreadCaptured),
      spreadCapturedBps: bps(m.spreadCapturedBps),
      inventoryMean: m.inventoryMean.toDecimalPlaces(8).toFixed(),
      inventoryStd: m.inventoryStd.toDecimalPlaces(8).toFixed(),
      finalPosition: m.finalPosition.toFixed(),
      pnl: money(m.pnl),
      markout60Bps: bps(at60(mk)?.bps ?? null),
    })),
  };
  const bucketMs = Math.max(60_000, Math.ceil((c.end - c.start) / 144 / 60_000) * 60_000);
  return {
    figures,
    detail: {
      steps,
      fills,
      references,
      money: path,
      occupancy: occupancy(phases, c.start, c.end, bucketMs),
      limit,
    },
  };
}

/** A decimal string figure as a `Dec` (for ratios). */
export function decOf(s: string): Dec {
  return new Dec(s);
}

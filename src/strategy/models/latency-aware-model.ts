/**
 * The latency-aware model: on this venue a quote is decided about one pipeline cycle (~45 s)
 * before it rests, and a cancel takes ~35 s to land, so every distance is measured in units of
 * how far the price moves in those times, `σ·√T` (σ in bps per √s, from `volatility.ts`):
 *
 * - half-spread  `h = max(spread.{bid,ask}Bps, spreadZ·σ√T_place + marginBps)`, both sides shifted
 *   by the linear inventory skew, but never nearer the reference than the side's toxic edge plus
 *   its inside band (a quote nearer would be refused by its own tolerance the moment it is judged);
 * - toxic edge   `max(toxicZ·σ√T_cancel, toxicShare·h)`: a resting quote whose distance from the
 *   reference (its edge) falls below it is cancelled at once, without waiting for a replacement;
 * - tolerance    the order is kept while its edge stays within `[edge − insideZ·σ√T_place,
 *   edge + outsideZ·σ√T_place]` of the desired quote's edge: tight towards the market (a quote
 *   the price approaches gets picked off), loose away from it (a quote the price left only trades
 *   less), so the single pipeline is spent where it pays. With `reducingOutsideShare` below 1 the
 *   reducing side's outside band narrows with the inventory pressure (off by default).
 *
 * `T_place` and `T_cancel` are the pipeline's measured times (queue wait included), or the
 * `latency.placementMs` / `latency.cancelMs` priors until measured. Until σ can be estimated it is
 * `latency.priorSigmaBps` (0: the pair is quoted as the plain spread model does, with the
 * reconciler's fixed tolerance), so the first quotes already carry their tolerance and are not
 * all repriced the moment the estimate arrives.
 *
 * With `latency.jumpZ` above 0, a price jump seen in the book mids within `latency.jumpMemoryMs`
 * (a return above `jumpZ`·σ·√Δt and above `latency.jumpMinBps`) adds `latency.jumpWidenBps` to
 * both half-spread floors and multiplies every level's size by `latency.jumpSizeShare`
 * (`jump-memory.ts`); so does a pair whose first mid of the run is younger than
 * `latency.jumpWarmupMs`.
 */
import { holdingsSkewBps } from '../inventory-skew.js';
import type { PairStrategyParams } from '../params.js';
import type { QuoteTolerance } from '../quote-types.js';
import { jumpResponse, jumpSeen, warmingUp } from '../jump-memory.js';
import { estimateSigma } from '../volatility.js';
import type { PipelineTiming } from '../../core/pipeline-timing.js';
import type { ModelShape, QuotingModel } from './quoting-model.js';
import { spreadModel } from './spread-model.js';

/** See the module doc. */
export const latencyAwareModel: QuotingModel = {
  name: 'latency-aware',
  shape: (input) => {
    const { params, market, now, share, holdings } = input;
    const sigma = estimateSigma(market, now, params.volatility);
    const prior = params.latency.priorSigmaBps;
    if (sigma === null && prior === 0) return spreadModel.shape(input);
    const sigmaBps = sigma === null ? prior : sigma.sigma * 10_000;
    const l = params.latency;
    const mids = market.mids ?? [];
    const jumped =
      warmingUp(market.midsSince, now, l.jumpWarmupMs) ||
      jumpSeen(mids, now, sigmaBps / 10_000, l.jumpZ, l.jumpMemoryMs, l.jumpMinBps);
    const response = jumpResponse(jumped, l.jumpWidenBps, l.jumpSizeShare);
    const shape = latencyAwareShape(
      sigmaBps,
      input.timing,
      params,
      holdingsSkewBps(holdings, share, params.inventory),
      response.widenBps,
    );
    return {
      ok: true,
      shape: response.sizeShare === 1 ? shape : { ...shape, sizeShare: response.sizeShare },
    };
  },
};

/**
 * The model's numeric core: σ in bps per √s, the timing, the skew and the jump widening
 * (`latency.jumpWidenBps` while a jump is remembered, `jump-memory.ts`) in; distances out.
 */
export function latencyAwareShape(
  sigmaBps: number,
  timing: PipelineTiming,
  params: PairStrategyParams,
  centerShiftBps: number,
  jumpWidenBps = 0,
): ModelShape {
  const l = params.latency;
  const placeSec = (timing.placementMs ?? l.placementMs) / 1000;
  const cancelSec = (timing.cancelMs ?? l.cancelMs) / 1000;
  const movePlace = sigmaBps * Math.sqrt(placeSec);
  const moveCancel = sigmaBps * Math.sqrt(cancelSec);
  const floor = l.spreadZ * movePlace + l.marginBps + jumpWidenBps;
  const bidBps = Math.max(params.spread.bidBps, floor);
  const askBps = Math.max(params.spread.askBps, floor);
  // The side the skew brings in reduces the position; its outside band narrows with the pressure.
  const pressure =
    params.inventory.maxSkewBps > 0 ? Math.min(1, Math.abs(centerShiftBps) / params.inventory.maxSkewBps) : 0;
  const reducingOutside = 1 - (1 - l.reducingOutsideShare) * pressure;
  const tolerance = (half: number, outsideShare: number): QuoteTolerance => {
    const toxicEdgeBps = Math.max(l.toxicZ * moveCancel, l.toxicShare * half);
    // Repricing must start before the quote turns toxic: the band's inner edge never lies inside
    // the toxic zone.
    const insideBps = Math.max(0, Math.min(l.insideZ * movePlace, half - toxicEdgeBps));
    return {
      insideBps,
      outsideBps: l.outsideZ * movePlace * outsideShare,
      toxicEdgeBps,
      sigmaBps,
      prepareShare: l.prepareShare,
      prepareDriftBps: l.prepareZ * sigmaBps * Math.sqrt(l.prepareMs / 1000),
      signShare: l.signShare,
    };
  };
  const BUY = tolerance(bidBps, centerShiftBps > 0 ? reducingOutside : 1);
  const SELL = tolerance(askBps, centerShiftBps < 0 ? reducingOutside : 1);
  if (centerShiftBps === 0) return { centerShiftBps, bidBps, askBps, tolerance: { BUY, SELL } };
  const skewed =
    l.skewMode === 'shift'
      ? shiftWithFloor(bidBps, askBps, centerShiftBps, BUY, SELL)
      : keepBand(bidBps, askBps, centerShiftBps, BUY, SELL);
  return { ...skewed, tolerance: { BUY, SELL } };
}

/**
 * The closest a quote may sit to the reference: its toxic edge plus its inside band. Nearer, a
 * fresh quote is repriced or pulled the moment it is judged, so one planned there is refused by
 * the pipeline's own freshness check on every pass (each pass spending a rate token on it).
 */
const nearest = (t: QuoteTolerance): number => t.toxicEdgeBps + t.insideBps;

/**
 * The `shift` skew: bid `h_b − s`, ask `h_a + s`, except that neither side comes nearer the
 * reference than {@link nearest}; the other side does not move.
 */
function shiftWithFloor(
  bidBps: number,
  askBps: number,
  shift: number,
  buy: QuoteTolerance,
  sell: QuoteTolerance,
): { centerShiftBps: number; bidBps: number; askBps: number } {
  return {
    centerShiftBps: 0,
    bidBps: Math.max(bidBps - shift, nearest(buy)),
    askBps: Math.max(askBps + shift, nearest(sell)),
  };
}

/**
 * The `keep-band` skew: {@link shiftWithFloor}, and the other side moves out by what the floor
 * took from the side the skew brings in (the reducing side). The skew's asymmetry (bid distance −
 * ask distance) stays the whole skew's; the spread between the quotes widens instead.
 */
function keepBand(
  bidBps: number,
  askBps: number,
  shift: number,
  buy: QuoteTolerance,
  sell: QuoteTolerance,
): { centerShiftBps: number; bidBps: number; askBps: number } {
  const floored = shiftWithFloor(bidBps, askBps, shift, buy, sell);
  const bidLift = floored.bidBps - (bidBps - shift);
  const askLift = floored.askBps - (askBps + shift);
  return { centerShiftBps: 0, bidBps: floored.bidBps + askLift, askBps: floored.askBps + bidLift };
}

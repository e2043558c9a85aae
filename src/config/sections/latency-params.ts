/**
 * The parameter table of the latency-aware quoting model: the `latency` block of a pair's
 * strategy parameters, one {@link ParamSpec} row per key (doc, bounds, default). Its distances
 * are in units of σ·√T over the pipeline's measured placement and cancel times, with assumed
 * times until those are measured. `strategy-params.ts` embeds it in the pair table; the pure
 * strategy reads the resolved values.
 */
import {
  type ParamSpec,
  BPS,
  NON_NEG_NUM,
  POS_NUM,
  SHARE,
  enumParam,
  intParam,
  param,
} from '../param-spec.js';

/** An integer of milliseconds, 1 ms to a day. */
const MS = (doc: string, def: number): ParamSpec<number> => intParam(doc, 1, 86_400_000, def);

/**
 * The parameters of the latency-aware model (`src/strategy/models/latency-aware-model.ts`), the
 * `latency` section of a pair's parameters (`strategy-params.ts`): distances in units of σ·√T over
 * the pipeline's measured times.
 */
export const latencyParamSpecs = {
  spreadZ: param(
    'latency-aware: half-spread floor in σ·√(placement time) units (added to latency.marginBps).',
    NON_NEG_NUM,
    1.5,
  ),
  marginBps: param('latency-aware: bps added to the volatility floor of the half-spread.', BPS, 8),
  toxicZ: param(
    'latency-aware: cancel a resting quote at once when its distance from the reference falls below this many σ·√(cancel time).',
    NON_NEG_NUM,
    1,
  ),
  toxicShare: param(
    'latency-aware: ... or below this share of its half-spread, whichever is larger.',
    SHARE,
    0.3,
  ),
  insideZ: param(
    'latency-aware: reprice when the quote is this many σ·√(placement time) closer to the reference than desired.',
    NON_NEG_NUM,
    0.75,
  ),
  outsideZ: param(
    'latency-aware: reprice when the quote is this many σ·√(placement time) further from the reference than desired.',
    NON_NEG_NUM,
    2,
  ),
  reducingOutsideShare: param(
    'latency-aware: the outside band of the side that reduces the position, as a share of outsideZ at full inventory pressure (linear in the pressure; 1 = off). Below 1, a reducing quote the skew wants nearer the reference is repriced sooner instead of resting where the price left it.',
    SHARE,
    1,
  ),
  prepareShare: param(
    'latency-aware: share of the tolerance band a queued placement may have drifted when its prepare starts; a staler one is queued again at the current price instead of wasting a prepare.',
    SHARE,
    0.5,
  ),
  prepareZ: param(
    'latency-aware: before its prepare, a queued quote must stand this many σ·√(latency.prepareMs) clear of its toxic edge (or sit at least as far from the reference as the quote now wants); nearer, it would most likely turn toxic during the prepare and be dropped at signing, having cost the pipeline its prepare, so it is queued again at the current price instead. 0 = off.',
    NON_NEG_NUM,
    1,
  ),
  prepareMs: MS(
    "latency-aware: the time from a prepare's start to the signature, ms (the venue's prepare takes 9-14 s); the drift latency.prepareZ allows for.",
    12_000,
  ),
  signShare: param(
    'latency-aware: the tolerance band a prepared placement must still sit in before it is signed, as a multiple of the band (1 = the band itself; larger lets a quote that drifted during the prepare go on, the toxic edge always applies). A prepare dropped here has cost its ~12 s for nothing.',
    POS_NUM,
    2,
  ),
  skewMode: enumParam(
    "latency-aware: how the inventory skew moves the quotes. 'shift' moves both by it, except that the side it brings in stops at toxic edge + inside band (nearer, the quote would be refused by its own tolerance); 'keep-band' never brings the reducing side closer to the reference than the edge it would be repriced or pulled at (toxic edge + inside band) and moves the accumulating side out by what the reducing side could not take, so the quotes keep the skew's full asymmetry without a reducing quote that churns.",
    ['shift', 'keep-band'],
    'shift',
  ),
  placementMs: MS(
    'latency-aware: placement time (queue to resting), ms, assumed until the pipeline has measured it.',
    45_000,
  ),
  cancelMs: MS('latency-aware: cancel time, ms, assumed until the pipeline has measured it.', 35_000),
  jumpZ: param(
    'latency-aware: a return between two consecutive book mids larger than this many σ·√(their interval) is a price jump (0 = off); while one lies within latency.jumpMemoryMs, both half-spreads widen by latency.jumpWidenBps.',
    NON_NEG_NUM,
    0,
  ),
  jumpMinBps: param(
    'latency-aware: a return between consecutive book mids is a price jump only if it is also larger than this many bps (0 = no floor, latency.jumpZ alone decides): the book mid moves by a few bps when a level is taken or requoted, which in a calm market is many σ·√Δt without being a jump.',
    BPS,
    0,
  ),
  jumpMemoryMs: MS(
    'latency-aware: how long, ms, a price jump seen in the mids is remembered (widening the half-spreads and scaling the sizes); at most the mid history kept, market.mids.keepMs (15 min by default).',
    900_000,
  ),
  jumpWarmupMs: intParam(
    'latency-aware: for this long, ms, after its first book mid of the run, a pair is quoted as if a price jump were remembered (latency.jumpWidenBps, latency.jumpSizeShare; 0 = off): a daemon that has not yet watched a market treats it as one that jumps, so the first jump of a run does not meet full-size quotes. It starts again with every start of the daemon.',
    0,
    86_400_000,
    0,
  ),
  jumpWidenBps: param(
    'latency-aware: bps added to both half-spreads while a price jump is remembered.',
    BPS,
    0,
  ),
  jumpSizeShare: param(
    "latency-aware: every level's size is multiplied by this share while a price jump is remembered (1 = off; 0 quotes nothing then). After a jump the takers sweep a stale quote whole, while between jumps each takes about one taker's size, so a jump costs in proportion to the resting size and the quiet flow much less so. Pair it with a latency.jumpMemoryMs (and market.mids.keepMs) of an hour or more, so a market that jumps is quoted for it continuously.",
    SHARE,
    1,
  ),
  priorSigmaBps: param(
    'latency-aware: σ of the reference, bps per √s, assumed until it can be estimated (0 = quote as the spread model until then).',
    NON_NEG_NUM,
    1,
  ),
};

/**
 * Where a freshness check of the placement pipeline runs: before the prepare (`queued`: dropping
 * the intent costs nothing) or before signing (`prepared`: dropping it wastes the prepare).
 */
import type { Dec } from '../core/decimal.js';
import type { OwnOrderView } from '../market/market-snapshot.js';
import type { ReconcileParams } from './params.js';
import type { DesiredQuote, QuoteTolerance } from './quote-types.js';
import { decisive, edgeEstimate } from './bps-estimate.js';
import { edgeBps, misfit } from './reconciler.js';

/** See the module doc. */
export type FreshnessStage = 'queued' | 'prepared';

/**
 * The share of a quote's own tolerance band, at a freshness check of the pipeline (`queued`:
 * before the prepare, `prepared`: before signing), within which a queued placement must still sit to go
 * on (the reconciler's `orderFits` band share). A placement for a missing side goes on at any
 * price that is not toxic: a quote on the book now beats a better one a cycle later, and the
 * reconciler reprices it once it rests. Otherwise, before the prepare, only a fresh price
 * (`prepareShare` of the band: dropping it costs nothing, the next cycle queues it at the current
 * price); before signing, `signShare` of it (a prepare dropped there has cost its time for
 * nothing). The toxic edge applies whatever the share. A quote without its own tolerance keeps
 * the reconciler's fixed one (share 1).
 */
export function freshnessShare(
  reason: 'missing' | 'reprice' | 'refresh' | undefined,
  stage: FreshnessStage,
  tolerance: QuoteTolerance | undefined,
): number {
  if (reason === 'missing') return Number.POSITIVE_INFINITY;
  if (tolerance === undefined) return 1;
  return stage === 'queued' ? tolerance.prepareShare : tolerance.signShare;
}

/**
 * Before the prepare: whether a queued order (`side`, `price`) still stands its quote's
 * `prepareDriftBps` clear of the toxic edge, or at least as far from the reference as the quote
 * now wants (so a quote planned there always passes, and a missing side is never held back for
 * good). Nearer, the reference's drift during the ~12 s prepare would most likely make it toxic
 * by the time it is to be signed, and it would be dropped then, having cost the pipeline its
 * prepare; dropped here it costs nothing, and the next cycle queues it at the current price. Any
 * reason, a missing side included. A quote without its own tolerance always passes.
 */
export function clearsPrepareDrift(
  o: { readonly side: 'BUY' | 'SELL'; readonly price: Dec },
  q: DesiredQuote,
): boolean {
  const t = q.tolerance;
  const drift = t?.prepareDriftBps ?? 0;
  if (t === undefined || !(drift > 0)) return true;
  // Float estimates decide when clear of the bound (`bps-estimate.ts`), else the exact division.
  const wantE = edgeEstimate(q.side, q.price, q.reference);
  const edgeE = edgeEstimate(o.side, o.price, q.reference);
  if (wantE !== null && edgeE !== null) {
    const bound = Math.min(wantE, t.toxicEdgeBps + drift);
    if (decisive(edgeE, bound)) return edgeE >= bound;
  }
  const want = edgeBps(q.side, q.price, q.reference);
  return edgeBps(o.side, o.price, q.reference) >= Math.min(want, t.toxicEdgeBps + drift);
}

/** Why {@link stillFresh} finds a queued placement stale. */
export type StaleCause = 'toxic' | 'band' | 'prepare-drift' | 'size' | 'age';

/**
 * The pipeline's freshness check of a queued placement `o` (its price and size, as if it rested
 * now) against the quote the strategy wants for its slot now: within the band share of
 * {@link freshnessShare} for its reason and stage, and before the prepare also
 * {@link clearsPrepareDrift}. True when fresh, else the cause. The risk gate is asked separately.
 */
export function stillFresh(
  o: OwnOrderView,
  q: DesiredQuote,
  reason: 'missing' | 'reprice' | 'refresh' | undefined,
  stage: FreshnessStage,
  params: ReconcileParams,
  now: number,
): true | StaleCause {
  const share = freshnessShare(reason, stage, q.tolerance);
  const cause = misfit(o, q, params, now, share);
  if (cause !== null) return cause;
  return stage !== 'queued' || clearsPrepareDrift(o, q) ? true : 'prepare-drift';
}

import type { QuoteTolerance } from './quote-types.js';

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
  stage: 'queued' | 'prepared',
  tolerance: QuoteTolerance | undefined,
): number {
  if (reason === 'missing') return Number.POSITIVE_INFINITY;
  if (tolerance === undefined) return 1;
  return stage === 'queued' ? tolerance.prepareShare : tolerance.signShare;
}

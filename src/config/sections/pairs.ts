/**
 * The top-level `pairs` key: the pairs the daemon quotes, named as GET /pairs names them. It is a
 * single leaf rather than a section; the pollers, the strategy and the per-pair overrides of the
 * `strategy` section are all keyed by it.
 */
import type { Leaf } from '../define.js';
import { PAIRS } from '../formats.js';

/** The top-level `pairs` key (a leaf, not a section). */
export const pairsLeaf: Leaf<readonly string[]> = {
  doc: 'The pairs to quote, verbatim as GET /pairs names them ("BTC/USDC"). From the environment: comma-separated.',
  format: PAIRS,
  default: [],
  env: 'LEDGER_MM_PAIRS',
};

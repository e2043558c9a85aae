/**
 * The plain spread model: fixed distances `spread.bidBps` / `spread.askBps` from the reference,
 * both shifted by the linear inventory skew. Tolerance is the reconciler's fixed
 * `priceToleranceBps`.
 */
import { holdingsSkewBps } from '../inventory-skew.js';
import type { QuotingModel } from './quoting-model.js';

/** See the module doc. */
export const spreadModel: QuotingModel = {
  name: 'spread',
  shape: ({ holdings, share, params }) => ({
    ok: true,
    shape: {
      centerShiftBps: holdingsSkewBps(holdings, share, params.inventory),
      bidBps: params.spread.bidBps,
      askBps: params.spread.askBps,
    },
  }),
};

/**
 * Avellaneda–Stoikov (2008): the reservation price as the centre and the optimal spread, from σ
 * estimated on the pair's mids (`volatility.ts`) and the deviation of base holdings from the
 * inventory target. No σ estimate, no quote: σ is never guessed.
 */
import { ZERO } from '../../core/decimal.js';
import { avellanedaStoikovShape } from '../avellaneda-stoikov.js';
import { inventoryDeviation } from '../inventory-skew.js';
import { estimateSigma } from '../volatility.js';
import type { QuotingModel } from './quoting-model.js';

/** See the module doc. */
export const avellanedaStoikovModel: QuotingModel = {
  name: 'avellaneda-stoikov',
  shape: ({ market, now, reference, holdings, params }) => {
    const sigma = estimateSigma(market, now, params.volatility);
    if (sigma === null) return { ok: false, reason: 'no volatility estimate for Avellaneda–Stoikov' };
    // Holdings unknown (balances pending): q = 0, the reservation price at the reference.
    const q =
      holdings === null ? ZERO : inventoryDeviation(holdings, reference, params.inventory.targetBaseShare);
    const as = avellanedaStoikovShape(reference, q, sigma.sigma, params.avellanedaStoikov);
    if (as === null) return { ok: false, reason: 'Avellaneda–Stoikov gave no finite quote' };
    return {
      ok: true,
      shape: { centerShiftBps: as.centerShiftBps, bidBps: as.halfSpreadBps, askBps: as.halfSpreadBps },
    };
  },
};

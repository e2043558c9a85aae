/**
 * Control-plane observations the daemon reports as they happen: config reload outcomes and the
 * risk gate's denials. Both are plain calls (no subscription exists for them).
 */
import type { RiskVerdict } from '../risk/risk-types.js';
import type { Metrics } from './metrics/create-metrics.js';
import { OTHER, snake } from './metrics/labels.js';

/**
 * Counts a config reload: call it from the `ConfigReloader`'s `onApply` (ok) and `onReject`
 * (not ok), or pass any `ReloadOutcome`.
 */
export function observeConfigReload(metrics: Metrics, outcome: { readonly ok: boolean }): void {
  metrics.control.configReloads.inc({ outcome: outcome.ok ? 'applied' : 'rejected' });
}

/**
 * Counts the placements a risk verdict denied, by pair and rule. Call it once per evaluation
 * with the verdict (the denial list is per evaluation, so nothing is counted twice).
 */
export function observeRiskDenials(metrics: Metrics, verdict: Pick<RiskVerdict, 'denied'>): void {
  for (const d of verdict.denied) {
    const pair = d.action.quote.pair;
    metrics.control.riskDenials.inc({
      pair: typeof pair === 'string' ? metrics.labels.pair.value(pair) : OTHER,
      reason: metrics.labels.reason.value(snake(d.reason)),
    });
  }
}

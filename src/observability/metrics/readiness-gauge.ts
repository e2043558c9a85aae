/**
 * `ledger_mm_ready` from a readiness provider: on each scrape the gauge is set to 1 when the
 * provider says ready, else 0. Give it the provider `/readyz` serves, so the metric and the probe
 * share one verdict. A provider that throws sets 0 (`/readyz` answers 500 then: not ready either)
 * and is counted in `ledger_mm_metrics_collect_errors_total`.
 *
 * The provider runs inside the scrape, synchronously: it must be cheap (the daemon's
 * `readiness()` is a pure function of its state).
 */
import type { Metrics } from './create-metrics.js';
import type { Readiness } from '../http/readiness.js';

/** See the module doc. */
export function registerReadinessGauge(metrics: Metrics, readiness: () => Readiness): () => void {
  return metrics.hooks.add(() => {
    let ready = false;
    try {
      ready = readiness().ready === true;
    } finally {
      metrics.control.ready.set(ready ? 1 : 0);
    }
  });
}

/**
 * The metrics boundary for money: the ONE place in the product where a `Dec` becomes a JS
 * `number` (invariant 5 of the architecture: money is never a `number`).
 *
 * Prometheus samples are float64, so a gauge of a balance, a position, a price or a PnL has to
 * be one. The conversion happens here, as the value leaves for prom-client, and nothing computed
 * from the result ever flows back into the daemon: metrics observe, they never decide. Every
 * other module keeps `Dec`; code review should reject a `toNumber()` on money anywhere else.
 */
import type { Dec } from '../../core/decimal.js';

/** See the module doc. */
export function toMetricNumber(value: Dec): number {
  return value.toNumber();
}

/** Milliseconds to the seconds metrics are exported in (plain numbers: durations, not money). */
export function msToSeconds(ms: number): number {
  return ms / 1000;
}

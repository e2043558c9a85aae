/**
 * The venue client's observer hooks, feeding the venue metrics. Pass the result into the
 * `VenueClient` options: `new VenueClient({ ...options, ...bindVenueClientHooks(metrics) })`.
 * The hooks never throw (the client swallows a throw anyway).
 */
import type { ResponseEvent, RateLimitEvent } from '../venue/exchange.js';
import type { RetryEvent } from '../venue/retry.js';
import { codeLabel } from './bind-events.js';
import type { Metrics } from './metrics/create-metrics.js';
import { msToSeconds } from './metrics/metric-number.js';

/** See the module doc. */
export interface VenueClientHooks {
  /** Once per request sent: requests by endpoint and status, duration, errors by code. */
  readonly onResponse: (e: ResponseEvent) => void;
  /** Every 429 RATE_LIMITED: the counter, and the venue's `limit` when it says one. */
  readonly onRateLimited: (e: RateLimitEvent) => void;
  /** Before each retry backoff: retries by endpoint and the code retried. */
  readonly onRetry: (e: RetryEvent) => void;
}

/** Builds the hooks for one metrics instance. */
export function bindVenueClientHooks(metrics: Metrics): VenueClientHooks {
  const { venue, labels } = metrics;
  const guard = (fn: () => void): void => {
    try {
      fn();
    } catch {
      metrics.control.collectErrors.inc();
    }
  };
  return {
    onResponse: (e) =>
      guard(() => {
        const endpoint = labels.endpoint.value(e.endpoint);
        const status = labels.status.value(e.status === undefined ? 'none' : String(e.status));
        venue.requests.inc({ endpoint, status });
        venue.requestDuration.observe({ endpoint }, msToSeconds(Math.max(0, e.durationMs)));
        if (e.code !== undefined) venue.errors.inc({ endpoint, code: codeLabel(metrics, e.code) });
      }),
    onRateLimited: (e) =>
      guard(() => {
        venue.rateLimited.inc({ endpoint: labels.endpoint.value(e.endpoint) });
        if (e.limit !== undefined && Number.isFinite(e.limit)) venue.venueRateLimit.set(e.limit);
      }),
    onRetry: (e) =>
      guard(() => {
        venue.retries.inc({
          endpoint: labels.endpoint.value(e.endpoint),
          code: codeLabel(metrics, e.error.code),
        });
      }),
  };
}

/**
 * Venue: every HTTP exchange of the venue client (fed by its `onResponse`, `onRateLimited` and
 * `onRetry` hooks, `venue-hooks.ts`), the rate budget, and the pollers' last successes.
 *
 * Extra labels, each bounded:
 * - `endpoint`: the client's endpoint label (`GET /orders/{orderId}`), never an id; only the 11
 *   labels of the endpoint table pass.
 * - `status`: the HTTP status, or `none` when no response arrived (timeout, network, abort).
 * - `poller`: the poller kind (`book`, `trades`, `orders`, `balances`, `account`, `pairs`); the
 *   pair of a per-pair poller is its own `pair` label.
 */
import type { Counter, Gauge, Histogram } from 'prom-client';

import type { MetricFactory } from './metric-factory.js';
import { VENUE_STAGE_BUCKETS } from './pipeline-metrics.js';

/** See the module doc. */
export interface VenueMetrics {
  readonly requests: Counter<'endpoint' | 'status'>;
  readonly requestDuration: Histogram<'endpoint'>;
  readonly errors: Counter<'endpoint' | 'code'>;
  readonly retries: Counter<'endpoint' | 'code'>;
  readonly rateLimited: Counter<'endpoint'>;
  readonly venueRateLimit: Gauge;
  readonly rateHeadroom: Gauge;
  readonly rateTokens: Gauge;
  readonly pollerLastSuccess: Gauge<'poller' | 'pair'>;
  readonly pollerFailures: Gauge<'poller' | 'pair'>;
}

/** Registers the venue metrics. */
export function createVenueMetrics(f: MetricFactory): VenueMetrics {
  const poller = ['poller', 'pair'] as const;
  return {
    requests: f.counter(
      'ledger_mm_venue_requests_total',
      'Venue HTTP requests sent, by endpoint and HTTP status (none: no response).',
      ['endpoint', 'status'],
    ),
    requestDuration: f.histogram(
      'ledger_mm_venue_request_duration_seconds',
      'Duration of venue HTTP requests, by endpoint.',
      ['endpoint'],
      VENUE_STAGE_BUCKETS,
    ),
    errors: f.counter(
      'ledger_mm_venue_errors_total',
      'Failed venue requests, by endpoint and error.code (CLIENT_* for client-side failures).',
      ['endpoint', 'code'],
    ),
    retries: f.counter(
      'ledger_mm_venue_retries_total',
      'Requests the venue client retried after a backoff, by endpoint and the error code retried.',
      ['endpoint', 'code'],
    ),
    rateLimited: f.counter(
      'ledger_mm_venue_rate_limited_total',
      'Requests the venue answered 429 RATE_LIMITED, by endpoint.',
      ['endpoint'],
    ),
    venueRateLimit: f.gauge(
      'ledger_mm_venue_rate_limit_requests',
      'Requests allowed per window, as the last 429 RATE_LIMITED said (error.limit); 0 until one.',
    ),
    rateHeadroom: f.gauge(
      'ledger_mm_rate_limit_headroom_ratio',
      'Client-side placement budget left: token bucket tokens / capacity, 0 to 1.',
      [],
      true,
    ),
    rateTokens: f.gauge(
      'ledger_mm_rate_limit_tokens',
      'Placements the client-side token bucket allows right now.',
      [],
      true,
    ),
    pollerLastSuccess: f.gauge(
      'ledger_mm_poller_last_success_timestamp_seconds',
      'Unix time of the last successful run of each poller (0: never).',
      poller,
      true,
    ),
    pollerFailures: f.gauge(
      'ledger_mm_poller_consecutive_failures',
      'Failed runs of each poller since its last success.',
      poller,
      true,
    ),
  };
}

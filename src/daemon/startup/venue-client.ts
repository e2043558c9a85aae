/**
 * The daemon's venue client, from the `venue` section (the same options `ledger-mm check` uses):
 * over the injected transport (the in-process simulator, tests) or undici pools to the
 * configured hosts, with the observers' hooks (metrics) attached.
 */
import type { VenueConfig } from '../../config/schema.js';
import { VenueClient } from '../../venue/client.js';
import { createLiveVenueClient } from '../../venue/live-client.js';
import type { LiveVenueClientOptions } from '../../venue/live-client.js';
import type { RetryEvent } from '../../venue/retry.js';
import type { DaemonOptions } from '../daemon-types.js';

/** See the module doc. */
export function createDaemonVenueClient(
  o: Pick<DaemonOptions, 'config' | 'clock' | 'transport' | 'random' | 'venueHooks'>,
): VenueClient {
  const { onRetry, ...hooks } = o.venueHooks ?? {};
  const options = liveVenueOptions(o.config.venue, onRetry);
  const random = o.random === undefined ? {} : { random: o.random };
  if (o.transport === undefined)
    return createLiveVenueClient({ ...options, ...hooks, ...random, clock: o.clock });
  const { pool: _pool, ...client } = options;
  return new VenueClient({ ...client, ...hooks, ...random, clock: o.clock, transport: o.transport });
}

/**
 * The live venue client's options from the `venue` section: URLs, the resolved API key and how
 * it is sent, per-call timeouts, the retry policy (one attempt budget for reads and prepares),
 * the cursor parameter and the connections per host.
 */
export function liveVenueOptions(
  venue: VenueConfig,
  onRetry?: (e: RetryEvent) => void,
): LiveVenueClientOptions {
  return {
    baseUrl: venue.baseUrl,
    submitUrl: venue.submitUrl,
    apiKey: venue.apiKey,
    authHeader: venue.authHeader,
    timeouts: {
      read: venue.timeouts.defaultMs,
      balances: venue.timeouts.balancesMs,
      prepare: venue.timeouts.prepareMs,
      cancelPrepare: venue.timeouts.cancelPrepareMs,
      submit: venue.timeouts.submitMs,
    },
    retry: {
      readAttempts: venue.retry.maxAttempts,
      prepareAttempts: venue.retry.maxAttempts,
      baseDelayMs: venue.retry.baseDelayMs,
      maxDelayMs: venue.retry.maxDelayMs,
    },
    cursorParam: venue.cursorParam,
    pool: { connections: venue.connections },
    ...(onRetry === undefined ? {} : { onRetry }),
  };
}

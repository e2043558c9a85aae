import { liveVenueOptions } from '../cli/check.js';
import { VenueClient, createLiveVenueClient } from '../venue/index.js';
import type { DaemonOptions } from './daemon-types.js';

/**
 * The daemon's venue client, from the `venue` section (the same options `ledger-mm check` uses):
 * over the injected transport (the in-process simulator, tests) or undici pools to the
 * configured hosts, with the observers' hooks (metrics) attached.
 */
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

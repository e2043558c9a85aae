/**
 * The venue client for the real venue: {@link createLiveVenueClient} vets the options, then
 * builds a `VenueClient` over an undici transport with one keep-alive pool for the API origin
 * and one for the submit origin, on the system clock unless told otherwise. The daemon uses it
 * when no transport is injected (live, and paper mode over HTTP), and so do the operator
 * commands; the in-process simulator and tests give `VenueClient` their own transport.
 */
import { systemClock, type Clock } from '../core/clock.js';
import { VenueClient } from './client.js';
import { resolveOptions, type VenueClientOptions } from './client-options.js';
import { UndiciTransport, type UndiciTransportOptions } from './undici-transport.js';

/** Options of {@link createLiveVenueClient}: the client's, minus the transport, with an optional clock. */
export interface LiveVenueClientOptions extends Omit<VenueClientOptions, 'transport' | 'clock'> {
  /** Default: the system clock. */
  clock?: Clock;
  /** Pool tuning; the origins are derived from `baseUrl` and `submitUrl`. */
  pool?: Omit<UndiciTransportOptions, 'origins'>;
}

/**
 * Builds a {@link VenueClient} over an {@link UndiciTransport} with one keep-alive pool for the
 * API origin and one for the submit origin. Options are vetted before any pool is created;
 * throws like the `VenueClient` constructor. Call `client.close()` on shutdown.
 */
export function createLiveVenueClient(opts: LiveVenueClientOptions): VenueClient {
  const { clock = systemClock, pool, ...rest } = opts;
  // Validate everything before any pool exists, so a misconfiguration leaks nothing.
  const resolved = resolveOptions(rest);
  const apiOrigin = new URL(resolved.baseUrl).origin;
  const transport = new UndiciTransport({ ...pool, origins: [apiOrigin, resolved.submitOrigin] });
  return new VenueClient({ ...rest, transport, clock });
}

/**
 * The daemon's account on the simulated venue, as paper mode, `ledger-mm simulate` and the bench
 * all set it up: the sim config's first account is the daemon's, registered with the public key
 * the daemon signs with (so the account's party id carries the key's fingerprint and the
 * daemon's preflight passes), and its API key is read back from the venue once built.
 *
 * Where the key comes from (a key file, a seed derived from the run's seed, a fixed byte) and
 * which clock and transport the venue runs on stay with each caller.
 */
import type { SimAccountConfig, SimConfig } from '../../sim/sim-config.js';
import type { SimVenue } from '../../sim/sim-venue.js';

/** A sim config whose first account holds the daemon's key, and that account. */
export interface KeyedSimConfig {
  readonly config: SimConfig;
  readonly account: SimAccountConfig;
}

/** Registers `publicKey` (base64, as the venue takes it) on the sim config's first account. */
export function withDaemonKey(sim: SimConfig, publicKey: string): KeyedSimConfig {
  const account = sim.accounts[0];
  if (account === undefined) throw new RangeError('the sim config has no account for the daemon');
  return {
    config: { ...sim, accounts: [{ ...account, publicKey }, ...sim.accounts.slice(1)] },
    account,
  };
}

/** The API key the venue issued to the account `slug` (the venue keeps only a hash later). */
export function daemonApiKey(venue: SimVenue, slug: string): string {
  const apiKey = venue.apiKeys.get(slug);
  if (apiKey === undefined) throw new RangeError(`no API key for account ${slug}`);
  return apiKey;
}

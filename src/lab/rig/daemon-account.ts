/**
 * The daemon's account on the simulated venue, as paper mode, `ledger-mm simulate` and the bench
 * all set it up: the sim config's first account is the daemon's, registered with the public key
 * the daemon signs with (so the account's party id carries the key's fingerprint and the
 * daemon's preflight passes), and its API key is read back from the venue once built.
 *
 * Where the key comes from (a key file, a seed derived from the run's seed, a fixed byte) and
 * which clock and transport the venue runs on stay with each caller.
 */
import { Dec } from '../../core/decimal.js';
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

/**
 * The daemon's first account split into one account per party, each registered with its own
 * public key: the same total funds, each balance divided evenly (rounded down at 8 places), the
 * same limits per account. The first keeps the account's slug (so one party is exactly
 * {@link withDaemonKey}); the others are `<slug>-p2`, `<slug>-p3`… The other accounts follow.
 */
export function withDaemonParties(
  sim: SimConfig,
  publicKeys: readonly string[],
): { readonly config: SimConfig; readonly accounts: readonly SimAccountConfig[] } {
  const first = sim.accounts[0];
  if (first === undefined) throw new RangeError('the sim config has no account for the daemon');
  if (publicKeys.length === 0) throw new RangeError('at least one party');
  if (publicKeys.length === 1) {
    const one = withDaemonKey(sim, publicKeys[0]!);
    return { config: one.config, accounts: [one.account] };
  }
  const n = publicKeys.length;
  const balances = Object.fromEntries(
    Object.entries(first.balances).map(([token, amount]) => [
      token,
      new Dec(amount).div(n).toDecimalPlaces(8, Dec.ROUND_DOWN).toFixed(),
    ]),
  );
  const accounts = publicKeys.map((publicKey, i) => ({
    ...first,
    ...(i === 0 ? {} : { slug: `${first.slug}-p${i + 1}`, name: `${first.name} (party ${i + 1})` }),
    balances,
    publicKey,
  }));
  return { config: { ...sim, accounts: [...accounts, ...sim.accounts.slice(1)] }, accounts };
}

/**
 * Paper trading's venue: the rig (`sim-rig.ts`) on the wall clock, the simulated venue on
 * loopback over real HTTP, its market running, and one account (one per party) registered with a
 * throwaway signing key written under the store's directory (the account's party id then carries
 * the key's fingerprint, as a party created from that key does on the ledger, so the daemon's
 * preflight passes).
 *
 * Its ground-truth logs are bounded ({@link PAPER_TRUTH_LIMIT}): a session may run for days.
 *
 * The simulated venue starts empty every time, so the paper journal is started afresh too: a
 * journal of a previous session would hold orders this venue never heard of. A store still
 * locked by a live process on this host (another paper session) is left alone and refused.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import { readStoreLock, storeLockHeld } from '../../orders/journal/index.js';
import type { LatencyProfile } from '../../sim/latency.js';
import { DEFAULT_ENGINE_SETTINGS } from '../../sim/engine/engine-core.js';
import { DEFAULT_SWEEP_MS, type RetentionOptions } from '../../sim/truth/history-retention.js';
import { DEFAULT_SIM_CONFIG_PATH, loadSimConfig } from '../../sim/sim-config.js';
import type { SimVenue } from '../../sim/sim-venue.js';
import { partyStorePath } from '../../daemon/startup/party-store.js';
import { keyFiles } from './rig-keys.js';
import { LIVE_TIME } from './rig-time.js';
import { SimRig, type HistoryBounds } from './sim-rig.js';

/** Options of {@link startPaperVenue}. */
export interface PaperVenueOptions {
  /** The daemon's journal (`store.path`); its directory receives the signing key. */
  readonly storePath: string;
  readonly latency: LatencyProfile;
  /** The sim config file (default the package's `config/sim.json`). */
  readonly simConfig?: string;
  readonly seed?: number | string;
  /** Ports on 127.0.0.1; 0 (the default) picks free ones. */
  readonly port?: number;
  readonly submitPort?: number;
  readonly clock?: Clock;
  /**
   * How many entries each ground-truth log of the venue keeps (calls, events, commits, balance
   * snapshots, trades, reference prices): a paper session runs for days, and those logs would
   * otherwise grow with every call. Default {@link PAPER_TRUTH_LIMIT}; null keeps everything,
   * including every order, command and trade ({@link PAPER_HISTORY} applies otherwise).
   */
  readonly truthLimit?: number | null;
  /**
   * The daemon's account split into this many parties (default 1): the same funds divided
   * evenly, each party with its own signing key and API key file under the store directory.
   */
  readonly parties?: number;
}

/** One party of a paper session of several (`--parties`). */
export interface PaperParty {
  readonly name: string;
  readonly slug: string;
  readonly partyId: string;
  /** Its signing key file and API key file (mode 0600), under the store directory. */
  readonly keyFile: string;
  readonly apiKeyFile: string;
}

/**
 * The default bound of each ground-truth log in paper mode. The logs are a debugging window,
 * not the venue's state: at the fast profile's one to two calls a second (each a call record and
 * two events) this keeps about the last three minutes of calls, and every log is full within
 * five minutes (the orders and commands the venue retains take longer: {@link PAPER_WARMUP_MS}).
 * `/admin/truth/*` reads show these entries only; `ledger-mm
 * sim-venue` keeps everything.
 */
export const PAPER_TRUTH_LIMIT = 300;

/**
 * How long the paper venue keeps an ended order (and a dead prepared command) before forgetting
 * it, and how many public trades it keeps: well past every deadline and every lookback of the
 * daemon (5-minute prepares, 20-minute tokens, 10-minute recovery history).
 */
export const PAPER_HISTORY: RetentionOptions = { endedOrdersMs: 60 * 60_000, publicTrades: 5_000 };

/**
 * How long a paper session's memory takes to reach its steady state: the venue keeps a prepared
 * command until its submitToken died (20 minutes) plus {@link PAPER_HISTORY}'s hour, and forgets
 * it at the next sweep (each minute), so the first command leaves at 81 minutes; every other
 * bound is full sooner (the daemon's registry at 10 minutes, the venue's ended orders at 61, its
 * ground-truth logs within 5). Until then the live heap grows with them (in-process, fast
 * profile: +9 MiB from minute 10 to 80, flat after; `npm run bench`), and the V8 heap's headroom
 * with it, so memory measured inside the warm-up cannot tell a leak from the fill.
 */
export const PAPER_WARMUP_MS =
  DEFAULT_ENGINE_SETTINGS.submitTokenTtlMs +
  PAPER_HISTORY.endedOrdersMs +
  (PAPER_HISTORY.sweepMs ?? DEFAULT_SWEEP_MS);

/** Paper trading's bounds of the venue's ground truth and history (the in-process long run's too). */
export const PAPER_BOUNDS: HistoryBounds = { truthLimit: PAPER_TRUTH_LIMIT, history: PAPER_HISTORY };

/** A running paper venue. */
export interface PaperVenue {
  /** The rig it runs on (live time, HTTP). */
  readonly rig: SimRig;
  readonly venue: SimVenue;
  readonly baseUrl: string;
  readonly submitUrl: string;
  readonly adminUrl: string;
  /** The account's API key (shown once, as the venue keeps only a hash). */
  readonly apiKey: string;
  readonly slug: string;
  readonly partyId: string;
  /** The throwaway signing key file (mode 0600). */
  readonly keyFile: string;
  /** Every party when the session runs several (the first is the one above), else []. */
  readonly parties: readonly PaperParty[];
  /**
   * With several parties, the config layer naming their key files (`firm.parties`), to load after
   * the user's; else null.
   */
  readonly firmLayer: string | null;
  close(): Promise<void>;
}

/** Thrown when another live process holds the paper store. */
export class PaperStoreBusyError extends Error {
  override readonly name = 'PaperStoreBusyError';
}

/** Removes a previous session's journal, unless a live process holds it. */
export function resetPaperStore(storePath: string): void {
  if (storeLockHeld(storePath)) {
    const holder = readStoreLock(storePath);
    const who = holder === null ? 'another process' : `pid ${holder.pid} on ${holder.host}`;
    throw new PaperStoreBusyError(
      `the paper store ${storePath} is in use by ${who}; stop that session first`,
    );
  }
  for (const suffix of ['', '-wal', '-shm', '-journal', '.lock']) {
    const file = `${storePath}${suffix}`;
    if (existsSync(file)) rmSync(file, { force: true });
  }
}

/** Starts the paper venue; see the module doc. */
export async function startPaperVenue(o: PaperVenueOptions): Promise<PaperVenue> {
  const dir = dirname(o.storePath);
  mkdirSync(dir, { recursive: true });
  const n = o.parties ?? 1;
  resetPaperStore(o.storePath);
  // The other parties' journals (store.path with the party's name before the extension).
  for (let i = 1; i < n; i++) resetPaperStore(partyStorePath(o.storePath, { name: `p${i + 1}` }, i));
  const truthLimit = o.truthLimit === undefined ? PAPER_TRUTH_LIMIT : o.truthLimit;
  const rig = await SimRig.start({
    sim: loadSimConfig(o.simConfig ?? DEFAULT_SIM_CONFIG_PATH),
    latency: o.latency,
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    time: o.clock === undefined ? LIVE_TIME : { ...LIVE_TIME, clock: o.clock },
    keys: keyFiles(dir, n),
    link: { kind: 'http', port: o.port ?? 0, submitPort: o.submitPort ?? 0 },
    storePath: o.storePath,
    ...(truthLimit === null ? {} : { bounds: { ...PAPER_BOUNDS, truthLimit } }),
  });
  rig.startMarket();
  const parties =
    n === 1
      ? []
      : rig.parties.map((p) => {
          const apiKeyFile = join(dir, `paper-api.${p.name}.key`);
          writeFileSync(apiKeyFile, `${p.apiKey}\n`, { mode: 0o600 });
          return { name: p.name, slug: p.slug, partyId: p.partyId, keyFile: p.key.keyFile!, apiKeyFile };
        });
  return {
    rig,
    venue: rig.venue,
    baseUrl: rig.urls.baseUrl,
    submitUrl: rig.urls.submitUrl,
    adminUrl: rig.urls.adminUrl!,
    apiKey: rig.primary.apiKey,
    slug: rig.primary.slug,
    partyId: rig.primary.partyId,
    keyFile: rig.primary.key.keyFile!,
    parties,
    firmLayer: parties.length === 0 ? null : writeFirmLayer(dir, parties),
    close: () => rig.close(),
  };
}

/** Writes the `firm.parties` config layer of a session of several parties; returns its path. */
function writeFirmLayer(dir: string, parties: readonly PaperParty[]): string {
  const file = join(dir, 'paper-firm.json');
  const listed = parties.map((p) => ({ name: p.name, apiKeyFile: p.apiKeyFile, signingKeyFile: p.keyFile }));
  writeFileSync(file, `${JSON.stringify({ firm: { parties: listed } }, null, 2)}\n`, { mode: 0o600 });
  return file;
}

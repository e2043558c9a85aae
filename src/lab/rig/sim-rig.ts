/**
 * The one rig that puts the daemon on the simulator, for paper trading, `ledger-mm simulate` and
 * the benches. A `SimRig` owns:
 *
 * - the simulated venue, on the rig's injected time ({@link RigTime}: the wall clock, or fake
 *   timers the rig advances), its ground-truth logs bounded or not ({@link HistoryBounds});
 * - the daemon's accounts on it: the sim config's first account, split into one per party
 *   (`daemon-account.ts`), each registered with its key ({@link RigKey}) and its API key read back;
 * - the link the daemon reaches it by ({@link RigLink}): the in-process transport (fake time) or
 *   real HTTP on 127.0.0.1 (paper);
 * - a directory for journals (and key files): the caller's, kept, or a scratch one removed by
 *   {@link SimRig.close};
 * - the daemon's config pointed at all that, one way ({@link SimRig.pointConfig}, or the same
 *   keys as `LEDGER_MM_*` variables for a config loaded and reloaded from files, {@link
 *   SimRig.pointEnv}), and the daemon's options ({@link SimRig.daemonOptions});
 * - the daemon's stop, ticking fake time while it runs ({@link SimRig.stopDaemon}).
 *
 * The caller starts the market when it wants (`startMarket`), builds the daemon (or hands the
 * pointed config to `runDaemon`) and decides what the run is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { MmConfig } from '../../config/schema.js';
import type { Daemon } from '../../daemon/daemon.js';
import type { DaemonCloseOptions, DaemonOptions, ShutdownReport } from '../../daemon/daemon-types.js';
import type { PartyIdentity } from '../../daemon/startup/party-identity.js';
import { partyStorePath } from '../../daemon/startup/party-store.js';
import type { Signer } from '../../signing/signer.js';
import { IN_PROCESS_BASE_URL, IN_PROCESS_SUBMIT_URL } from '../../sim/in-process-transport.js';
import type { LatencyProfile } from '../../sim/latency.js';
import type { SimConfig } from '../../sim/sim-config.js';
import { SimVenue } from '../../sim/sim-venue.js';
import type { RetentionOptions } from '../../sim/truth/history-retention.js';
import type { Transport } from '../../venue/transport.js';
import { daemonApiKey, withDaemonParties } from './daemon-account.js';
import type { RigKey } from './rig-keys.js';
import type { RigTime } from './rig-time.js';

/**
 * The `LEDGER_MM_*` variables of the venue and the keys, which the rig sets itself: a caller drops
 * them from the environment it inherits (the store path is the caller's to keep or drop).
 */
export const RIG_OWNED_ENV: readonly string[] = [
  'LEDGER_MM_BASE_URL',
  'LEDGER_MM_SUBMIT_URL',
  'LEDGER_MM_API_KEY',
  'LEDGER_MM_API_KEY_FILE',
  'LEDGER_MM_SIGNING_KEY_FILE',
];

/** How the daemon reaches the venue. */
export type RigLink =
  | {
      readonly kind: 'in-process';
      /** The transport's answers (`SimVenue.createTransport`); default parsed values. */
      readonly answers?: 'values' | 'text' | 'typed';
    }
  | {
      readonly kind: 'http';
      /** Ports on 127.0.0.1; 0 (the default) picks free ones. */
      readonly port?: number;
      readonly submitPort?: number;
    };

/** Bounds of the venue's ground-truth logs and retained history, for sessions that run for days. */
export interface HistoryBounds {
  /** Entries each ground-truth log keeps. */
  readonly truthLimit: number;
  /** How long ended orders and dead commands are kept, and how many public trades. */
  readonly history: RetentionOptions;
}

/** Options of {@link SimRig.start}. */
export interface SimRigOptions {
  /** The venue's config; its first account is the daemon's (split over the parties). */
  readonly sim: SimConfig;
  readonly latency: LatencyProfile;
  readonly seed?: number | string;
  readonly time: RigTime;
  /** Wraps the clock the venue runs on (a bench metering the venue's timers). */
  readonly venueClock?: (clock: Clock) => Clock;
  /** One key per party (at least one). */
  readonly keys: readonly RigKey[];
  readonly link: RigLink;
  /** The daemon's journal; its directory is kept. Default `journal.sqlite` in a scratch directory. */
  readonly storePath?: string;
  /** Where a scratch directory goes: `memory` (/dev/shm when there is one, default) or `disk`. */
  readonly scratch?: 'memory' | 'disk';
  /** Default none: every log keeps everything. */
  readonly bounds?: HistoryBounds;
}

/** One party of the daemon on the rig. */
export interface RigParty {
  /** `p1`, `p2`… */
  readonly name: string;
  readonly slug: string;
  readonly partyId: string;
  readonly apiKey: string;
  readonly key: RigKey;
  /** Its journal (the first party's is the rig's store path, the others beside it). */
  readonly storePath: string;
}

/** Where the daemon finds the venue. */
export interface RigUrls {
  readonly baseUrl: string;
  readonly submitUrl: string;
  /** The operator's endpoints over HTTP; null in-process. */
  readonly adminUrl: string | null;
}

/** See the module doc. */
export class SimRig {
  readonly venue: SimVenue;
  readonly time: RigTime;
  readonly parties: readonly RigParty[];
  readonly urls: RigUrls;
  /** The in-process transport; null over HTTP (the daemon's own undici pools). */
  readonly transport: Transport | null;
  /** The directory of the journals (and key files). */
  readonly dir: string;
  readonly storePath: string;
  private readonly scratch: boolean;

  private constructor(parts: {
    venue: SimVenue;
    time: RigTime;
    parties: RigParty[];
    urls: RigUrls;
    transport: Transport | null;
    dir: string;
    storePath: string;
    scratch: boolean;
  }) {
    this.venue = parts.venue;
    this.time = parts.time;
    this.parties = parts.parties;
    this.urls = parts.urls;
    this.transport = parts.transport;
    this.dir = parts.dir;
    this.storePath = parts.storePath;
    this.scratch = parts.scratch;
  }

  /** Builds the venue and the accounts, and opens the link; the market is not started. */
  static async start(o: SimRigOptions): Promise<SimRig> {
    if (o.keys.length === 0) throw new RangeError('a rig needs at least one party key');
    const { config, accounts } = withDaemonParties(
      o.sim,
      o.keys.map((k) => k.publicKey),
    );
    const venue = new SimVenue({
      config,
      clock: o.venueClock?.(o.time.clock) ?? o.time.clock,
      latency: o.latency,
      ...(o.seed === undefined ? {} : { seed: o.seed }),
    });
    if (o.bounds !== undefined) {
      venue.engine.core.truth.bound(o.bounds.truthLimit);
      venue.engine.retainHistory(o.bounds.history);
    }
    const scratch = o.storePath === undefined;
    const dir = scratch ? scratchDir(o.scratch ?? 'memory') : path.dirname(o.storePath);
    if (!scratch) fs.mkdirSync(dir, { recursive: true });
    const storePath = o.storePath ?? path.join(dir, 'journal.sqlite');
    try {
      const parties = accounts.map((a, i) => {
        const name = `p${i + 1}`;
        return {
          name,
          slug: a.slug,
          partyId: venue.engine.account(a.slug).partyId,
          apiKey: daemonApiKey(venue, a.slug),
          key: o.keys[i]!,
          storePath: partyStorePath(storePath, { name }, i),
        };
      });
      let urls: RigUrls;
      let transport: Transport | null = null;
      if (o.link.kind === 'http') {
        urls = await venue.listen({
          host: '127.0.0.1',
          port: o.link.port ?? 0,
          submitPort: o.link.submitPort ?? 0,
        });
      } else {
        transport = venue.createTransport(o.link.answers === undefined ? {} : { answers: o.link.answers });
        urls = { baseUrl: IN_PROCESS_BASE_URL, submitUrl: IN_PROCESS_SUBMIT_URL, adminUrl: null };
      }
      return new SimRig({ venue, time: o.time, parties, urls, transport, dir, storePath, scratch });
    } catch (err) {
      await venue.close();
      if (scratch) fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** The rig's clock (the daemon's and, unless wrapped, the venue's). */
  get clock(): Clock {
    return this.time.clock;
  }

  /** The first party (the only one of a one-party daemon). */
  get primary(): RigParty {
    return this.parties[0]!;
  }

  /** Starts the venue's market model (reference price, makers, takers) on its clock. */
  startMarket(): void {
    this.venue.startMarket();
  }

  /** `config` pointed at the rig: its venue URLs, the first party's API key, the rig's journal. */
  pointConfig(config: MmConfig): MmConfig {
    const { baseUrl, submitUrl } = this.urls;
    return {
      ...config,
      venue: { ...config.venue, apiKey: this.primary.apiKey, baseUrl, submitUrl },
      store: { ...config.store, path: this.storePath },
    };
  }

  /**
   * The same pointing as `LEDGER_MM_*` variables, for a config loaded (and reloaded, on SIGHUP)
   * from files, as `run` loads it; with the first party's key file when it has one.
   */
  pointEnv(): Readonly<Record<string, string>> {
    const keyFile = this.primary.key.keyFile;
    return {
      LEDGER_MM_BASE_URL: this.urls.baseUrl,
      LEDGER_MM_SUBMIT_URL: this.urls.submitUrl,
      LEDGER_MM_API_KEY: this.primary.apiKey,
      LEDGER_MM_STORE_PATH: this.storePath,
      ...(keyFile === null ? {} : { LEDGER_MM_SIGNING_KEY_FILE: keyFile }),
    };
  }

  /**
   * The parties of a daemon of several, as the daemon takes them built in-process (undefined
   * with one). The i-th entry of `config.firm.parties`, when there is one, lends the i-th party
   * its pairs and sides (the fixed assignments of `firm.allocation: "fixed"`); keys and journals
   * are the rig's.
   */
  partyIdentities(config: MmConfig): PartyIdentity[] | undefined {
    if (this.parties.length === 1) return undefined;
    return this.parties.map((p, i) => {
      const listed = config.firm.parties[i];
      return {
        name: p.name,
        signer: signerOf(p),
        apiKey: p.apiKey,
        storePath: p.storePath,
        ...(listed?.pairs === undefined ? {} : { pairs: listed.pairs }),
        ...(listed?.sides === undefined ? {} : { sides: listed.sides }),
      };
    });
  }

  /**
   * The options of a daemon built in-process on the rig: `o.config` pointed at it, the rig's
   * clock and transport, the first party's signer and, with several, every party. A config held
   * in memory has no files to reload from: `reload` stays the caller's (none by default).
   */
  daemonOptions(o: Omit<DaemonOptions, 'clock' | 'signer' | 'transport' | 'parties'>): DaemonOptions {
    const parties = this.partyIdentities(o.config);
    return {
      ...o,
      config: this.pointConfig(o.config),
      clock: this.clock,
      signer: signerOf(this.primary),
      ...(this.transport === null ? {} : { transport: this.transport }),
      ...(parties === undefined ? {} : { parties }),
    };
  }

  /** Stops `daemon` (under fake time, ticking until it has stopped); see `Daemon.close`. */
  stopDaemon(daemon: Daemon, options: DaemonCloseOptions = {}): Promise<ShutdownReport> {
    return this.time.drive(daemon.close(options));
  }

  /** Closes the venue; removes a scratch directory. */
  async close(): Promise<void> {
    await this.venue.close();
    if (this.scratch) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

function signerOf(p: RigParty): Signer {
  if (p.key.signer === null) throw new RangeError(`party ${p.name}'s key is a file: the daemon loads it`);
  return p.key.signer;
}

function scratchDir(where: 'memory' | 'disk'): string {
  const shm = '/dev/shm';
  const inMemory = where === 'memory' && fs.existsSync(shm) && fs.statSync(shm).isDirectory();
  return fs.mkdtempSync(path.join(inMemory ? shm : os.tmpdir(), 'ledger-mm-rig-'));
}

/**
 * The daemon's public types: its phases, its constructor and close options (transport, clock,
 * signer, hot reload, the lab's reconciler seam), its timings with their defaults
 * ({@link resolveTuning}), the report of a stop, and {@link DaemonEvent}, the one stream of
 * everything it reports (the engine's events, phases, cycles, reloads, poll failures). Shared by
 * the daemon's startup, trading and reporting parts and by the lab's rigs.
 */
import type { Clock } from '../core/clock.js';
import type { ConfigError } from '../config/errors.js';
import type { LoadConfigOptions } from '../config/load.js';
import type { FileWatcher } from '../config/reload.js';
import type { MmConfig } from '../config/schema.js';
import type { EngineEvent, OrderEngineOptions } from '../execution/engine-types.js';
import type { ExecutionTuning } from '../execution/execution-settings.js';
import type { HedgeVenueFactory } from '../hedge/hedging-setup.js';
import type { Logger } from '../logging/logger.js';
import type { Signer } from '../signing/signer.js';
import type { VenueHooks } from '../venue/exchange.js';
import type { RetryEvent } from '../venue/retry.js';
import type { Transport } from '../venue/transport.js';
import type { planReconcile } from '../strategy/reconciler.js';
import type { PartyIdentity } from './startup/party-identity.js';
import type { PreflightReport } from './startup/preflight.js';
import type { PartyFundingEvent } from './reporting/party-views.js';
import type { SideWatchEvent } from './reporting/side-watch.js';
import type { CycleReport } from './trading/quote-cycle.js';

/** The daemon's life. `preflight` and `recovering` repeat on a slow timer until they pass. */
export type DaemonPhase =
  'created' | 'preflight' | 'recovering' | 'running' | 'closing' | 'closed' | 'failed';

/** Timings of the daemon (ms on its clock). Every one has a default. */
export interface DaemonTuning {
  /** Period of the quote cycle. Default `market.book.intervalMs` (a cycle per book update). */
  readonly cycleMs: number;
  /** Retry period of a failed preflight or recovery. Default 30 s. */
  readonly retryMs: number;
  /** While the account cannot trade (suspended, key failing), GET /account this often. Default 15 s. */
  readonly accountRecheckMs: number;
  /** Period of the orders poller. Default 5 s. */
  readonly ordersPollMs: number;
  /** Period of the inventory and PnL summary in the log. Default 60 s. */
  readonly summaryMs: number;
  /**
   * Tuning of the execution layer (pipeline, cancel pool, resolver, the eviction of terminal
   * orders), e.g. quicker confirmation reads against a fast simulator. Default: the engine's own,
   * made for the real venue.
   */
  readonly engine: Pick<OrderEngineOptions, 'eviction' | 'clientOrderIdEntropy'> & {
    /** Over the config's execution settings (see `executionSettings`). */
    readonly execution?: ExecutionTuning;
  };
}

/** The tuning in force: `partial` over the defaults (the cycle follows the book polls). */
export function resolveTuning(config: MmConfig, partial: Partial<DaemonTuning> = {}): DaemonTuning {
  return {
    cycleMs: config.market.book.intervalMs,
    retryMs: 30_000,
    accountRecheckMs: 15_000,
    ordersPollMs: 5_000,
    summaryMs: 60_000,
    engine: {},
    ...partial,
  };
}

/** Hot reload: the config files and environment the daemon's config was loaded from. */
export interface DaemonReloadOptions {
  readonly load: LoadConfigOptions;
  /** Watch the files (SIGHUP reloads either way). Default true. */
  readonly watch?: boolean;
  /** Injected file watcher (tests). Default `fs.watch`. */
  readonly watcher?: FileWatcher;
  /** Debounce of file events, ms. Default 300. */
  readonly debounceMs?: number;
}

/** Constructor options of the `Daemon`. */
export interface DaemonOptions {
  /** The validated configuration (`loadConfig`). */
  readonly config: MmConfig;
  readonly clock: Clock;
  /** The party's Ed25519 signer (`loadSigner`). */
  readonly signer: Signer;
  readonly logger: Logger;
  /**
   * The venue transport: the in-process simulator, or anything else. Default: undici pools to
   * `venue.baseUrl` and `venue.submitUrl`.
   */
  readonly transport?: Transport;
  /** Jitter source in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** Enables SIGHUP and file-change reloads of the strategy and risk sections. */
  readonly reload?: DaemonReloadOptions;
  /** Observers of the venue client (metrics): responses, 429s, retries. */
  readonly venueHooks?: VenueHooks & { readonly onRetry?: (e: RetryEvent) => void };
  readonly tuning?: Partial<DaemonTuning>;
  /**
   * The reconciler the quote cycle plans with (default `planReconcile`). A seam for the strategy
   * lab (`ledger-mm simulate --compare` plugs its baselines here); the product never sets it.
   */
  readonly reconciler?: ReconcileFn;
  /**
   * The firm's parties when it runs several (config `parties`, keys read): an order engine per
   * party, one market maker (`startup/firm-parties.ts`). Absent or one: the single party of
   * `signer` and `config.venue`, as always.
   */
  readonly parties?: readonly PartyIdentity[];
  /**
   * The hedge venue of a hedged pair (`hedge` config section). Default: ccxt. A seam for the lab:
   * `simulate` plugs the simulated hedge venue here, for the pairs with `hedge.exchange: "sim"`.
   */
  readonly hedgeVenue?: HedgeVenueFactory;
}

/** The signature of the reconciler: desired quotes + own orders → the plan of a cycle. */
export type ReconcileFn = typeof planReconcile;

/** Options of `Daemon.close`. */
export interface DaemonCloseOptions {
  /** Cancel every order held before stopping. Default config `shutdown.cancelOrders`. */
  readonly cancelOrders?: boolean;
  /** Bound on the whole stop, ms. Default config `shutdown.graceMs`. */
  readonly graceMs?: number;
  /** Longest wait for unknown orders to resolve, ms. Default config `shutdown.unknownWaitMs`. */
  readonly unknownWaitMs?: number;
}

/** How a stop went. */
export interface ShutdownReport {
  /** True when every step finished within the bound. */
  readonly completed: boolean;
  readonly cancelOrders: boolean;
  /** Orders of ours not terminal when the daemon let go (0 after a full cancel). */
  readonly activeOrders: number;
  readonly ms: number;
  /** The step the bound cut, when it did. */
  readonly cutAt: string | null;
  /** Orders left with an unknown outcome (journaled: the next start resolves them). */
  readonly unresolved: readonly string[];
}

/** Everything the daemon reports: the engine's events and its own. */
export type DaemonEvent =
  | EngineEvent
  | { readonly type: 'daemon-phase'; readonly phase: DaemonPhase; readonly at: number }
  | { readonly type: 'preflight'; readonly report: PreflightReport; readonly at: number }
  | { readonly type: 'cycle'; readonly report: CycleReport }
  | {
      readonly type: 'config-reload';
      readonly ok: true;
      readonly version: number;
      readonly changed: readonly string[];
      readonly ignored: readonly string[];
      readonly at: number;
    }
  | { readonly type: 'config-reload'; readonly ok: false; readonly error: ConfigError; readonly at: number }
  | {
      readonly type: 'market-poll-failed';
      readonly poller: string;
      readonly error: unknown;
      readonly at: number;
    }
  | { readonly type: 'shutdown'; readonly report: ShutdownReport; readonly at: number }
  | SideWatchEvent
  | PartyFundingEvent;

/**
 * Bringing the daemon up, step by step, each step retried on a slow timer until it passes or the
 * daemon is closed:
 *
 * 1. the preflight of `ledger-mm check` (API key, ACTIVE account, fee exemption, pairs, balances,
 *    signing key against the party). A failure leaves the daemon not ready and signing nothing;
 *    it is run again every `retryMs`, so fixing the account or the key needs no restart. While
 *    GET /balances is read, step 2 may already run beside it (see `provisional-start.ts`);
 * 2. the order engine on the journal: recovery against the venue, then the orders poller. A
 *    venue that cannot be read is retried with a fresh engine; a store held by another process
 *    is fatal (one process per store).
 */
import { sleep, type Clock } from '../../core/clock.js';
import type { MmConfig } from '../../config/schema.js';
import { verificationOf } from '../../config/sections/signing.js';
import { executionSettings } from '../../execution/execution-settings.js';
import type { TradingEngine } from '../../execution/engine-types.js';
import { OrderEngine } from '../../execution/order-engine.js';
import type { PlacementPolicy } from '../../execution/placement/placement-policy.js';
import type { RecoveryReport } from '../../execution/resolve/recovery.js';
import type { Logger } from '../../logging/logger.js';
import { StoreLockedError } from '../../orders/journal/index.js';
import type { Signer } from '../../signing/signer.js';
import type { VenueClient } from '../../venue/client.js';
import type { DaemonTuning } from '../daemon-types.js';
import { runPreflight, type BalancesPendingReport, type PreflightReport } from './preflight.js';

/** What the steps need. */
export interface StartupDeps {
  readonly config: MmConfig;
  readonly venue: VenueClient;
  readonly signer: Signer;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Aborted by close(): every wait ends, nothing more is started. */
  readonly signal: AbortSignal;
  readonly retryMs: number;
}

/** Failed checks of a report, one line each. */
export function failedChecks(report: PreflightReport): string[] {
  return report.checks
    .filter((c) => c.status === 'fail' || c.status === 'skip')
    .map((c) => `${c.name}: ${c.detail}`);
}

/** Waits `ms`; false when the daemon closed meanwhile. */
async function pause(deps: StartupDeps, ms: number): Promise<boolean> {
  try {
    await sleep(deps.clock, ms, deps.signal);
    return true;
  } catch {
    return false;
  }
}

/** What the daemon does around each preflight attempt (the provisional start). */
export interface PreflightHooks {
  /** Everything but the balances passed and GET /balances is still being read (see runPreflight). */
  readonly onBalancesPending?: (early: BalancesPendingReport) => void;
  /** The attempt failed: undo what `onBalancesPending` started, before the retry wait. */
  readonly onFailed?: (report: PreflightReport) => Promise<void>;
}

/**
 * Runs the preflight until it passes; each report goes to `onReport`. Resolves with the passing
 * report, or null when the daemon was closed first.
 */
export async function passPreflight(
  deps: StartupDeps,
  onReport: (report: PreflightReport) => void,
  hooks: PreflightHooks = {},
): Promise<(PreflightReport & { account: NonNullable<PreflightReport['account']> }) | null> {
  const { logger } = deps;
  for (let attempt = 1; !deps.signal.aborted; attempt++) {
    const report = await runPreflight({
      venue: deps.venue,
      key: { fingerprint: deps.signer.fingerprint },
      pairs: deps.config.pairs,
      signal: deps.signal,
      ...(hooks.onBalancesPending === undefined ? {} : { onBalancesPending: hooks.onBalancesPending }),
    });
    if (deps.signal.aborted) return null;
    onReport(report);
    const account = report.account;
    if (report.ok && account !== undefined) {
      logger.info(
        { party: account.partyId, pairs: deps.config.pairs, attempt },
        `preflight passed: ${account.name} (${account.slug}), ${account.status}, fee exempt`,
      );
      return { ...report, account };
    }
    await hooks.onFailed?.(report);
    logger.error(
      { failed: failedChecks(report), attempt, retryInMs: deps.retryMs },
      `preflight failed; not trading, retrying in ${Math.round(deps.retryMs / 1000)} s`,
    );
    if (!(await pause(deps, deps.retryMs))) return null;
  }
  return null;
}

/** What {@link startEngine} needs on top of {@link StartupDeps}. */
export interface EngineStart {
  readonly partyId: string;
  readonly clientOrderIdPrefix: string;
  /** Tuning of the engine: its execution settings over the config's, the eviction, the ids. */
  readonly tuning?: DaemonTuning['engine'];
  /** The engine's placement policy (the daemon's quote cycle and balances gate). */
  readonly policy?: PlacementPolicy;
  /** Period of the orders poller, ms. */
  readonly ordersPollMs: number;
  readonly random?: () => number;
  /** Called with each new engine before it starts (subscribe to its events here). */
  readonly onEngine: (engine: TradingEngine) => void;
  /** Builds the engine of each attempt (a firm of several parties); default one party's own. */
  readonly build?: () => TradingEngine;
}

/** An order engine whose recovery is over, and its report. */
export interface StartedEngine {
  readonly engine: TradingEngine;
  readonly report: RecoveryReport;
}

/** What differs between the order engines of a daemon's parties. */
export interface PartyEngineIdentity {
  readonly venue: VenueClient;
  readonly signer: Signer;
  readonly partyId: string;
  readonly clientOrderIdPrefix: string;
  readonly storePath: string;
}

/**
 * One party's order engine, every other option from the config and the start: the one-party
 * daemon and each party of a firm build theirs here, so the two never drift apart.
 */
export function orderEngineOf(
  deps: StartupDeps,
  start: Omit<EngineStart, 'partyId' | 'clientOrderIdPrefix'>,
  party: PartyEngineIdentity,
): OrderEngine {
  const { config } = deps;
  return new OrderEngine({
    ...party,
    clock: deps.clock,
    recovery: config.recovery,
    settings: executionSettings(config.execution, start.tuning?.execution),
    ...(start.policy === undefined ? {} : { policy: start.policy }),
    verification: verificationOf(config.signing),
    ...(start.tuning?.eviction === undefined ? {} : { eviction: start.tuning.eviction }),
    ...(start.tuning?.clientOrderIdEntropy === undefined
      ? {}
      : { clientOrderIdEntropy: start.tuning.clientOrderIdEntropy }),
    ordersPoll: { intervalMs: start.ordersPollMs, random: start.random },
  });
}

/**
 * Builds the order engine and runs its recovery until it succeeds. Resolves with the started
 * engine and its report, or null when the daemon was closed first. Rejects (logged as fatal)
 * with the StoreLockedError when another process holds the store.
 */
export async function startEngine(deps: StartupDeps, start: EngineStart): Promise<StartedEngine | null> {
  const { logger } = deps;
  for (let attempt = 1; !deps.signal.aborted; attempt++) {
    const engine =
      start.build?.() ??
      orderEngineOf(deps, start, {
        venue: deps.venue,
        signer: deps.signer,
        partyId: start.partyId,
        clientOrderIdPrefix: start.clientOrderIdPrefix,
        storePath: deps.config.store.path,
      });
    start.onEngine(engine);
    try {
      const report = await engine.start();
      if (deps.signal.aborted) {
        await engine.close();
        return null;
      }
      return { engine, report };
    } catch (err) {
      await engine.close().catch(() => undefined);
      if (err instanceof StoreLockedError) {
        logger.fatal({ err }, 'cannot start the order engine: the store is in use');
        throw err;
      }
      if (deps.signal.aborted) return null;
      logger.error(
        { err, attempt, retryInMs: deps.retryMs },
        `recovery failed; not trading, retrying in ${Math.round(deps.retryMs / 1000)} s`,
      );
      if (!(await pause(deps, deps.retryMs))) return null;
    }
  }
  return null;
}

/**
 * The graceful stop, bounded by `graceMs` from its start (config `shutdown.graceMs`, default
 * 150 s: long enough for an in-flight submission, whose client timeout is 130 s, and for the
 * cancels that run alongside it):
 *
 * 1. stop deciding: the quote cycle and the account recheck end; no intent is queued any more;
 * 2. stop placing: every queued intent is aborted (the pipeline drops it, or abandons it before
 *    signing); a submission already sent is let finish: cutting it would leave an order whose
 *    fate is unknown;
 * 3. with `cancelOrders` (config `shutdown.cancelOrders`, default true), cancel every order held,
 *    at once and concurrently with step 2: resting orders go to the cancel pool, an order still
 *    being placed gets a deferred cancel and is cancelled the moment it rests;
 * 4. wait for the last placement to settle and, at most `unknownWaitMs` (config
 *    `shutdown.unknownWaitMs`, default 30 s), for every order whose placement outcome is unknown
 *    to be resolved by a read (resting ones are then cancelled too). Those still unknown stay in
 *    the journal: the stop names them and the next start's recovery resolves them — it is not a
 *    failure, the exit code stays 0;
 * 5. close the order engine within what is left of the bound: its cancel pool drains (a cancel
 *    not yet signed is dropped; one already submitted runs to its confirmation, so its outcome is
 *    recorded; one whose confirmation the bound cuts stays CANCELLING in the journal, read by the
 *    next start before anything is sent), the journal closes last; then the pollers and the
 *    venue client.
 *
 * With `cancelOrders` false nothing new is cancelled, but cancels the quote cycle had already
 * submitted are still drained in step 5: an order is never left with a cancel of unknown fate
 * when the bound allows reading it.
 *
 * The last part of the bound (a quarter, at most 2 s) is kept for step 5's pollers and venue
 * client: an HTTP pool closes only when its requests are done, so it too is cut at the bound.
 * Past the bound the stop gives up where it is and reports it: the journal stays consistent
 * (every write is synchronous), and the next start's recovery settles whatever was left.
 */
import { timeoutSignal, type Clock } from '../core/clock.js';
import { pause, raceSignal } from '../execution/backoff.js';
import type { TradingEngine } from '../execution/engine-types.js';
import { isAwaitingConfirmation } from '../orders/fsm/index.js';
import type { Logger } from '../logging/logger.js';
import type { ShutdownReport } from './daemon-types.js';
import type { OrderDispatch } from './trading/order-dispatch.js';

/** What the stop acts on. */
export interface ShutdownParts {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Null when the daemon never got past the preflight. */
  readonly engine: TradingEngine | null;
  readonly dispatch: OrderDispatch | null;
  /** Stops the loops that decide (quote cycle, account recheck); resolves when they are idle. */
  readonly stopLoops: () => Promise<void>;
  /** Closes what is left after the engine: market pollers, the config reloader, the venue client. */
  readonly closeRest: () => Promise<void>;
}

const SETTLE_POLL_MS = 500;
/** Default of `shutdown.unknownWaitMs`. */
const DEFAULT_UNKNOWN_WAIT_MS = 30_000;

/** Stops the daemon; see the module doc. Never rejects. */
export async function shutdown(
  parts: ShutdownParts,
  opts: { readonly cancelOrders: boolean; readonly graceMs: number; readonly unknownWaitMs?: number },
): Promise<ShutdownReport> {
  const { clock, logger, engine, dispatch } = parts;
  const { cancelOrders, graceMs } = opts;
  logger.info({ cancelOrders, graceMs }, `shutting down${cancelOrders ? ', cancelling every order' : ''}`);
  const started = clock.now();
  const reserveMs = Math.min(2_000, Math.floor(opts.graceMs / 4));
  const bound = timeoutSignal(clock, opts.graceMs - reserveMs);
  const left = (): number => Math.max(0, started + opts.graceMs - reserveMs - clock.now());
  let step = 'stop-loops';
  const steps = async (): Promise<'done'> => {
    await parts.stopLoops();
    step = 'stop-placing';
    dispatch?.abortPending();
    if (engine !== null && opts.cancelOrders && engine.state === 'ready') {
      void engine.cancelAll('shutdown');
    }
    await dispatch?.drain();
    if (engine !== null && opts.cancelOrders && engine.state === 'ready') {
      step = 'settle-unknown';
      const waitUntil = clock.now() + (opts.unknownWaitMs ?? DEFAULT_UNKNOWN_WAIT_MS);
      while (engine.orders.active({ foreign: false }).some((o) => isAwaitingConfirmation(o.state))) {
        if (clock.now() >= waitUntil) break;
        if (!(await pause(clock, SETTLE_POLL_MS, bound.signal))) break;
      }
    }
    step = 'close-engine';
    await engine?.close({ cancelAll: opts.cancelOrders, drainMs: left() });
    return 'done';
  };
  let completed = false;
  try {
    completed = (await raceSignal(steps(), bound.signal)) === 'done';
  } catch (err) {
    logger.error({ err, step }, 'shutdown step failed');
  } finally {
    bound.dispose();
  }
  const leftUnknown = unresolvedOrders(engine);
  const rest = timeoutSignal(clock, Math.max(reserveMs, started + opts.graceMs - clock.now()));
  try {
    await raceSignal(parts.closeRest(), rest.signal);
  } catch (err) {
    logger.error({ err }, 'closing the pollers and the venue client failed');
  } finally {
    rest.dispose();
  }
  const activeOrders = activeCount(engine);
  const report: ShutdownReport = {
    completed,
    cancelOrders: opts.cancelOrders,
    activeOrders,
    ms: clock.now() - started,
    cutAt: completed ? null : step,
    unresolved: leftUnknown,
  };
  const stillResting = opts.cancelOrders ? activeOrders - leftUnknown.length : 0;
  if (completed && (leftUnknown.length > 0 || stillResting > 0))
    logger.warn(
      { ...report },
      `stopped in ${(report.ms / 1000).toFixed(1)} s; left in the journal for the next start: ` +
        [
          ...(leftUnknown.length > 0 ? [`to resolve ${leftUnknown.join(', ')}`] : []),
          ...(stillResting > 0 ? [`${stillResting} order(s) whose cancel did not go through`] : []),
        ].join('; '),
    );
  else if (completed) logger.info({ ...report }, `stopped in ${(report.ms / 1000).toFixed(1)} s`);
  else
    logger.error(
      { ...report },
      `shutdown bound of ${opts.graceMs} ms reached during ${step}; exiting anyway`,
    );
  return report;
}

function activeCount(engine: TradingEngine | null): number {
  if (engine === null) return 0;
  try {
    return engine.orders.active().length;
  } catch {
    return 0;
  }
}

/** Our orders whose placement outcome is still unknown, as `key (SIDE pair, STATE)`. */
function unresolvedOrders(engine: TradingEngine | null): string[] {
  if (engine === null) return [];
  try {
    return engine.orders
      .active({ foreign: false })
      .filter((o) => isAwaitingConfirmation(o.state))
      .map((o) => `${o.key} (${o.side} ${o.pair}, ${o.state})`);
  } catch {
    return [];
  }
}

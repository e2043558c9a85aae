/**
 * One cancel sweep of the watchdog, through the daemon's own execution layer: an
 * {@link OrderEngine} on the watchdog's OWN journal (`watchdog.storePath`; the daemon's store may
 * be on the dead host). Its start is the daemon's restart recovery: every order the journal left
 * non-terminal (a cancel in flight when a previous watchdog stopped) is READ before anything is
 * sent again, and every resting order of the party (`GET /orders?status=OPEN&refreshWallet=false`,
 * every page) is adopted into the journal. Then each is cancelled by the cancel pool (current
 * contractId, prepare, echo and clear-signing checks, sign, submit, confirm; at most
 * `execution.cancelConcurrency` at once), the engine is closed, and the OPEN list read again.
 *
 * Nothing here places an order: the engine's placement pipeline is never given an intent.
 */
import { executionSettings } from '../execution/execution-settings.js';
import type { Clock } from '../core/clock.js';
import type { ExecutionConfig } from '../config/schema.js';
import type { CancelOutcome } from '../execution/execution-events.js';
import { OrderEngine, type EngineEvent } from '../execution/order-engine.js';
import type { PreparedVerification } from '../signing/prepared-verifier.js';
import { checkPartyId } from '../signing/fingerprint.js';
import type { Signer } from '../signing/signer.js';
import type { VenueClient } from '../venue/client.js';
import type { Order } from '../venue/schemas.js';
import type { CancelFailureReason } from './watchdog-metrics.js';

/** What one sweep did. */
export interface SweepReport {
  /** Orders this sweep's cancel submissions took off the book. */
  readonly cancelled: readonly string[];
  /** Cancels that did not take effect, with why. */
  readonly failures: readonly {
    readonly orderId: string | null;
    readonly reason: CancelFailureReason;
    readonly detail: string;
  }[];
  /** Orders that ended otherwise meanwhile (filled, expired, cancelled by someone else). */
  readonly gone: number;
  /** Resting orders of the party on the re-list after the cancels. */
  readonly left: number;
}

/** Everything a sweep needs. */
export interface SweepDeps {
  readonly venue: VenueClient;
  readonly signer: Signer;
  readonly clock: Clock;
  readonly storePath: string;
  readonly reason: string;
  readonly execution: ExecutionConfig;
  readonly verification: PreparedVerification;
  /** Bound on the drain when the sweep is aborted (submitted cancels submit and confirm within it), ms. */
  readonly drainMs: number;
  /** Engine events (for the log). */
  readonly onEngineEvent?: (e: EngineEvent) => void;
}

/** The account facts a sweep needs (read once from GET /account). */
interface AccountFacts {
  readonly partyId: string;
  readonly clientOrderIdPrefix: string;
}

/** Runs sweeps; caches the account once read. */
export class CancelSweeper {
  private account: AccountFacts | null = null;

  constructor(private readonly d: SweepDeps) {}

  /** The party's resting orders (every page). */
  async listResting(signal?: AbortSignal): Promise<Order[]> {
    const out: Order[] = [];
    const opts = signal === undefined ? {} : { signal };
    for await (const o of this.d.venue.iterateOrders({ status: 'OPEN', refreshWallet: false }, opts))
      out.push(o);
    return out;
  }

  /**
   * One sweep. Rejects when the account cannot be read, the key does not belong to the party, or
   * the journal cannot be opened; cancels that fail are in the report. `signal` (the daemon came
   * back, or the watchdog stops) closes the engine, whose cancel pool drains: queued cancels and
   * those not yet signed are dropped, and a cancel already submitted runs to its confirmation
   * (bounded by `drainMs` and its confirmation window), so a stand-down never loses which orders
   * the watchdog's cancels took off the book. One cut by that bound is an `aborted` failure and
   * stays CANCELLING in the watchdog's journal: the next sweep's recovery reads it first.
   * `onCancelled` is told each order as soon as its cancel is confirmed.
   */
  async sweep(signal: AbortSignal, onCancelled?: (orderId: string) => void): Promise<SweepReport> {
    const account = await this.readAccount();
    const { d } = this;
    const engine = new OrderEngine({
      venue: d.venue,
      signer: d.signer,
      partyId: account.partyId,
      clientOrderIdPrefix: account.clientOrderIdPrefix,
      clock: d.clock,
      storePath: d.storePath,
      recovery: { unknownOrders: 'adopt' },
      settings: executionSettings(d.execution),
      verification: d.verification,
    });
    const submitted = new Set<string>();
    const unsubscribe = engine.subscribe((e) => {
      if (e.type === 'stage' && e.stage === 'cancel-submit') submitted.add(e.key);
      if (e.type === 'cancel' && e.outcome.kind === 'cancelled' && submitted.has(e.outcome.key)) {
        onCancelled?.(e.outcome.orderId ?? e.outcome.key);
      }
      d.onEngineEvent?.(e);
    });
    const onAbort = (): void => void engine.close({ drainMs: d.drainMs });
    signal.addEventListener('abort', onAbort, { once: true });
    let outcomes: CancelOutcome[];
    try {
      await engine.start();
      outcomes = signal.aborted ? [] : await engine.cancelAll(d.reason);
    } finally {
      signal.removeEventListener('abort', onAbort);
      await engine.close({ drainMs: d.drainMs });
      unsubscribe();
    }
    const left = signal.aborted ? -1 : (await this.listResting(signal)).length;
    return { ...summarise(outcomes, submitted), left };
  }

  private async readAccount(): Promise<AccountFacts> {
    if (this.account !== null) return this.account;
    const a = await this.d.venue.getAccount();
    const verdict = checkPartyId(a.partyId, this.d.signer.fingerprint);
    if (verdict.kind === 'mismatch') throw new Error(`refusing to sign: ${verdict.reason}`);
    this.account = { partyId: a.partyId, clientOrderIdPrefix: a.clientOrderIdPrefix };
    return this.account;
  }
}

/** Sorts the cancel outcomes of a sweep. */
export function summarise(
  outcomes: readonly CancelOutcome[],
  submitted: ReadonlySet<string>,
): Omit<SweepReport, 'left'> {
  const cancelled: string[] = [];
  const failures: { orderId: string | null; reason: CancelFailureReason; detail: string }[] = [];
  let gone = 0;
  for (const o of outcomes) {
    switch (o.kind) {
      case 'cancelled':
        if (submitted.has(o.key)) cancelled.push(o.orderId ?? o.key);
        else gone += 1;
        break;
      case 'filled':
      case 'ended':
        gone += 1;
        break;
      case 'stranded':
        failures.push({
          orderId: o.orderId,
          reason: 'stranded',
          detail: 'funds withdrawn; the operator must clear it',
        });
        break;
      case 'echo-mismatch':
        failures.push({ orderId: o.orderId, reason: 'echo_mismatch', detail: o.detail });
        break;
      case 'failed':
        failures.push({
          orderId: o.orderId,
          reason: 'failed',
          detail: `${o.code} after ${o.attempts} attempts`,
        });
        break;
      case 'aborted':
        failures.push({ orderId: o.orderId, reason: 'aborted', detail: o.reason });
        break;
      case 'deferred':
        failures.push({ orderId: o.orderId, reason: 'not_resting', detail: `not resting yet (${o.state})` });
        break;
      case 'unknown-order':
        failures.push({ orderId: o.orderId, reason: 'untracked', detail: 'not in the journal' });
        break;
    }
  }
  return { cancelled, failures, gone };
}

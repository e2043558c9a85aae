/**
 * One placement, steps 2–7 of the pipeline: check (the intent, its slot, the policy's freshness
 * check), the journaled intent, prepare, the exact echo check and the prepared transaction's check
 * (clear signing), the policy's sign permission and freshness again, sign; then the
 * {@link SubmitPhase} and the {@link ConfirmPhase}. Every venue refusal becomes a typed outcome
 * ({@link PrepareRefusal}); nothing here throws to the pipeline. The placement's own state (its
 * key, the policy's last answer) is its {@link Placement}.
 *
 * Exposure-doubling rules enforced here:
 * - a clientOrderId is minted once per intent and reused for every re-prepare (410, local
 *   deadline, LEDGER_COMMAND_REJECTED): the venue is idempotent on it;
 * - a submission is never retried blindly: an ambiguous one goes to UNKNOWN and is READ, and a
 *   429 resends the same signed transaction (nothing was dispatched);
 * - nothing is prepared while an order of ours may still await the ledger (policy `wait`); with
 *   `proceed` the venue's refusal of such a prepare is retried with backoff, and the awaiting
 *   order keeps its own slot (the registry refuses a second order in a slot).
 */
import { timeoutSignal } from '../../core/clock.js';
import { isAwaitingConfirmation as isAwaiting, isBeforeSubmission } from '../../orders/fsm/index.js';
import { SlotOccupiedError } from '../../orders/registry-errors.js';
import { echoFromWire } from '../../orders/wire-events.js';
import { VenueError } from '../../venue/errors.js';
import { delayAt, pause, raceSignal } from '../backoff.js';
import { commitDeadline } from '../resolve/confirm-order.js';
import { ConfirmPhase } from './confirm-phase.js';
import { checkPlacementEcho } from '../prepared-echo.js';
import type { ExecutionContext } from '../execution-context.js';
import type { PlacementOutcome } from '../execution-events.js';
import { intentProblem, prepareBody } from './placement-intent.js';
import {
  Placement,
  READ_SLACK_MS,
  type AbandonReason,
  type OutcomeBody,
  type PlacementEnv,
  type PlacementJob,
} from './placement-state.js';
import { PrepareRefusal } from './prepare-refusal.js';
import { SubmitPhase } from './submit-phase.js';

export type { PlacementEnv, PlacementJob } from './placement-state.js';

/** See the module doc. */
export class PlacementRun {
  private readonly p: Placement;

  constructor(env: PlacementEnv, job: PlacementJob) {
    this.p = new Placement(env, job);
  }

  /** Runs the placement to its outcome. Never rejects. */
  async run(): Promise<PlacementOutcome> {
    try {
      return await this.steps();
    } catch (error) {
      return this.failInternally(error);
    }
  }

  private get ctx(): ExecutionContext {
    return this.p.ctx;
  }

  private get env(): PlacementEnv {
    return this.p.env;
  }

  private get job(): PlacementJob {
    return this.p.job;
  }

  private out(body: OutcomeBody): PlacementOutcome {
    return this.p.out(body);
  }

  private abandon(key: string, why: AbandonReason): PlacementOutcome {
    return this.p.abandon(key, why);
  }

  private busy(): OutcomeBody | null {
    const key = this.p.key;
    const occupant = this.ctx.registry.inSlot(this.job.intent.slot).find((o) => o.key !== key);
    return occupant === undefined
      ? null
      : { kind: 'slot-busy', occupantKey: occupant.key, occupantState: occupant.state };
  }

  private async steps(): Promise<PlacementOutcome> {
    const { intent, signal } = this.job;
    const problem = intentProblem(intent);
    if (problem !== null) return this.out({ kind: 'refused', code: 'INVALID_INTENT' });
    const busy = this.busy();
    if (busy !== null) return this.out(busy);
    if (!this.p.wanted('queued')) return this.out({ kind: 'not-wanted', stage: 'queued' });
    if (!(await this.gate()) || signal.aborted)
      return this.out({ kind: 'aborted', reason: this.job.abortCause() });
    // Time passed at the gate: look again.
    const stillBusy = this.busy();
    if (stillBusy !== null) return this.out(stillBusy);
    if (!this.p.wanted('queued')) return this.out({ kind: 'not-wanted', stage: 'queued' });

    const clientOrderId = this.env.ids.next();
    try {
      // Journaled (writeAhead) before any venue call can carry this clientOrderId.
      this.ctx.registry.createIntent({
        slot: intent.slot,
        pair: intent.pair,
        side: intent.side,
        type: intent.type ?? 'LIMIT',
        price: intent.price,
        quantity: intent.quantity,
        clientOrderId,
        at: this.ctx.now(),
      });
    } catch (err) {
      if (err instanceof SlotOccupiedError) {
        const occ = this.ctx.registry.get(err.occupantKey);
        return this.out({
          kind: 'slot-busy',
          occupantKey: err.occupantKey,
          occupantState: occ?.state ?? 'UNKNOWN',
        });
      }
      throw err;
    }
    this.p.journaled(clientOrderId);
    return this.prepareLoop(clientOrderId);
  }

  /**
   * The venue's one-at-a-time rule: with policy `wait`, no prepare while an order of ours may
   * still await the ledger. Each wait is bounded by that order's commit deadline (5 min +
   * margin): past it, its transaction can no longer be pending, whatever the reads say.
   */
  private async gate(): Promise<boolean> {
    if (this.env.cfg.afterUnknown === 'proceed') return true;
    const { ctx } = this;
    const awaiting = ctx.registry.active({ foreign: false }).filter((o) => isAwaiting(o.state));
    for (const o of awaiting) {
      const left = commitDeadline(o, this.env.cfg.deadlineMarginMs) + READ_SLACK_MS - ctx.now();
      if (left <= 0) continue;
      const bound = timeoutSignal(ctx.clock, left, this.job.signal);
      try {
        await raceSignal(this.env.resolver.track(o.key), bound.signal);
        // A resolver that stopped (closed, journal error) settles nothing: sit the deadline out.
        if (isAwaiting(ctx.order(o.key).state)) await pause(ctx.clock, left, bound.signal);
      } finally {
        bound.dispose();
      }
      if (this.job.signal.aborted) return false;
    }
    return true;
  }

  private async prepareLoop(key: string): Promise<PlacementOutcome> {
    const { ctx } = this;
    const { intent, signal } = this.job;
    const body = prepareBody(intent, key);
    let reprepares = 0;
    let ledgerRejects = 0;
    let refusals = 0;
    for (;;) {
      if (signal.aborted) return this.abandon(key, 'aborted');
      ctx.mustApply(key, { type: 'PrepareStarted', at: ctx.now() });
      const sentAt = ctx.now();
      let result;
      try {
        result = await ctx.timed('prepare', key, () => ctx.venue.prepareOrder(body, { signal }));
      } catch (err) {
        if (!(err instanceof VenueError)) throw err;
        if (err.code === 'LEDGER_COMMAND_REJECTED') {
          // While an order of ours awaits the ledger the refusal is the one-at-a-time rule:
          // retried without a cap (staleness and the task timeout end it); otherwise capped.
          const ownAwaiting = this.othersAwaiting(key);
          if (ownAwaiting || ledgerRejects < this.env.cfg.ledgerRejectRetries) {
            if (!ownAwaiting) ledgerRejects += 1;
            refusals += 1;
            const verdict = await this.afterLedgerReject(key, refusals, err.code);
            if (verdict !== null) return verdict;
            continue;
          }
        }
        return new PrepareRefusal(this.p).outcome(key, err, refusals + 1);
      }
      if (result.status === 201) return new ConfirmPhase(this.p).alreadyLive(key, result.order);

      const echo = checkPlacementEcho(intent, key, result);
      const rec = ctx.mustApply(key, {
        type: 'Prepared',
        orderId: result.order.orderId,
        clientOrderId: key,
        echo: echoFromWire(result.order),
        at: ctx.now(),
      });
      // Clear signing: the hash must be the transaction's, and the transaction our order.
      const refusal =
        !echo.ok || rec.order.state !== 'PREPARED'
          ? echo.diffs.join('; ') || 'the state machine refused the echo'
          : await ctx.verifyPrepared('place', key, result.signing, {
              kind: 'place',
              pair: intent.pair,
              side: intent.side,
              price: intent.price,
              quantity: intent.quantity,
            });
      if (refusal !== null) {
        // Invariant 2: never sign what was not asked for. The state machine ends it REJECTED.
        const detail = refusal;
        if (ctx.order(key).state === 'PREPARED')
          ctx.mustApply(key, { type: 'EchoMismatch', detail, at: ctx.now() });
        ctx.emit({ type: 'echo-refused', operation: 'place', key, detail, at: ctx.now() });
        ctx.alarm('echo-mismatch', key, detail);
        return this.out({ kind: 'echo-mismatch', detail });
      }
      // Nothing is signed before the party may commit funds (the startup's balances read).
      if (!(await this.signAllowed(sentAt))) {
        return this.abandon(key, signal.aborted ? 'aborted' : 'not-signable');
      }
      if (!this.p.wanted('prepared') || rec.order.cancelReason !== null)
        return this.abandon(key, 'not-wanted');
      if (signal.aborted) return this.abandon(key, 'aborted');
      if (ctx.now() - sentAt > this.env.cfg.submitAgeLimitMs) {
        // Too close to the 5-minute deadline to submit safely: re-prepare, same clientOrderId.
        ctx.mustApply(key, { type: 'CacheExpired', at: ctx.now() });
        if (++reprepares > this.env.cfg.maxReprepares) return this.abandon(key, 'expired');
        ctx.emit({
          type: 'retry',
          operation: 're-prepare',
          key,
          code: 'LOCAL_DEADLINE',
          attempt: reprepares,
          at: ctx.now(),
        });
        continue;
      }
      const signature = ctx.sign('sign', key, result.signing);
      ctx.mustApply(key, { type: 'Signed', at: ctx.now() });
      const submitted = await new SubmitPhase(this.p).submit(key, result.signing, signature, sentAt);
      if (submitted !== 'reprepare') return submitted;
      if (++reprepares > this.env.cfg.maxReprepares) return this.abandon(key, 'expired');
      ctx.emit({
        type: 'retry',
        operation: 're-prepare',
        key,
        code: 'CACHE_EXPIRED',
        attempt: reprepares,
        at: ctx.now(),
      });
    }
  }

  /**
   * The policy's permission to sign, waited for at most until the prepared transaction reaches the
   * submit age limit (`sentAt` is its prepare's send); false when it refuses, times out or the
   * task ends. A policy without `maySign` never holds.
   */
  private async signAllowed(sentAt: number): Promise<boolean> {
    const { policy } = this.env;
    if (policy.maySign === undefined) return true;
    const left = sentAt + this.env.cfg.submitAgeLimitMs - this.ctx.now();
    if (left <= 0) return false;
    const bound = timeoutSignal(this.ctx.clock, left, this.job.signal);
    try {
      return (await policy.maySign(bound.signal)) && !bound.signal.aborted;
    } catch {
      return false; // an aborted wait, or a broken policy: never sign on doubt
    } finally {
      bound.dispose();
    }
  }

  /** True when another order of ours is submitted and not yet confirmed (SUBMITTED, UNKNOWN…). */
  private othersAwaiting(key: string): boolean {
    return this.ctx.registry.active({ foreign: false }).some((o) => o.key !== key && isAwaiting(o.state));
  }

  /** LEDGER_COMMAND_REJECTED: check our awaiting orders, back off, re-check freshness. */
  private async afterLedgerReject(
    key: string,
    attempt: number,
    code: string,
  ): Promise<PlacementOutcome | null> {
    const { ctx } = this;
    ctx.emit({ type: 'retry', operation: 'prepare', key, code, attempt, at: ctx.now() });
    // "Check the order": an order of ours still awaiting the ledger is the usual cause.
    for (const o of ctx.registry.active({ foreign: false }).filter((x) => isAwaiting(x.state))) {
      void this.env.resolver.track(o.key);
    }
    const delayMs = delayAt(this.env.cfg.ledgerRejectBackoff, attempt - 1);
    ctx.emit({ type: 'backoff', queue: 'placement', reason: code, delayMs, at: ctx.now() });
    if (!(await pause(ctx.clock, delayMs, this.job.signal))) return this.abandon(key, 'aborted');
    if (!(await this.gate())) return this.abandon(key, 'aborted');
    if (!this.p.wanted('prepared')) return this.abandon(key, 'not-wanted');
    return null;
  }

  /** A bug or a journal failure: never leave a signed transaction behind unaccounted. */
  private failInternally(error: unknown): PlacementOutcome {
    const { ctx } = this;
    const key = this.p.key;
    ctx.alarm('internal-error', key, `placement: ${error instanceof Error ? error.message : String(error)}`);
    const order = key === null ? undefined : ctx.registry.get(key);
    try {
      if (key !== null && order !== undefined && isBeforeSubmission(order.state)) {
        ctx.apply(key, { type: 'Abandoned', reason: 'internal-error', at: ctx.now() });
      } else if (key !== null && order?.state === 'SUBMITTING') {
        // The submission may have gone out: it is UNKNOWN until read.
        ctx.apply(key, { type: 'SubmitAmbiguous', code: 'INTERNAL_ERROR', at: ctx.now() });
        void this.env.resolver.track(key);
      } else if (key !== null && order !== undefined && isAwaiting(order.state)) {
        void this.env.resolver.track(key);
      }
    } catch {
      // The journal itself is failing; the alarm above is all we can do.
    }
    return this.out({ kind: 'failed', code: 'INTERNAL_ERROR', error });
  }
}

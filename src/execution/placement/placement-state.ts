/**
 * One placement's own state, shared by its phases: the job as the pipeline handed it over, what
 * the pipeline lends it ({@link PlacementEnv}), and what it learns on the way (its key and
 * clientOrderId once journaled, the last cause the policy gave for dropping it). It completes
 * every outcome with that identity ({@link Placement.out}), asks the policy
 * ({@link Placement.wanted}), and ends an unsubmitted order ({@link Placement.abandon}).
 *
 * The phases ({@link PlacementRun}: check, prepare, sign; {@link SubmitPhase}; {@link ConfirmPhase};
 * {@link PrepareRefusal}) each hold one `Placement`; none of them reaches into another.
 */
import { isAwaitingConfirmation, isTerminal } from '../../orders/fsm/index.js';
import type { TrackedOrder } from '../../orders/fsm/index.js';
import type { Cooldown } from '../../venue/errors.js';
import type { ClientOrderIdFactory } from './client-order-id.js';
import { hasCommitEvidence, type ExecutionContext } from '../execution-context.js';
import type { AbortCause, PlacementOutcome } from '../execution-events.js';
import type { PlacementSettings } from '../execution-settings.js';
import type { PlacementIntent } from './placement-intent.js';
import type { FreshnessStage, NotWantedCause, PlacementPolicy } from './placement-policy.js';
import type { UnknownResolver } from '../resolve/unknown-resolver.js';

/** What one placement borrows from its pipeline. */
export interface PlacementEnv {
  readonly ctx: ExecutionContext;
  readonly cfg: PlacementSettings;
  readonly ids: ClientOrderIdFactory;
  readonly resolver: UnknownResolver;
  readonly policy: PlacementPolicy;
  /** Holds the next placement back for `ms` (429 and friends). */
  readonly cooldown: (ms: number, reason: string) => void;
}

/** One placement as the pipeline hands it over. */
export interface PlacementJob {
  readonly intentId: string;
  readonly intent: PlacementIntent;
  /** Caller signal + task timeout + close: aborts everything except an in-flight submission. */
  readonly signal: AbortSignal;
  /** Aborted only by the drain deadline of `close()`: the one thing that may cut a submission. */
  readonly submitSignal: AbortSignal;
  readonly abortCause: () => AbortCause;
}

/** The distributive union of outcome bodies (an outcome without its identity fields). */
type Body<T> = T extends unknown ? Omit<T, 'intentId' | 'slot' | 'key' | 'clientOrderId' | 'orderId'> : never;
/** A {@link PlacementOutcome} without the fields the placement fills in. */
export type OutcomeBody = Body<PlacementOutcome>;

/**
 * Why an unsubmitted order is ended. `not-signable`: the policy refused to let it be signed, or
 * held it past its prepared transaction's life.
 */
export type AbandonReason = 'aborted' | 'not-wanted' | 'expired' | 'not-signable';

/** Slack for the read that follows a commit deadline. */
export const READ_SLACK_MS = 20_000;

/** See the module doc. */
export class Placement {
  private keyValue: string | null = null;
  /** The cause the last freshness check gave for dropping the intent (null: none given). */
  private notWanted: NotWantedCause | null = null;

  constructor(
    readonly env: PlacementEnv,
    readonly job: PlacementJob,
  ) {}

  get ctx(): ExecutionContext {
    return this.env.ctx;
  }

  get cfg(): PlacementSettings {
    return this.env.cfg;
  }

  /** The order's key (its clientOrderId) once its intent is journaled, else null. */
  get key(): string | null {
    return this.keyValue;
  }

  /** The intent is journaled under `key` (its clientOrderId). */
  journaled(key: string): void {
    this.keyValue = key;
  }

  /** Completes an outcome with this placement's identity. */
  out(body: OutcomeBody): PlacementOutcome {
    const key = this.keyValue;
    const order = key === null ? undefined : this.ctx.registry.get(key);
    return {
      intentId: this.job.intentId,
      slot: this.job.intent.slot,
      key,
      clientOrderId: key,
      orderId: order?.orderId ?? null,
      ...body,
    };
  }

  /** The policy's freshness check at `stage`; a throwing policy is an alarm and a no. */
  wanted(stage: FreshnessStage): boolean {
    try {
      const answer = this.env.policy.isWanted(this.job.intent, stage);
      this.notWanted = typeof answer === 'string' ? answer : null;
      return answer === true;
    } catch (err) {
      this.ctx.alarm(
        'internal-error',
        this.keyValue,
        `isWanted threw: ${err instanceof Error ? err.message : String(err)}`,
      );
      return false;
    }
  }

  /** Ends an unsubmitted order (an abandoned prepare commits nothing) and builds the outcome. */
  abandon(key: string, why: AbandonReason): PlacementOutcome {
    const { ctx } = this;
    const before = ctx.order(key);
    ctx.mustApply(key, { type: 'Abandoned', reason: why, at: ctx.now() });
    if (before.orderId !== null) {
      const cause = why === 'not-wanted' ? this.notWanted : null;
      ctx.emit({
        type: 'prepare-abandoned',
        key,
        reason: why,
        ...(cause === null ? {} : { cause }),
        at: ctx.now(),
      });
    }
    if (why === 'not-wanted') {
      return this.out({ kind: 'not-wanted', stage: before.orderId === null ? 'queued' : 'prepared' });
    }
    if (why === 'expired') return this.out({ kind: 'failed', code: 'CACHE_EXPIRED' });
    if (why === 'not-signable') return this.out({ kind: 'not-wanted', stage: 'prepared' });
    return this.out({ kind: 'aborted', reason: this.job.abortCause() });
  }

  /** The configured length of a party-wide cooldown the error classification names. */
  cooldownMs(cooldown: Cooldown): number {
    return cooldown === 'rate-limit' ? this.cfg.rateLimitCooldownMs : this.cfg.maxOpenOrdersCooldownMs;
  }
}

/** The outcome body for an order as it stands after its placement. */
export function outcomeOfOrder(order: TrackedOrder, alreadyLive: boolean): OutcomeBody {
  if (isTerminal(order.state)) {
    return hasCommitEvidence(order)
      ? { kind: 'ended', state: order.state }
      : { kind: 'never-committed', state: order.state };
  }
  if (isAwaitingConfirmation(order.state)) return { kind: 'unresolved', state: order.state };
  return { kind: 'placed', state: order.state, alreadyLive };
}

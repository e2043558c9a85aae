import { isAwaitingConfirmation, isTerminal } from '../orders/fsm/index.js';
import type { TrackedOrder } from '../orders/fsm/index.js';
import type { Cooldown } from '../venue/errors.js';
import type { Backoff } from './backoff.js';
import type { ClientOrderIdFactory } from './client-order-id.js';
import { hasCommitEvidence, type ExecutionContext } from './execution-context.js';
import type { AbortCause, PlacementOutcome } from './execution-events.js';
import type { FreshnessCheck, PlacementIntent, SignGate } from './placement-intent.js';
import type { UnknownResolver } from './unknown-resolver.js';

/** The pipeline's tuning, resolved (see `PlacementPipelineOptions` for each field's meaning). */
export interface PlacementConfig {
  readonly afterUnknown: 'wait' | 'proceed';
  readonly confirmWindowMs: number;
  readonly unknownPauseMs: number;
  readonly confirmBackoff: Backoff;
  readonly deadlineMarginMs: number;
  readonly submitAgeLimitMs: number;
  readonly maxReprepares: number;
  readonly ledgerRejectRetries: number;
  readonly ledgerRejectBackoff: Backoff;
  readonly throttleBackoff: Backoff;
  readonly maxResubmits: number;
  readonly rateLimitCooldownMs: number;
  readonly maxOpenOrdersCooldownMs: number;
}

/** What one placement needs from the pipeline. */
export interface PlacementEnv {
  readonly ctx: ExecutionContext;
  readonly cfg: PlacementConfig;
  readonly ids: ClientOrderIdFactory;
  readonly resolver: UnknownResolver;
  /** Holds the next placement back for `ms` (429 and friends). */
  readonly cooldown: (ms: number, reason: string) => void;
  /** Asked before signing (see {@link SignGate}); null: never held. */
  readonly signGate: SignGate | null;
}

/** One placement as the pipeline hands it over. */
export interface PlacementJob {
  readonly intentId: string;
  readonly intent: PlacementIntent;
  readonly isWanted: FreshnessCheck;
  /** Caller signal + task timeout + close: aborts everything except an in-flight submission. */
  readonly signal: AbortSignal;
  /** Aborted only by the drain deadline of `close()`: the one thing that may cut a submission. */
  readonly submitSignal: AbortSignal;
  readonly abortCause: () => AbortCause;
}

/** The distributive union of outcome bodies (an outcome without its identity fields). */
type Body<T> = T extends unknown ? Omit<T, 'intentId' | 'slot' | 'key' | 'clientOrderId' | 'orderId'> : never;
/** A {@link PlacementOutcome} without the fields the run fills in. */
export type OutcomeBody = Body<PlacementOutcome>;

/**
 * Why an unsubmitted order is ended. `not-signable`: the sign gate refused it, or held it past
 * its prepared transaction's life.
 */
export type AbandonReason = 'aborted' | 'not-wanted' | 'expired' | 'not-signable';

/** What the step modules of one placement see of it. */
export interface PlacementScope {
  readonly env: PlacementEnv;
  readonly job: PlacementJob;
  /** Completes an outcome with the placement's identity. */
  out(body: OutcomeBody): PlacementOutcome;
  /** Ends an unsubmitted order (an abandoned prepare commits nothing) and builds the outcome. */
  abandon(key: string, why: AbandonReason): PlacementOutcome;
}

/** Slack for the read that follows a commit deadline. */
export const READ_SLACK_MS = 20_000;

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

/** The configured length of a party-wide cooldown the error classification names. */
export function cooldownMs(cfg: PlacementConfig, cooldown: Cooldown): number {
  return cooldown === 'rate-limit' ? cfg.rateLimitCooldownMs : cfg.maxOpenOrdersCooldownMs;
}

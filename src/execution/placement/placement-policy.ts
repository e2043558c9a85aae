/**
 * The placement pipeline's port to the one who decides what is placed: the engine is given one
 * {@link PlacementPolicy} at construction, and every placement asks it, by its intent, whether it
 * is still wanted (before the prepare and before signing) and whether the party may sign now.
 * The daemon's policy answers from its quote cycle and its balances gate; an engine built alone
 * (tools, tests) places everything and never holds a signature ({@link PLACE_EVERYTHING}).
 */
import type { FreshnessStage, StaleCause } from '../../strategy/freshness.js';
import type { PlacementIntent } from './placement-intent.js';

export type { FreshnessStage } from '../../strategy/freshness.js';

/**
 * Why the policy dropped an intent, when it says: the daemon's own reasons (`cannot-place`: it
 * places nothing now; `no-quote`: the strategy no longer wants the slot; `risk`: the risk gate
 * refuses it) and the price's ({@link StaleCause}: `toxic`, `band`, `prepare-drift`, `size`,
 * `age`). Reported with the abandoned prepare.
 */
export type NotWantedCause = 'cannot-place' | 'no-quote' | 'risk' | StaleCause;

/** See the module doc. */
export interface PlacementPolicy {
  /**
   * The freshness check, pure and sync: true keeps the intent; false, or the cause, drops it.
   * Asked before the prepare (`queued`) and before signing (`prepared`).
   */
  isWanted(intent: PlacementIntent, stage: FreshnessStage): boolean | NotWantedCause;
  /**
   * Whether the party may commit funds now, asked by each placement after its prepare and before
   * its sign-time freshness check: resolves true to go on, false to abandon the prepared order
   * unsigned. It may hold (the daemon holds it while the startup's GET /balances is read); the
   * pipeline bounds the wait by the prepared transaction's life and aborts it through `signal`.
   * Absent: never held (no wait at all).
   */
  maySign?(signal: AbortSignal): Promise<boolean>;
}

/** The policy of an engine built alone: every intent is wanted, nothing is held before signing. */
export const PLACE_EVERYTHING: PlacementPolicy = { isWanted: () => true };

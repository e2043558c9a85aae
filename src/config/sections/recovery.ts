/**
 * The `recovery` config section: what startup recovery (`execution/resolve/recovery.ts`) does
 * with a resting order of the party that the journal does not know: adopt it, cancel it, or
 * ignore it.
 */
import type { SchemaOf } from '../define.js';

/** What to do at startup with a resting order of the party that the journal does not know. */
export const UNKNOWN_ORDER_POLICIES = ['adopt', 'cancel', 'ignore'] as const;
export type UnknownOrderPolicy = (typeof UNKNOWN_ORDER_POLICIES)[number];

export interface RecoveryConfig {
  readonly unknownOrders: UnknownOrderPolicy;
}

export const recoverySchema: SchemaOf<RecoveryConfig> = {
  unknownOrders: {
    doc: 'Resting orders of the party found at startup that the journal does not know: "adopt" (track them as own orders), "cancel" them, or "ignore" them (leave them alone and untracked).',
    format: UNKNOWN_ORDER_POLICIES,
    default: 'adopt',
  },
};

/**
 * The fixed vocabulary of why a side of a pair has no resting quote: the `reason` label of
 * `ledger_mm_side_missing_seconds`, the word in the WARN line and in the per-pair status line.
 * Listed from the most to the least specific: when several hold, the first one is named.
 */
export const SIDE_MISSING_REASONS = [
  /** The API key is refused (401): nothing can be placed or cancelled. */
  'api-key',
  /** The account is not ACTIVE: the venue refuses new placements. */
  'account-not-active',
  /** An operator or the kill switch paused the side (`ledger-mm pause`; until `ledger-mm resume`). */
  'paused',
  /** An order of ours whose placement outcome is unknown holds the side's slot, or the venue's one-at-a-time rule. */
  'unknown-order',
  /** The risk gate halted the pair (stale book, price jump, daily loss, error breaker, unknown pair). */
  'risk-halt',
  /** A risk guard denied the side's placement (inventory, notional, open orders, rate budget). */
  'risk-guard',
  /** The strategy does not quote the side (no reference, a skip rule, the level is disabled). */
  'strategy',
  /** The balance does not cover the order, or balances are not known yet. */
  'funds',
  /** The side's order is being cancelled and its replacement waits for it. */
  'cancelling',
  /** The side's placement waits its turn in the one-at-a-time pipeline, or is under way. */
  'queued',
  /** None of the above could be told from the cycle. */
  'other',
] as const;

/** One reason of {@link SIDE_MISSING_REASONS}. */
export type SideMissingReason = (typeof SIDE_MISSING_REASONS)[number];

/** A reason with its human detail (the blocking order and its state, the rule, the skip). */
export interface SideMissingCause {
  readonly reason: SideMissingReason;
  readonly detail: string;
}

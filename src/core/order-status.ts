/**
 * Venue order statuses, in one place.
 *
 * The contract names only the resting statuses (OPEN, PARTIALLY_FILLED, PENDING_TRIGGER) and
 * says "the full list of statuses: not shown". The terminal names below are the ones the
 * simulated venue uses; the daemon treats any status it does not know as "not resting, not
 * known terminal" and resolves it by reading the order, never by guessing.
 */
export const RESTING_STATUSES = ['OPEN', 'PARTIALLY_FILLED', 'PENDING_TRIGGER'] as const;
/** Terminal statuses as the simulator names them. */
export const TERMINAL_STATUSES = ['FILLED', 'CANCELLED', 'EXPIRED', 'REJECTED'] as const;

export type RestingStatus = (typeof RESTING_STATUSES)[number];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];
/** Every status the project names. */
export type KnownOrderStatus = RestingStatus | TerminalStatus;

/** True for OPEN, PARTIALLY_FILLED and PENDING_TRIGGER. */
export function isRestingStatus(status: string | null | undefined): status is RestingStatus {
  return status != null && (RESTING_STATUSES as readonly string[]).includes(status);
}

/** True for FILLED, CANCELLED, EXPIRED and REJECTED. */
export function isTerminalStatus(status: string | null | undefined): status is TerminalStatus {
  return status != null && (TERMINAL_STATUSES as readonly string[]).includes(status);
}

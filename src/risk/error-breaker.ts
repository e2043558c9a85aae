/**
 * The error-rate breaker. Its input is the count of consecutive placement-pipeline failures
 * (reset to 0 by a success). At `failures` it trips: placements pause for `baseBackoffMs`.
 * When the pause ends the breaker lets placements through again (half-open); one more failure
 * before any success trips it again with twice the pause, capped at `maxBackoffMs`. A success
 * (count back to 0) closes it and resets the backoff. Pure: state + input → state.
 */

/** The breaker's state. */
export interface BreakerState {
  /** Trips since the last success. */
  readonly trips: number;
  /** The current pause ends at this time (ms); null when not paused. */
  readonly openUntil: number | null;
  /** The failure count when it last tripped: only a higher count trips it again. */
  readonly failuresAtTrip: number;
}

/** The breaker's limits. */
export interface BreakerParams {
  readonly failures: number;
  readonly baseBackoffMs: number;
  /** Raised to `baseBackoffMs` when lower. */
  readonly maxBackoffMs: number;
}

/** The result of one step. */
export interface BreakerStep {
  readonly state: BreakerState;
  readonly open: boolean;
  /** True when it tripped on this step. */
  readonly tripped: boolean;
}

/** A closed breaker. */
export const CLOSED_BREAKER: BreakerState = Object.freeze({ trips: 0, openUntil: null, failuresAtTrip: 0 });

/** The pause of the `trip`-th trip (1-based): `base · 2^(trip−1)`, capped. */
export function backoffMs(trip: number, params: BreakerParams): number {
  const cap = Math.max(params.baseBackoffMs, params.maxBackoffMs);
  const exp = Math.min(Math.max(0, trip - 1), 52);
  return Math.min(cap, params.baseBackoffMs * 2 ** exp);
}

/** Advances the breaker to `now` with the current consecutive-failure count. */
export function stepBreaker(
  state: BreakerState,
  consecutiveFailures: number,
  now: number,
  params: BreakerParams,
): BreakerStep {
  const failures = Number.isFinite(consecutiveFailures) ? Math.max(0, Math.floor(consecutiveFailures)) : 0;
  if (failures === 0) return { state: CLOSED_BREAKER, open: false, tripped: false };
  if (state.openUntil !== null && now < state.openUntil) return { state, open: true, tripped: false };
  if (failures >= params.failures && failures > state.failuresAtTrip) {
    const trips = state.trips + 1;
    const openUntil = now + backoffMs(trips, params);
    return { state: { trips, openUntil, failuresAtTrip: failures }, open: true, tripped: true };
  }
  // Pause over (or never tripped): half-open, placements go through.
  const next = state.openUntil === null ? state : { ...state, openUntil: null };
  return { state: next, open: false, tripped: false };
}

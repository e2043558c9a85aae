/**
 * The price-jump guard: when a pair's reference price moves more than `maxMovePct` percent
 * within `windowMs`, the pair is paused for `cooldownMs` (the gate halts it and cancels its
 * quotes). Pure: the samples it compares live in its state.
 *
 * Each new reference (newer `at` than the last sample) is compared with every sample still in
 * the window; a move beyond the limit from any of them trips the guard. On a trip the history is
 * reset to the new price, so after the cooldown the pair resumes unless the price jumps again;
 * a further jump during the pause extends it.
 */
import { Dec, ZERO, compareDec, floatNear } from '../core/decimal.js';

/** One reference price. */
export interface PriceSample {
  readonly at: number;
  readonly price: Dec;
}

/** One pair's guard state. */
export interface PriceJumpState {
  /** Samples within the window, oldest first. */
  readonly samples: readonly PriceSample[];
  /** The pause ends at this time (ms); null when never tripped. */
  readonly pausedUntil: number | null;
}

/** The guard's limits. */
export interface PriceJumpParams {
  /** Percent, e.g. 2 for 2 %. */
  readonly maxMovePct: Dec;
  readonly windowMs: number;
  readonly cooldownMs: number;
}

/** The result of one step. */
export interface PriceJumpStep {
  readonly state: PriceJumpState;
  readonly paused: boolean;
  /** The move that tripped the guard this step, percent; null when it did not trip now. */
  readonly trippedMovePct: Dec | null;
}

/** A guard that has seen nothing. */
export const EMPTY_PRICE_JUMP: PriceJumpState = Object.freeze({
  samples: Object.freeze([]),
  pausedUntil: null,
});

const HUNDRED = new Dec(100);

/**
 * The largest move, percent, from any of `samples` to `price`; zero for no samples.
 *
 * |price − s| / s falls as s rises towards `price` and rises with s above it, so the largest
 * move is from the lowest or the highest positive sample: only those two are divided (the same
 * value as dividing every sample, in a fraction of the time; this runs every quote cycle).
 */
export function largestMovePct(samples: readonly PriceSample[], price: Dec): Dec {
  const { low, high } = extremes(samples);
  let worst = new Dec(0);
  for (const s of low === high ? [low] : [low, high]) {
    if (s === null) continue;
    const move = price.minus(s).abs().div(s).times(HUNDRED);
    if (move.gt(worst)) worst = move;
  }
  return worst;
}

/** The lowest and the highest positive sample price (null when there is none). */
function extremes(samples: readonly PriceSample[]): { low: Dec | null; high: Dec | null } {
  let low: Dec | null = null;
  let high: Dec | null = null;
  // Compared by their doubles where those differ (`compareDec`): a decimal comparison copies its
  // argument, and this loop runs over the whole window on every quote cycle.
  for (const s of samples) {
    if (!(compareDec(s.price, ZERO) > 0)) continue;
    if (low === null || compareDec(s.price, low) < 0) low = s.price;
    if (high === null || compareDec(s.price, high) > 0) high = s.price;
  }
  return { low, high };
}

/**
 * True when the largest move from `samples` to `price` is certainly below `maxMovePct`: its
 * estimate in doubles (`floatNear`; off by less than 5·10⁻¹⁰ percent while the price stays within
 * 10³ times the sample) is under the limit by more than a 10⁻⁸ share of it plus 10⁻⁸ percent. Then the
 * guard does not trip, and the exact decimal move, which is only reported when it trips, is not
 * computed. False decides nothing: the caller computes the exact move.
 */
function clearlyWithin(samples: readonly PriceSample[], price: Dec, maxMovePct: Dec): boolean {
  const { low, high } = extremes(samples);
  const p = floatNear(price);
  const limit = floatNear(maxMovePct) * (1 - 1e-8) - 1e-8;
  for (const s of [low, high]) {
    if (s === null) continue;
    const x = floatNear(s);
    if (!(x > 0) || !(p >= 0 && p <= 1_000 * x)) return false;
    if (!((Math.abs(p - x) / x) * 100 < limit)) return false;
  }
  return true;
}

/**
 * Advances the guard to `now` with the latest reference (null when there is none). A reference
 * that is not positive or not newer than the last sample adds nothing.
 */
export function stepPriceJump(
  state: PriceJumpState,
  reference: PriceSample | null,
  now: number,
  params: PriceJumpParams,
): PriceJumpStep {
  const cutoff = now - params.windowMs;
  const inWindow = state.samples.filter((s) => s.at >= cutoff);
  const last = inWindow[inWindow.length - 1];
  const isNew = reference !== null && reference.price.gt(0) && (last === undefined || reference.at > last.at);
  if (!isNew) {
    const next = inWindow.length === state.samples.length ? state : { ...state, samples: inWindow };
    return { state: next, paused: isPaused(next, now), trippedMovePct: null };
  }
  const move = clearlyWithin(inWindow, reference.price, params.maxMovePct)
    ? null
    : largestMovePct(inWindow, reference.price);
  if (move !== null && move.gt(params.maxMovePct)) {
    const until = Math.max(state.pausedUntil ?? 0, now + params.cooldownMs);
    return {
      state: { samples: [reference], pausedUntil: until },
      paused: now < until,
      trippedMovePct: move,
    };
  }
  const next = { samples: [...inWindow, reference], pausedUntil: state.pausedUntil };
  return { state: next, paused: isPaused(next, now), trippedMovePct: null };
}

function isPaused(state: PriceJumpState, now: number): boolean {
  return state.pausedUntil !== null && now < state.pausedUntil;
}

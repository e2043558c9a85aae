/**
 * A pure token bucket: state + now → state. It budgets placements client-side so the account's
 * `ordersPerMinute` is never reached (venue-api.md section 8: beyond it, 429 RATE_LIMITED).
 *
 * The venue's window is "per minute"; a bucket of capacity C refilled at R per minute admits up
 * to C + R placements in any 60 s window. {@link bucketForLimit} therefore picks
 * `C + R = limit`, so no sliding minute can exceed the limit, whatever the burst.
 *
 * Tokens are counts, not money, so a JS number is right here. Time never runs backwards for the
 * bucket: an earlier `now` refills nothing.
 */

/** The bucket's shape. */
export interface TokenBucketConfig {
  /** Most tokens held (the burst). ≥ 1. */
  readonly capacity: number;
  /** Tokens added per millisecond. ≥ 0. */
  readonly refillPerMs: number;
}

/** The bucket's state. */
export interface TokenBucketState {
  readonly tokens: number;
  /** When `tokens` was last brought up to date, ms. */
  readonly at: number;
}

/** The result of {@link take}. */
export interface TakeResult {
  readonly state: TokenBucketState;
  readonly taken: boolean;
  /** When not taken: ms until enough tokens will be there (Infinity if never). 0 when taken. */
  readonly waitMs: number;
}

const MINUTE_MS = 60_000;

/**
 * The bucket for a per-minute `limit` with a back-to-back `burst`: capacity
 * `min(burst, ⌊limit / 2⌋)` (at least 1) and a refill of `limit − capacity` per minute (at
 * least 1 per minute, so a limit of 1 means one placement every 60 s).
 */
export function bucketForLimit(limit: number, burst: number): TokenBucketConfig {
  const lim = Math.max(1, Math.floor(Number.isFinite(limit) ? limit : 1));
  const capacity = Math.max(1, Math.min(Math.floor(burst), Math.floor(lim / 2)));
  return { capacity, refillPerMs: Math.max(1, lim - capacity) / MINUTE_MS };
}

/** A full bucket at `now`. */
export function fullBucket(config: TokenBucketConfig, now: number): TokenBucketState {
  return { tokens: config.capacity, at: now };
}

/** The state brought up to `now`: refilled, and clamped to the (possibly smaller) capacity. */
export function refill(state: TokenBucketState, config: TokenBucketConfig, now: number): TokenBucketState {
  const elapsed = Math.max(0, now - state.at);
  const tokens = Math.min(config.capacity, state.tokens + elapsed * config.refillPerMs);
  return { tokens, at: Math.max(state.at, now) };
}

/** Takes `n` tokens (default 1) at `now` if there are enough; otherwise takes none. */
export function take(state: TokenBucketState, config: TokenBucketConfig, now: number, n = 1): TakeResult {
  const current = refill(state, config, now);
  // A tiny epsilon absorbs float error from fractional refills (1/60 000 per ms and the like).
  if (current.tokens + 1e-9 >= n) {
    return { state: { tokens: Math.max(0, current.tokens - n), at: current.at }, taken: true, waitMs: 0 };
  }
  const missing = n - current.tokens;
  const waitMs = config.refillPerMs > 0 ? Math.ceil(missing / config.refillPerMs) : Infinity;
  return { state: current, taken: false, waitMs };
}

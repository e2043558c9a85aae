/**
 * The client's retry policy (spec section 7, "Retry policy"):
 *
 * - GETs retry whatever {@link classify} calls `retryable` for a read (5xx, timeouts, network
 *   failures, broken bodies, 429), with jittered exponential backoff, a bounded number of times.
 * - A prepare (order or cancel) retries only transient failures (5xx, timeout, network), and
 *   only when resending the SAME body is idempotent: an order prepare needs a clientOrderId.
 *   4xx, including 429, is never retried unchanged; the caller's rate budget handles it.
 * - A submit is never retried here. Re-sending a submission that may have committed is the
 *   order engine's decision, after it has read the order.
 */
import { sleep, type Clock } from '../core/clock.js';
import { VenueError, classify } from './errors.js';

/** Retry bounds and backoff shape. Attempts count the first try. */
export interface RetryOptions {
  /** Total attempts for a GET. Default 3. */
  readAttempts: number;
  /** Total attempts for an order or cancel prepare. Default 3. */
  prepareAttempts: number;
  /** Backoff before the first retry, before jitter. Default 500 ms. */
  baseDelayMs: number;
  /** Cap on any single backoff. Default 10 000 ms. */
  maxDelayMs: number;
}

/** The defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY: Readonly<RetryOptions> = {
  readAttempts: 3,
  prepareAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
};

/** Fills defaults and validates: attempts are integers ≥ 1, delays are finite and ≥ 0. */
export function resolveRetryOptions(partial: Partial<RetryOptions> = {}): RetryOptions {
  const o = { ...DEFAULT_RETRY, ...partial };
  for (const k of ['readAttempts', 'prepareAttempts'] as const) {
    if (!Number.isSafeInteger(o[k]) || o[k] < 1) throw new RangeError(`retry.${k} must be an integer ≥ 1`);
  }
  for (const k of ['baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(o[k]) || o[k] < 0) throw new RangeError(`retry.${k} must be a finite number ≥ 0`);
  }
  return o;
}

/**
 * The backoff before retry number `retry` (1 for the first retry): exponential in `retry`,
 * capped at `maxDelayMs`, with "equal jitter" (between half and all of the step) drawn from
 * `random`, which returns values in [0, 1).
 */
export function backoffDelay(
  retry: number,
  opts: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  const step = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  const jittered = step / 2 + (step / 2) * r;
  return Math.round(jittered);
}

/** True for a failure that says nothing reached a decision: a 5xx, a timeout, a network error. */
export function isTransient(err: VenueError): boolean {
  if (err.code === 'CLIENT_TIMEOUT' || err.code === 'CLIENT_NETWORK') return true;
  return err.status !== undefined && err.status >= 500;
}

/** Whether a GET failing with `err` is retried. */
export function shouldRetryRead(err: VenueError): boolean {
  return classify(err, 'read') === 'retryable';
}

/** Whether an idempotent prepare (order with clientOrderId, or cancel) failing with `err` is retried. */
export function shouldRetryPrepare(err: VenueError): boolean {
  return classify(err, 'prepare') === 'retryable' && isTransient(err);
}

/** Reported before each backoff sleep. */
export interface RetryEvent {
  endpoint: string;
  /** The attempt that failed, 1-based. */
  attempt: number;
  delayMs: number;
  error: VenueError;
}

/** How {@link withRetry} runs. */
export interface RetryRun {
  endpoint: string;
  attempts: number;
  shouldRetry: (err: VenueError) => boolean;
  /** The backoff after failed attempt `attempt` (1-based) with `err`. */
  delay: (attempt: number, err: VenueError) => number;
  clock: Clock;
  signal?: AbortSignal | undefined;
  onRetry?: ((e: RetryEvent) => void) | undefined;
}

/**
 * Runs `attempt` until it succeeds, fails with an error `shouldRetry` rejects, or runs out of
 * attempts; backs off on the injected clock between tries. The caller's signal aborting during
 * a backoff ends the loop with `CLIENT_ABORTED`. Anything that is not a VenueError is rethrown
 * untouched (a programming error, never retried).
 */
export async function withRetry<T>(run: RetryRun, attempt: (n: number) => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof VenueError) || n >= run.attempts || !run.shouldRetry(err)) throw err;
      const delayMs = run.delay(n, err);
      run.onRetry?.({ endpoint: run.endpoint, attempt: n, delayMs, error: err });
      try {
        await sleep(run.clock, delayMs, run.signal);
      } catch (cause) {
        throw new VenueError({
          code: 'CLIENT_ABORTED',
          message: `${run.endpoint}: aborted during retry backoff`,
          endpoint: run.endpoint,
          cause,
        });
      }
    }
  }
}

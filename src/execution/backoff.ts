/**
 * The execution layer's waiting primitives: a validated geometric {@link Backoff} schedule and
 * its delays, a pause on the injected clock that ends quietly on abort, and a race of a promise
 * against an AbortSignal. Shared by the placement pipeline, the cancel pool, the confirmation and
 * unknown-order reads and the daemon's stop; it owns no state of its own.
 */
import { sleep, type Clock } from '../core/clock.js';

/** A geometric schedule: `initialMs`, then ×`factor` per step, capped at `maxMs`. */
export interface Backoff {
  readonly initialMs: number;
  readonly factor: number;
  readonly maxMs: number;
}

/** Fills defaults and validates a partial schedule. Throws RangeError on nonsense. */
export function backoff(defaults: Backoff, partial: Partial<Backoff> = {}): Backoff {
  const b = { ...defaults, ...partial };
  if (!(b.initialMs >= 0) || !Number.isFinite(b.initialMs))
    throw new RangeError('backoff initialMs must be ≥ 0');
  if (!(b.factor >= 1) || !Number.isFinite(b.factor)) throw new RangeError('backoff factor must be ≥ 1');
  if (!(b.maxMs >= b.initialMs) || !Number.isFinite(b.maxMs))
    throw new RangeError('backoff maxMs must be ≥ initialMs');
  return b;
}

/** The delay before step `n` (0-based): `initialMs × factor^n`, capped. */
export function delayAt(b: Backoff, n: number): number {
  return Math.round(Math.min(b.maxMs, b.initialMs * b.factor ** Math.max(0, n)));
}

/**
 * Sleeps on the injected clock; resolves `false` instead of rejecting when `signal` aborts, so
 * loops can end cleanly.
 */
export async function pause(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return false;
  if (ms <= 0) return true;
  try {
    await sleep(clock, ms, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits for `promise` or for `signal`, whichever first; `null` when the signal won (the promise
 * keeps running and is the caller's to own).
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise<T | null>((resolve, reject) => {
    const onAbort = (): void => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

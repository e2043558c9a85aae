/**
 * The injected source of time. Daemon code never reads `Date.now()` or calls the global timer
 * functions directly: it takes a `Clock`, so the same code runs live, against the simulator
 * over HTTP, and in-process under @sinonjs/fake-timers.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Schedules `fn` after `ms` milliseconds; returns a handle for {@link Clock.clearTimeout}. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer created by {@link Clock.setTimeout}. Unknown handles are ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/** Opaque timer handle. */
export type TimerHandle = { readonly __timer: unique symbol } | object;

/** The real wall clock, backed by the global timer functions. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The subset of a @sinonjs/fake-timers clock that {@link fakeClock} needs. */
export interface FakeTimersLike {
  now: number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/** Adapts a @sinonjs/fake-timers clock (installed or not) to {@link Clock}. */
export function fakeClock(fake: FakeTimersLike): Clock {
  return {
    now: () => fake.now,
    setTimeout: (fn, ms) => fake.setTimeout(fn, ms) as TimerHandle,
    clearTimeout: (handle) => fake.clearTimeout(handle),
  };
}

/**
 * Resolves after `ms` on `clock`, or rejects with the signal's reason when `signal` aborts first.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(abortReason(signal!));
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * An AbortSignal that aborts after `ms` on `clock` (with a `TimeoutError` DOMException, like
 * `AbortSignal.timeout`) or when any of `parents` aborts. Call `dispose` when the work is done
 * so the timer and listeners do not leak.
 */
export function timeoutSignal(
  clock: Clock,
  ms: number,
  ...parents: (AbortSignal | undefined)[]
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handle = clock.setTimeout(() => {
    controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
  }, ms);
  const cleanups: (() => void)[] = [];
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(abortReason(parent));
      break;
    }
    const onAbort = (): void => controller.abort(abortReason(parent));
    parent.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => parent.removeEventListener('abort', onAbort));
  }
  return {
    signal: controller.signal,
    dispose: () => {
      clock.clearTimeout(handle);
      for (const c of cleanups) c();
    },
  };
}

/** The abort reason of `signal` as an Error. */
export function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new DOMException('aborted', 'AbortError');
}

/** True when `err` is the reason a timeout signal from {@link timeoutSignal} aborted with. */
export function isTimeoutReason(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'TimeoutError';
}

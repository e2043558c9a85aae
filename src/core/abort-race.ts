/**
 * Races a call against an AbortSignal: the promise settles with the call, or rejects with
 * `onAbort()`'s error as soon as the signal aborts (at once when it is aborted already, and then
 * the call is never made). The call keeps running after an abort (a library call such as ccxt's
 * cannot be stopped); only its result is dropped. The listener is removed when either side wins.
 *
 * One helper for every call that takes no signal of its own (the hedge executor's bounded venue
 * calls, the ccxt adapter's calls), so the race is written once.
 */

/**
 * `call(signal)`'s result, or `onAbort(before)`'s error when `signal` aborts first: `before` is
 * true when it was aborted before the call was made (nothing was started).
 */
export function raceAbort<T>(
  call: (signal: AbortSignal) => Promise<T>,
  signal: AbortSignal,
  onAbort: (before: boolean) => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(onAbort(true));
      return;
    }
    const abort = (): void => reject(onAbort(false));
    signal.addEventListener('abort', abort, { once: true });
    call(signal)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * One HTTP exchange: a single attempt, with its timeout on the injected clock, the caller's
 * signal, the mapping of transport failures to client codes, and the observability hooks. The
 * retry loop sits above this; the decoding of bodies is passed in.
 */
import { abortReason, isTimeoutReason, timeoutSignal, type Clock } from '../core/clock.js';
import type { EndpointDef } from './endpoints.js';
import { VenueError, type ErrorCode } from './errors.js';
import type { Transport, TransportResponse } from './transport.js';

/** Reported once per request actually sent, whatever its outcome. */
export interface ResponseEvent {
  /** Low-cardinality label, e.g. `GET /orders/{orderId}`. */
  endpoint: string;
  method: 'GET' | 'POST';
  /** HTTP status; undefined when no status arrived (timeout, network failure, abort). */
  status: number | undefined;
  /** The error code when the call failed, success otherwise. */
  code?: ErrorCode;
  durationMs: number;
}

/** Reported on every 429 other than MAX_OPEN_ORDERS (a cap, not a rate). */
export interface RateLimitEvent {
  endpoint: string;
  /** Requests allowed per window, when the venue said (`error.limit`). */
  limit: number | undefined;
  error: VenueError;
}

/** Observers of the client. They must not throw; if one does, the error is swallowed. */
export interface VenueHooks {
  onResponse?: ((e: ResponseEvent) => void) | undefined;
  onRateLimited?: ((e: RateLimitEvent) => void) | undefined;
}

/** Calls an observer, never letting it break the call it observes. */
export function notify<E>(hook: ((e: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    hook(event);
  } catch {
    // Observers observe; a broken metrics callback must not fail a trade.
  }
}

/** One request as the client builds it. */
export interface ExchangeRequest {
  endpoint: EndpointDef;
  url: URL;
  headers: Record<string, string>;
  body?: string | undefined;
  timeoutMs: number;
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
}

/** Dependencies of {@link exchange}. */
export interface ExchangeDeps extends VenueHooks {
  transport: Transport;
  clock: Clock;
}

function abortedError(label: string, caller: AbortSignal): VenueError {
  return new VenueError({
    code: 'CLIENT_ABORTED',
    message: `${label}: aborted by the caller`,
    endpoint: label,
    cause: abortReason(caller),
  });
}

/**
 * Why the call's signal ended it, if it did: the caller's abort wins over our own timeout. The
 * abort always wins the race against the transport, so neither error carries a status, even
 * when headers had arrived and the body was still streaming.
 */
function signalFailure(
  label: string,
  caller: AbortSignal | undefined,
  call: AbortSignal,
  timeoutMs: number,
): VenueError | undefined {
  if (caller?.aborted) return abortedError(label, caller);
  if (call.aborted && isTimeoutReason(call.reason)) {
    return new VenueError({
      code: 'CLIENT_TIMEOUT',
      message: `${label}: no complete answer within ${timeoutMs} ms`,
      endpoint: label,
      cause: call.reason,
    });
  }
  return undefined;
}

/** Rejects when `signal` aborts, so a transport that ignores its signal still cannot hang a call. */
function abortPromise(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let onAbort = (): void => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * Sends `req` once through the transport and hands the response to `decode`. Rejects only with
 * a {@link VenueError}: `CLIENT_ABORTED` when the caller's signal aborts (before sending: nothing
 * is sent), `CLIENT_TIMEOUT` when `timeoutMs` elapses on the clock, `CLIENT_NETWORK` when no
 * status arrived for any other reason, or whatever `decode` throws.
 */
export async function exchange<T>(
  deps: ExchangeDeps,
  req: ExchangeRequest,
  decode: (resp: TransportResponse) => T,
): Promise<T> {
  const { label, method } = req.endpoint;
  if (req.signal?.aborted) throw abortedError(label, req.signal);

  const started = deps.clock.now();
  const timer = timeoutSignal(deps.clock, req.timeoutMs, req.signal);
  const aborted = abortPromise(timer.signal);
  // Raced below; if the transport throws synchronously it never is, and must not go unhandled.
  aborted.promise.catch(() => {});
  let status: number | undefined;
  let code: ErrorCode | undefined;
  try {
    let resp: TransportResponse;
    try {
      const sent = deps.transport.request({
        method,
        url: req.url,
        headers: req.headers,
        body: req.body,
        signal: timer.signal,
      });
      // If the abort wins the race, the transport's own rejection must not go unhandled.
      sent.catch(() => {});
      resp = await Promise.race([sent, aborted.promise]);
    } catch (cause) {
      throw (
        signalFailure(label, req.signal, timer.signal, req.timeoutMs) ??
        new VenueError({
          code: 'CLIENT_NETWORK',
          message: `${label}: request failed before a response arrived`,
          endpoint: label,
          cause,
        })
      );
    }
    status = resp.status;
    return decode(resp);
  } catch (err) {
    if (err instanceof VenueError) {
      code = err.code;
      status ??= err.status;
      if (err.status === 429 && err.code !== 'MAX_OPEN_ORDERS') {
        notify(deps.onRateLimited, { endpoint: label, limit: err.limit, error: err });
      }
    }
    throw err;
  } finally {
    aborted.dispose();
    timer.dispose();
    notify(deps.onResponse, {
      endpoint: label,
      method,
      status,
      ...(code === undefined ? {} : { code }),
      durationMs: deps.clock.now() - started,
    });
  }
}

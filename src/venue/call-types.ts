/** What callers pass to, and get back from, the `VenueClient` methods that are not plain data. */
import type { VenueError } from './errors.js';
import type { Order, SigningEnvelope } from './schemas.js';

/** Options every call accepts. */
export interface CallOptions {
  /** Aborts the call (and any retry backoff) with `CLIENT_ABORTED`. */
  signal?: AbortSignal;
}

/** Result of POST /orders: 202 prepared (sign it), or 201 already resting (nothing to sign). */
export type PrepareOrderResult =
  | { status: 202; order: Order; signing: SigningEnvelope }
  | { status: 201; order: Order; signing: SigningEnvelope | null };

/** Result of POST /orders/{contractId}/cancel. */
export interface PrepareCancelResult {
  status: 200 | 202;
  cancelled: boolean;
  order: Order | undefined;
  signing: SigningEnvelope | null;
}

/**
 * What a submission came to:
 * - `accepted`: dispatched, not yet resting; poll `GET /orders/{orderId}` until it reads OPEN.
 * - `ambiguous`: it may have committed (5xx, timeout, dropped connection, abort mid-flight).
 *   Read `GET /orders/{orderId}` before anything else; never resubmit or re-prepare blindly.
 * - `rejected`: it did not take effect (e.g. 410 CACHE_EXPIRED: prepare again; 429: later).
 */
export type SubmitOutcome =
  { kind: 'accepted' } | { kind: 'ambiguous'; error: VenueError } | { kind: 'rejected'; error: VenueError };

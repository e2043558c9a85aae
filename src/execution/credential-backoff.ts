/**
 * The API key's state as one party's execution layer sees it, shared by every component of one
 * engine (pipeline, cancel pool, resolver, orders poller). Every authenticated read reports its
 * result here; while the venue refuses the key (401: revoked, expired, unknown), the next read of
 * any of them waits the pollers' backoff (`lastingFailureDelayMs`: its own period doubled per
 * consecutive refusal, capped at {@link CREDENTIAL_BACKOFF_MAX_MS}) instead of its usual period.
 * The first accepted call restores the usual periods.
 *
 * Without it, a placement awaiting confirmation went on reading `GET /orders/{id}` every 2 s
 * while the pollers had long backed off.
 */
import { lastingFailureDelayMs } from '../core/poller.js';
import { isCredentialFailure } from '../venue/errors.js';

/** The cap of the backoff while the key is refused: the orders poller's. */
export const CREDENTIAL_BACKOFF_MAX_MS = 60_000;

/** One party's credential state: consecutive refusals of its API key. */
export class CredentialBackoff {
  private refusals = 0;

  /** Consecutive authenticated calls the venue refused for the key (0: the key works). */
  get consecutiveRefusals(): number {
    return this.refusals;
  }

  /** Reports an authenticated call that was answered (any answer but a credential failure). */
  accepted(): void {
    this.refusals = 0;
  }

  /**
   * Reports a failed authenticated call. A credential failure extends the run of refusals; any
   * other failure ends it (like the pollers, which back off only while the last failure is the key).
   */
  failed(error: unknown): void {
    this.refusals = isCredentialFailure(error) ? this.refusals + 1 : 0;
  }

  /**
   * How long to wait before the next authenticated call whose usual wait is `periodMs`: that
   * period while the key works, the pollers' backoff while it is refused.
   */
  delayMs(periodMs: number): number {
    if (this.refusals === 0) return periodMs;
    return lastingFailureDelayMs(periodMs, this.refusals, Math.max(CREDENTIAL_BACKOFF_MAX_MS, periodMs));
  }
}

/**
 * A prepare the venue refused for good, as a typed outcome for the strategy (never a crash). The
 * intent is ended in the registry: PrepareFailed (REJECTED, with the code) for a refusal,
 * Abandoned for a transient failure the client already retried. Nothing of it can be on the book.
 *
 * A code whose classification names a cooldown (RATE_LIMITED, MAX_OPEN_ORDERS) also holds the
 * whole pipeline back: the venue's limits are per party, so the next intent would meet the same
 * answer.
 */
import { classify, cooldownOf, isClientAbort, refusalOf, type VenueError } from '../../venue/errors.js';
import type { PlacementOutcome } from '../execution-events.js';
import type { Placement } from './placement-state.js';

/** The refusal phase of one placement. */
export class PrepareRefusal {
  constructor(private readonly p: Placement) {}

  /** Ends the intent under `key` after the venue refused its prepare with `err`. */
  outcome(key: string, err: VenueError, attempts: number): PlacementOutcome {
    const { p } = this;
    const { ctx, cfg } = p;
    const fail = (): void =>
      void ctx.mustApply(key, { type: 'PrepareFailed', code: err.code, at: ctx.now() });
    // A party-wide limit (the classification names its cooldown) holds the whole pipeline back.
    const cooldown = cooldownOf(err.code);
    if (cooldown !== null) {
      fail();
      p.env.cooldown(p.cooldownMs(cooldown), err.code);
    }
    if (isClientAbort(err)) return p.abandon(key, 'aborted');
    switch (refusalOf(err.code)) {
      case 'ledger-rejected':
        // Checked and backed off already; also how the venue refuses a missing preapproval.
        fail();
        return p.out({ kind: 'ledger-rejected', attempts });
      case 'rate-limited':
        return p.out({
          kind: 'rate-limited',
          retryAfterMs: cfg.rateLimitCooldownMs,
          ...(err.limit === undefined ? {} : { limit: err.limit }),
        });
      case 'max-open-orders':
        return p.out({
          kind: 'max-open-orders',
          ...(err.openOrders === undefined ? {} : { openOrders: err.openOrders }),
          ...(err.maxOpenOrders === undefined ? {} : { maxOpenOrders: err.maxOpenOrders }),
        });
      case 'insufficient-balance':
        fail();
        return p.out({ kind: 'insufficient-balance' });
      case null:
        // Transient failures the client already retried: nothing is on the book; drop the intent.
        if (classify(err, 'prepare') === 'retryable') {
          ctx.mustApply(key, { type: 'Abandoned', reason: `prepare-failed:${err.code}`, at: ctx.now() });
          return p.out({ kind: 'failed', code: err.code });
        }
        fail();
        return p.out({ kind: 'refused', code: err.code });
    }
  }
}

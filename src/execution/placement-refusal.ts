import { classify, cooldownOf, isClientAbort, refusalOf, type VenueError } from '../venue/errors.js';
import type { PlacementOutcome } from './execution-events.js';
import { cooldownMs, type PlacementScope } from './placement-scope.js';

/**
 * A prepare the venue refused for good, as a typed outcome for the strategy (never a crash). The
 * intent is ended in the registry: PrepareFailed (REJECTED, with the code) for a refusal,
 * Abandoned for a transient failure the client already retried. Nothing of it can be on the book.
 *
 * A code whose classification names a cooldown (RATE_LIMITED, MAX_OPEN_ORDERS) also holds the
 * whole pipeline back: the venue's limits are per party, so the next intent would meet the same
 * answer.
 */
export function prepareRefused(
  scope: PlacementScope,
  key: string,
  err: VenueError,
  attempts: number,
): PlacementOutcome {
  const { ctx, cfg } = scope.env;
  const fail = (): void => void ctx.mustApply(key, { type: 'PrepareFailed', code: err.code, at: ctx.now() });
  // A party-wide limit (the classification names its cooldown) holds the whole pipeline back.
  const cooldown = cooldownOf(err.code);
  if (cooldown !== null) {
    fail();
    scope.env.cooldown(cooldownMs(cfg, cooldown), err.code);
  }
  if (isClientAbort(err)) return scope.abandon(key, 'aborted');
  switch (refusalOf(err.code)) {
    case 'ledger-rejected':
      // Checked and backed off already; also how the venue refuses a missing preapproval.
      fail();
      return scope.out({ kind: 'ledger-rejected', attempts });
    case 'rate-limited':
      return scope.out({
        kind: 'rate-limited',
        retryAfterMs: cfg.rateLimitCooldownMs,
        ...(err.limit === undefined ? {} : { limit: err.limit }),
      });
    case 'max-open-orders':
      return scope.out({
        kind: 'max-open-orders',
        ...(err.openOrders === undefined ? {} : { openOrders: err.openOrders }),
        ...(err.maxOpenOrders === undefined ? {} : { maxOpenOrders: err.maxOpenOrders }),
      });
    case 'insufficient-balance':
      fail();
      return scope.out({ kind: 'insufficient-balance' });
    case null:
      // Transient failures the client already retried: nothing is on the book; drop the intent.
      if (classify(err, 'prepare') === 'retryable') {
        ctx.mustApply(key, { type: 'Abandoned', reason: `prepare-failed:${err.code}`, at: ctx.now() });
        return scope.out({ kind: 'failed', code: err.code });
      }
      fail();
      return scope.out({ kind: 'refused', code: err.code });
  }
}

/** Which placement outcomes count as pipeline failures for the error breaker. */
import { describe, expect, it } from 'vitest';
import { isPipelineFailure } from '../../src/daemon/trading/order-dispatch.js';
import type { PlacementOutcome } from '../../src/execution/execution-events.js';

describe('pipeline failures for the error breaker', () => {
  const ref = { intentId: 'i', slot: 's', key: null, clientOrderId: null, orderId: null };
  it.each<[PlacementOutcome, boolean]>([
    [{ ...ref, kind: 'failed', code: 'CLIENT_TIMEOUT' }, true],
    [{ ...ref, kind: 'ledger-rejected', attempts: 6 }, true],
    [{ ...ref, kind: 'refused', code: 'VALIDATION_ERROR' }, true],
    [{ ...ref, kind: 'refused', code: 'MARKET_MAKER_SUSPENDED' }, false],
    [{ ...ref, kind: 'refused', code: 'API_KEY_REVOKED' }, false],
    [{ ...ref, kind: 'not-wanted', stage: 'queued' }, false],
    [{ ...ref, kind: 'rate-limited', retryAfterMs: 1 }, false],
    [{ ...ref, kind: 'insufficient-balance' }, false],
  ])('%o → %s', (outcome, failure) => {
    expect(isPipelineFailure(outcome)).toBe(failure);
  });
});

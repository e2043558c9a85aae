/**
 * The order dispatch: which placement outcomes count as pipeline failures for the error breaker,
 * and how many orders a quote slot may hold at once.
 */
import { dec } from '../../src/core/decimal.js';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { OrderDispatch, isPipelineFailure } from '../../src/daemon/trading/order-dispatch.js';
import type { TradingEngine } from '../../src/execution/engine-types.js';
import type { PlacementOutcome } from '../../src/execution/execution-events.js';
import type { PlaceAction } from '../../src/strategy/quote-types.js';

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

describe('OrderDispatch: how many orders a quote slot may hold (strategy.reconcile.ordersPerSlot)', () => {
  // The slot's registry slots #0 and #1 hold orders (one resting, one being cancelled).
  const occupied = new Set(['BTC/USDC:BUY:0#0', 'BTC/USDC:BUY:0#1']);
  const placed: string[] = [];
  const engine = {
    orders: { inSlot: (slot: string) => (occupied.has(slot) ? [{ key: slot }] : []) },
    // Never settles: the intent stays pending, as while its pipeline runs.
    place: (intent: { slot: string }) => {
      placed.push(intent.slot);
      return new Promise<never>(() => undefined);
    },
  } as unknown as TradingEngine;
  const action: PlaceAction = {
    type: 'place',
    priority: 0,
    replaces: 'BTC/USDC:BUY:0#0',
    quote: {
      slot: 'BTC/USDC:BUY:0',
      pair: 'BTC/USDC',
      side: 'BUY',
      level: 0,
      price: dec('59900'),
      quantity: dec('0.25'),
      reference: dec('60000'),
      referenceAt: 0,
    },
  };
  const clock = { now: () => 0 } as unknown as Clock;

  it.each<[number | undefined, string | null]>([
    [undefined, null],
    [2, null],
    [3, 'BTC/USDC:BUY:0#2'],
    [4, 'BTC/USDC:BUY:0#2'],
  ])('ordersPerSlot %s: the placement goes to %s', (depth, slot) => {
    placed.length = 0;
    const dispatch = new OrderDispatch({
      engine,
      clock,
      ...(depth === undefined ? {} : { ordersPerSlot: () => depth }),
    });
    expect(dispatch.place(action)).toBe(slot !== null);
    expect(placed).toEqual(slot === null ? [] : [slot]);
    expect(dispatch.pendingIn('BTC/USDC:BUY:0#2')?.registrySlot ?? null).toBe(slot);
    // A second placement for the same quote slot waits while the first is pending.
    expect(dispatch.place(action)).toBe(false);
  });
});

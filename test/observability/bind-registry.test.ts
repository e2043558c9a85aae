import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { bindRegistry, observeTransition } from '../../src/observability/bind-registry.js';
import { observeEvent } from '../../src/observability/bind-events.js';
import { OrderRegistry, type TransitionRecord } from '../../src/orders/order-registry.js';
import type { OrderEvent, TrackedOrder } from '../../src/orders/fsm/index.js';
import { INTENT_INPUT, T0, defaultEvent, snap, wireOrder } from '../orders/support/fixtures.js';
import { testMetrics, type TestMetrics } from './support/test-metrics.js';

let t: TestMetrics;
beforeEach(() => {
  t = testMetrics();
});
afterEach(() => t.close());

/** BUY 1 @ 100 placed, then partially filled 0.4 with a rotation, then its residual expired. */
function lifecycle(registry: OrderRegistry): void {
  const created = registry.createIntent(INTENT_INPUT);
  const step = (make: (o: TrackedOrder) => OrderEvent): void => {
    const o = registry.get(created.key)!;
    registry.apply(o.key, make(o));
  };
  for (const type of ['PrepareStarted', 'Prepared', 'Signed', 'SubmitStarted', 'SubmitAccepted'] as const) {
    step((o) => defaultEvent(type, o));
  }
  step((o) => ({ ...defaultEvent('ConfirmedResting', o), contractId: 'c-1' }) as OrderEvent);
  step((o) => snap(o, 'PARTIALLY_FILLED', '0.4', 'c-2'));
  step((o) => snap(o, 'PARTIALLY_FILLED', '0.3', 'c-2')); // a stale read: alarm, nothing applied
  step((o) => snap(o, 'EXPIRED', '0.4'));
}

async function expectLifecycleCounted(): Promise<void> {
  const l = { pair: 'BTC/USDC', side: 'buy' };
  expect(await t.value('ledger_mm_fills_total', l)).toBe(1);
  expect(await t.value('ledger_mm_filled_base_total', l)).toBeCloseTo(0.4, 12);
  expect(await t.value('ledger_mm_filled_quote_total', l)).toBeCloseTo(40, 12);
  expect(await t.value('ledger_mm_contract_rotations_total', { pair: 'BTC/USDC' })).toBe(1);
  expect(await t.value('ledger_mm_residual_expiries_total', { pair: 'BTC/USDC' })).toBe(1);
  expect(await t.value('ledger_mm_order_alarms_total', { reason: 'filled_decreased' })).toBe(1);
}

describe('bindRegistry', () => {
  it('counts fills, volume, notional, rotations, residual expiries and alarms from real transitions', async () => {
    const registry = new OrderRegistry();
    bindRegistry(t.metrics, registry);
    lifecycle(registry);
    await expectLifecycleCounted();
    expect(await t.value('ledger_mm_foreign_orders_adopted_total')).toBe(0);
  });

  it('counts adopted foreign orders, and stops when unsubscribed', async () => {
    const registry = new OrderRegistry();
    const unbind = bindRegistry(t.metrics, registry);
    registry.adoptForeign(wireOrder({ orderId: 'f-1', contractId: 'fc-1', clientOrderId: 'other-1' }), T0);
    expect(await t.value('ledger_mm_foreign_orders_adopted_total')).toBe(1);
    unbind();
    registry.adoptForeign(wireOrder({ orderId: 'f-2', contractId: 'fc-2', clientOrderId: 'other-2' }), T0);
    expect(await t.value('ledger_mm_foreign_orders_adopted_total')).toBe(1);
  });

  it('counts the same from the engine stream (its order observations re-emit the effects)', async () => {
    const registry = new OrderRegistry();
    // What the engine's fill tracker emits for each stored change.
    registry.onTransition((record: TransitionRecord) => {
      observeEvent(t.metrics, { type: 'order-transition', cause: record.cause } as { type: string });
      for (const e of record.effects) {
        const obs =
          e.type === 'fill'
            ? { type: 'fill', fill: e, order: record.order }
            : e.type === 'rotated'
              ? { type: 'order-rotated', rotated: e, order: record.order }
              : e.type === 'terminal'
                ? { type: 'order-terminal', terminal: e, order: record.order }
                : { type: 'order-alarm', alarm: e, order: record.order };
        observeEvent(t.metrics, obs);
      }
    });
    lifecycle(registry);
    await expectLifecycleCounted();
  });

  it('never throws into the registry', () => {
    expect(() => observeTransition(t.metrics, { cause: 'event', effects: null } as never)).not.toThrow();
  });
});

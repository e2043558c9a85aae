import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { orderDiffs } from '../../src/execution/prepared-echo.js';
import { apply } from '../../src/orders/fsm/index.js';
import { echoFromWire } from '../../src/orders/wire-events.js';
import type { Order } from '../../src/venue/schemas.js';
import { CLIENT_ID, ORDER_ID, PAIR, intent, through, wireOrder } from '../orders/support/fixtures.js';

/**
 * One prepared-order check: the pipeline's verdict on a prepare response and the state machine's
 * (Prepared → PREPARED or REJECTED, and the alarm's detail) come from the same function, so they
 * agree on every difference.
 */
const PREPARED_WIRE: Partial<Order> = { contractId: null, status: null, filled: '0' };

const CASES: readonly [string, Partial<Order>][] = [
  ['the same order', {}],
  ['the same price written longer', { price: '100.00' }],
  ['another price', { price: '101' }],
  ['another quantity', { quantity: '2' }],
  ['another side', { side: 'SELL' }],
  ['another pair', { pair: 'ETH/USDC' }],
  ['another type', { type: 'MARKET' }],
  ['another clientOrderId', { clientOrderId: 'someone-else' }],
  ['no clientOrderId echoed', { clientOrderId: null }],
  ['two fields at once', { price: '99', quantity: '3' }],
];

describe('the one prepared-order check', () => {
  it.each(CASES)('%s: the pipeline and the state machine agree', (_name, change) => {
    const wire = wireOrder({ ...PREPARED_WIRE, ...change });
    const preparing = through(intent(), 'PrepareStarted');
    const pipeline = orderDiffs(
      { slot: preparing.slot!, pair: PAIR, side: 'BUY', price: dec('100'), quantity: dec('1') },
      CLIENT_ID,
      wire,
    );
    const { order, effects } = apply(preparing, {
      type: 'Prepared',
      orderId: ORDER_ID,
      clientOrderId: CLIENT_ID,
      echo: echoFromWire(wire),
      at: preparing.updatedAt + 1,
    });
    expect(order.state).toBe(pipeline.length === 0 ? 'PREPARED' : 'REJECTED');
    const alarm = effects.find((e) => e.type === 'alarm');
    expect(alarm === undefined ? [] : alarm.detail.split('; ')).toEqual(pipeline);
  });

  it('an unparseable decimal on the wire is a mismatch before any comparison', () => {
    const wire = wireOrder({ ...PREPARED_WIRE, price: '1e2' });
    expect(
      orderDiffs(
        { slot: 's', pair: PAIR, side: 'BUY', price: dec('100'), quantity: dec('1') },
        CLIENT_ID,
        wire,
      ),
    ).toEqual(['price "1e2" is not a decimal']);
  });
});

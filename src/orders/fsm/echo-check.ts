/**
 * THE prepared-order check (invariant 2: nothing is signed unless the prepared order equals the
 * intent). The state machine runs it on Prepared and PreparedLive; the placement pipeline runs
 * the same function on the prepare response before it signs. Decimals compare with `Dec.eq`
 * (`100.50` equals `100.5`); every other field compares verbatim.
 */
import { toWire } from '../../core/decimal.js';
import type { Dec } from '../../core/decimal.js';
import type { OrderType, Side } from '../../core/order-terms.js';
import type { OrderEcho } from './events.js';

/** What the prepared order must equal: the intent's fields (a {@link TrackedOrder} is one). */
export interface EchoExpectation {
  readonly pair: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly price: Dec | null;
  readonly quantity: Dec;
  readonly clientOrderId: string | null;
}

/** Human-readable differences between the intent and a prepare echo; empty when they match. */
export function echoDiffs(order: EchoExpectation, echo: OrderEcho): string[] {
  const diffs: string[] = [];
  if (echo.pair !== order.pair) diffs.push(`pair ${echo.pair} ≠ ${order.pair}`);
  if (echo.side !== order.side) diffs.push(`side ${echo.side} ≠ ${order.side}`);
  if (echo.type !== order.type) diffs.push(`type ${echo.type} ≠ ${order.type}`);
  const samePrice =
    echo.price === null || order.price === null ? echo.price === order.price : echo.price.eq(order.price);
  if (!samePrice) diffs.push(`price ${wireOrNull(echo.price)} ≠ ${wireOrNull(order.price)}`);
  if (!echo.quantity.eq(order.quantity))
    diffs.push(`quantity ${toWire(echo.quantity)} ≠ ${toWire(order.quantity)}`);
  if (echo.clientOrderId != null && echo.clientOrderId !== order.clientOrderId) {
    diffs.push(`clientOrderId ${echo.clientOrderId} ≠ ${String(order.clientOrderId)}`);
  }
  return diffs;
}

function wireOrNull(v: Dec | null): string {
  return v === null ? 'null' : toWire(v);
}

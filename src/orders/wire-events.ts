/**
 * Translations from the venue's wire `Order` to the state machine's inputs, so pollers and the
 * pipeline never hand-copy fields. Decimal strings are parsed here with `dec()`.
 */
import { dec } from '../core/decimal.js';
import type { Order } from '../venue/schemas.js';
import type { ForeignInput, OrderEcho, PreparedLive, VenueSnapshot, VenueView } from './fsm/index.js';

/** The fields of a prepare response compared with the intent. */
export function echoFromWire(order: Order): OrderEcho {
  return {
    pair: order.pair,
    side: order.side,
    type: order.type,
    price: order.price == null ? null : dec(order.price),
    quantity: dec(order.quantity),
    clientOrderId: order.clientOrderId ?? null,
  };
}

/** What a read says about the order. */
export function viewFromWire(order: Order): VenueView {
  return {
    status: order.status,
    contractId: order.contractId,
    filled: dec(order.filled),
    quantity: dec(order.quantity),
  };
}

/** A {@link VenueSnapshot} event from a read of the order at `at`. */
export function snapshotFromWire(order: Order, at: number): VenueSnapshot {
  return { type: 'VenueSnapshot', ...viewFromWire(order), at };
}

/** A {@link PreparedLive} event from a 201 prepare response (the order was already resting). */
export function preparedLiveFromWire(order: Order, clientOrderId: string, at: number): PreparedLive {
  return {
    type: 'PreparedLive',
    orderId: order.orderId,
    clientOrderId,
    echo: echoFromWire(order),
    status: order.status,
    contractId: order.contractId,
    filled: dec(order.filled),
    at,
  };
}

/** The input of `newForeign` from a resting wire order. */
export function foreignFromWire(order: Order, at: number): ForeignInput {
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId ?? null,
    contractId: order.contractId,
    pair: order.pair,
    side: order.side,
    type: order.type,
    price: order.price == null ? null : dec(order.price),
    quantity: dec(order.quantity),
    filled: dec(order.filled),
    status: order.status,
    at,
  };
}

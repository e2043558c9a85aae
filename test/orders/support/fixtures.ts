import { Dec, dec } from '../../../src/core/decimal.js';
import type { Order } from '../../../src/venue/schemas.js';
import {
  PREPARED_TX_LIFETIME_MS,
  apply,
  currentContractId,
  newIntent,
} from '../../../src/orders/fsm/index.js';
import type {
  IntentInput,
  OrderEcho,
  OrderEffect,
  OrderEvent,
  OrderEventType,
  OrderState,
  TrackedOrder,
  VenueSnapshot,
} from '../../../src/orders/fsm/index.js';

/** Shared builders for the order tests: a canonical order in every state, and default events. */

export const T0 = 1_700_000_000_000;
export const PAIR = 'BTC/USDC';
export const SLOT = 'BTC/USDC:BUY:0';
export const CLIENT_ID = 'acme-0001';
export const ORDER_ID = 'ord-1';

/** An intent: BUY 1 @ 100. */
/** The canonical intent: BUY 1 BTC/USDC @ 100 in slot {@link SLOT} (also for registries that create their own). */
export const INTENT_INPUT: IntentInput = {
  slot: SLOT,
  pair: PAIR,
  side: 'BUY',
  price: dec('100'),
  quantity: dec('1'),
  clientOrderId: CLIENT_ID,
  at: T0,
};

/** The events that take an intent to OPEN, in order ("an order taken to OPEN"). */
export const TO_OPEN = [
  'PrepareStarted',
  'Prepared',
  'Signed',
  'SubmitStarted',
  'SubmitAccepted',
  'ConfirmedResting',
] as const satisfies readonly OrderEventType[];

/**
 * The states {@link TO_OPEN} walks an intent through, as the journal records them: the expected
 * path of "an order taken to OPEN" (written out, not derived from the table, so a test that
 * compares with it checks the table too).
 */
export const STATES_TO_OPEN = [
  'INTENT',
  'PREPARING',
  'PREPARED',
  'SIGNED',
  'SUBMITTING',
  'SUBMITTED',
  'OPEN',
] as const satisfies readonly OrderState[];

export function intent(overrides: Partial<IntentInput> = {}): TrackedOrder {
  return newIntent({ ...INTENT_INPUT, ...overrides });
}

/** The echo a faithful venue returns for `order`. */
export function echoOf(order: TrackedOrder, overrides: Partial<OrderEcho> = {}): OrderEcho {
  return {
    pair: order.pair,
    side: order.side,
    type: order.type,
    price: order.price,
    quantity: order.quantity,
    clientOrderId: order.clientOrderId,
    ...overrides,
  };
}

/** `at` one second after the order's last update. */
export function next(order: TrackedOrder): number {
  return order.updatedAt + 1000;
}

/** Applies events in order, returning the final order and every effect. */
export function run(
  order: TrackedOrder,
  ...events: OrderEvent[]
): { order: TrackedOrder; effects: OrderEffect[] } {
  let o = order;
  const effects: OrderEffect[] = [];
  for (const e of events) {
    const t = apply(o, e);
    o = t.order;
    effects.push(...t.effects);
  }
  return { order: o, effects };
}

/** Applies the default event of each type in turn. */
export function through(order: TrackedOrder, ...types: OrderEventType[]): TrackedOrder {
  let o = order;
  for (const type of types) o = apply(o, defaultEvent(type, o)).order;
  return o;
}

/** A snapshot event. */
export function snap(
  order: TrackedOrder,
  status: string | null,
  filled: string,
  contractId?: string | null,
): VenueSnapshot {
  return {
    type: 'VenueSnapshot',
    status,
    filled: dec(filled),
    contractId: contractId === undefined ? currentContractId(order) : contractId,
    quantity: order.quantity,
    at: next(order),
  };
}

/** A plausible event of `type` for `order`, with no special intent. */
export function defaultEvent(type: OrderEventType, order: TrackedOrder): OrderEvent {
  const at = next(order);
  const contractId = currentContractId(order) ?? 'c-1';
  switch (type) {
    case 'PrepareStarted':
    case 'Signed':
    case 'SubmitStarted':
    case 'SubmitAccepted':
    case 'SubmitThrottled':
    case 'CacheExpired':
    case 'NotFound':
    case 'CancelPrepareStarted':
    case 'CancelSubmitted':
      return { type, at };
    case 'CancelRetry':
      return { type, at, code: 'CLIENT_TIMEOUT' };
    case 'Prepared':
      return {
        type,
        orderId: ORDER_ID,
        clientOrderId: order.clientOrderId ?? CLIENT_ID,
        echo: echoOf(order),
        at,
      };
    case 'PreparedLive':
      return {
        type,
        orderId: ORDER_ID,
        clientOrderId: order.clientOrderId ?? CLIENT_ID,
        echo: echoOf(order),
        status: 'OPEN',
        contractId,
        filled: order.filled,
        at,
      };
    case 'PrepareFailed':
      return { type, code: 'VALIDATION_ERROR', at };
    case 'SubmitRejected':
      return { type, code: 'VALIDATION_ERROR', at };
    case 'SubmitAmbiguous':
      return { type, code: 'CLIENT_TIMEOUT', at };
    case 'EchoMismatch':
      return { type, detail: 'prepared transaction differs', at };
    case 'Abandoned':
      return { type, reason: 'shutdown', at };
    case 'ConfirmedResting':
      return { type, status: 'OPEN', contractId, filled: order.filled, quantity: order.quantity, at };
    case 'VenueSnapshot':
      return { type, status: 'OPEN', contractId, filled: order.filled, quantity: order.quantity, at };
    case 'NeverCommitted':
      return { type, at: Math.max(at, (order.preparedAt ?? T0) + PREPARED_TX_LIFETIME_MS) };
    case 'CancelRequested':
      return { type, reason: 'reprice', at };
    case 'CancelConfirmed':
    case 'CancelFailedCancelled':
      return { type, filled: order.filled, at };
    case 'CancelFailedFilled':
      return { type, filled: order.quantity, at };
    case 'ContractRotated':
      return { type, contractId: `${contractId}-r`, at };
    case 'CancelStranded':
      return { type, detail: 'backing funds withdrawn', at };
  }
}

/** The canonical order in each state, reached through real transitions from an intent. */
export function orderIn(state: OrderState, base: TrackedOrder = intent()): TrackedOrder {
  const path: Record<OrderState, () => TrackedOrder> = {
    INTENT: () => base,
    PREPARING: () => through(base, 'PrepareStarted'),
    PREPARED: () => through(orderIn('PREPARING', base), 'Prepared'),
    SIGNED: () => through(orderIn('PREPARED', base), 'Signed'),
    SUBMITTING: () => through(orderIn('SIGNED', base), 'SubmitStarted'),
    SUBMITTED: () => through(orderIn('SUBMITTING', base), 'SubmitAccepted'),
    UNKNOWN: () => through(orderIn('SUBMITTING', base), 'SubmitAmbiguous'),
    OPEN: () => through(orderIn('SUBMITTED', base), 'ConfirmedResting'),
    PARTIALLY_FILLED: () => {
      const o = orderIn('OPEN', base);
      return apply(o, snap(o, 'PARTIALLY_FILLED', '0.4', 'c-2')).order;
    },
    CANCEL_REQUESTED: () => through(orderIn('OPEN', base), 'CancelRequested'),
    CANCELLING: () => through(orderIn('CANCEL_REQUESTED', base), 'CancelPrepareStarted'),
    STRANDED: () => through(orderIn('CANCELLING', base), 'CancelStranded'),
    FILLED: () => {
      const o = orderIn('OPEN', base);
      return apply(o, snap(o, 'FILLED', '1')).order;
    },
    CANCELLED: () => through(orderIn('CANCELLING', base), 'CancelConfirmed'),
    EXPIRED: () => {
      const o = orderIn('PARTIALLY_FILLED', base);
      return apply(o, snap(o, 'EXPIRED', '0.4')).order;
    },
    REJECTED: () => through(orderIn('PREPARING', base), 'PrepareFailed'),
    ABANDONED: () => through(orderIn('PREPARED', base), 'Abandoned'),
  };
  const o = path[state]();
  if (o.state !== state) throw new Error(`fixture for ${state} ended in ${o.state}`);
  return o;
}

/** A wire order as the venue shows it. */
export function wireOrder(overrides: Partial<Order> = {}): Order {
  return {
    contractId: 'c-1',
    orderId: ORDER_ID,
    pair: PAIR,
    side: 'BUY',
    type: 'LIMIT',
    price: '100',
    quantity: '1',
    filled: '0',
    status: 'OPEN',
    clientOrderId: CLIENT_ID,
    ...overrides,
  };
}

/** Σ of the quantities of the fill effects. */
export function sumFills(effects: readonly OrderEffect[]): Dec {
  return effects.reduce((acc, e) => (e.type === 'fill' ? acc.plus(e.quantity) : acc), new Dec(0));
}

/** Only the effects of one type. */
export function effectsOf<T extends OrderEffect['type']>(
  effects: readonly OrderEffect[],
  type: T,
): Extract<OrderEffect, { type: T }>[] {
  return effects.filter((e): e is Extract<OrderEffect, { type: T }> => e.type === type);
}

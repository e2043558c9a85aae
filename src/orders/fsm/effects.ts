/** What a transition hands the outside world: effects to act on, or the error of an illegal event. */
import type { Dec } from '../../core/decimal.js';
import type { Side } from '../../core/order-terms.js';
import type { OrderEventType } from './events.js';
import type { AlarmReason, TrackedOrder } from './order.js';
import type { OrderState, TerminalState } from './states.js';

/** One execution, derived from a larger cumulative `filled`. Inventory is the sum of these. */
export interface FillEffect {
  readonly type: 'fill';
  readonly key: string;
  readonly orderId: string | null;
  readonly clientOrderId: string | null;
  readonly pair: string;
  readonly side: Side;
  /** The order's limit price (a resting maker order executes at it); null for MARKET. */
  readonly price: Dec | null;
  /** This fill's quantity: the delta of cumulative filled. */
  readonly quantity: Dec;
  /** Cumulative filled after this fill. */
  readonly filled: Dec;
  /** 1-based per order. */
  readonly seq: number;
  readonly contractId: string | null;
  readonly at: number;
}
/** The order now rests under a new contractId; cancels must use `to`. */
export interface RotatedEffect {
  readonly type: 'rotated';
  readonly key: string;
  readonly from: string | null;
  readonly to: string;
  readonly at: number;
}
/** The order reached a terminal state. */
export interface TerminalEffect {
  readonly type: 'terminal';
  readonly key: string;
  readonly state: TerminalState;
  readonly at: number;
}
/** Something needs a human or the risk gate. */
export interface AlarmEffect {
  readonly type: 'alarm';
  readonly key: string;
  readonly reason: AlarmReason;
  readonly detail: string;
  readonly at: number;
}
/** What the outside world must act on after a transition. */
export type OrderEffect = FillEffect | RotatedEffect | TerminalEffect | AlarmEffect;

/** The result of {@link apply}. */
export interface Transition {
  readonly order: TrackedOrder;
  readonly effects: readonly OrderEffect[];
}

/** An event that the table (or a guard) does not allow in the order's state. Nothing changed. */
export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
  /** orderId, or clientOrderId before the order has one, or the key as a last resort. */
  readonly orderRef: string;
  readonly key: string;
  readonly orderId: string | null;
  readonly clientOrderId: string | null;
  readonly state: OrderState;
  readonly eventType: OrderEventType;
  /** Set when a guard refused; undefined when the table has no entry. */
  readonly reason: string | undefined;

  constructor(order: TrackedOrder, eventType: OrderEventType, reason?: string) {
    const ref = order.orderId ?? order.clientOrderId ?? order.key;
    super(
      `order ${ref}: ${eventType} is illegal in ${order.state}${reason === undefined ? '' : `: ${reason}`}`,
    );
    this.orderRef = ref;
    this.key = order.key;
    this.orderId = order.orderId;
    this.clientOrderId = order.clientOrderId;
    this.state = order.state;
    this.eventType = eventType;
    this.reason = reason;
  }
}

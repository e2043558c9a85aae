/**
 * Turns the registry's transition effects into observer events, and fills into inventory.
 *
 * Every writer of order state (placement pipeline, cancel pool, resolver, orders poller,
 * recovery) goes through the registry, and the registry tells its observers after each stored
 * change; so this one subscription sees every fill exactly once, whoever applied the read that
 * revealed it. Fills are already de-duplicated by the state machine (a fill is the delta of a
 * larger cumulative `filled`), so inventory is a plain sum.
 */
import type { OrderRegistry, TransitionRecord } from '../orders/order-registry.js';
import type {
  AlarmEffect,
  FillEffect,
  OrderState,
  RotatedEffect,
  TerminalEffect,
  TrackedOrder,
} from '../orders/fsm/index.js';
import type { Inventory, PairInventory } from './inventory.js';

/** A fill of one of our orders (or an adopted one), with the pair's inventory after it. */
export interface FillEvent {
  readonly type: 'fill';
  readonly fill: FillEffect;
  readonly order: TrackedOrder;
  readonly inventory: PairInventory;
}

/** The state machine raised an alarm on an order (for the risk gate and an alert). */
export interface OrderAlarmEvent {
  readonly type: 'order-alarm';
  readonly alarm: AlarmEffect;
  readonly order: TrackedOrder;
}

/** An order reached a terminal state. */
export interface OrderTerminalEvent {
  readonly type: 'order-terminal';
  readonly terminal: TerminalEffect;
  readonly order: TrackedOrder;
}

/** An order's contractId rotated (cancels must use the new one). */
export interface OrderRotatedEvent {
  readonly type: 'order-rotated';
  readonly rotated: RotatedEffect;
  readonly order: TrackedOrder;
}

/** Any state change (for metrics: transitions by from/to state). */
export interface OrderTransitionEvent {
  readonly type: 'order-transition';
  readonly key: string;
  readonly from: OrderState | null;
  readonly to: OrderState;
  readonly cause: TransitionRecord['cause'];
  readonly eventType: string | null;
}

/** What {@link FillTracker} emits. */
export type OrderObservation =
  FillEvent | OrderAlarmEvent | OrderTerminalEvent | OrderRotatedEvent | OrderTransitionEvent;

/**
 * Subscribes to a registry: applies every fill effect to `inventory` and emits
 * {@link OrderObservation}s. The listener never throws into the registry (an observer that threw
 * would surface as an ObserverError to whoever applied the event): a throwing `emit` is caught
 * and passed to `onEmitError`.
 */
export class FillTracker {
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly registry: OrderRegistry,
    private readonly inventory: Inventory,
    private readonly emit: (event: OrderObservation) => void,
    private readonly onEmitError: (error: unknown) => void = () => {},
  ) {}

  /** Starts observing. Idempotent. */
  attach(): void {
    this.unsubscribe ??= this.registry.onTransition((record) => this.observe(record));
  }

  /** Stops observing. Idempotent. */
  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private observe(record: TransitionRecord): void {
    const { order } = record;
    this.safeEmit({
      type: 'order-transition',
      key: record.key,
      from: record.previous?.state ?? null,
      to: order.state,
      cause: record.cause,
      eventType: record.event?.type ?? null,
    });
    for (const effect of record.effects) {
      switch (effect.type) {
        case 'fill': {
          let inventory: PairInventory;
          try {
            inventory = this.inventory.apply(effect);
          } catch (err) {
            this.onEmitError(err);
            continue;
          }
          this.safeEmit({ type: 'fill', fill: effect, order, inventory });
          break;
        }
        case 'alarm':
          this.safeEmit({ type: 'order-alarm', alarm: effect, order });
          break;
        case 'terminal':
          this.safeEmit({ type: 'order-terminal', terminal: effect, order });
          break;
        case 'rotated':
          this.safeEmit({ type: 'order-rotated', rotated: effect, order });
          break;
      }
    }
  }

  private safeEmit(event: OrderObservation): void {
    try {
      this.emit(event);
    } catch (err) {
      this.onEmitError(err);
    }
  }
}

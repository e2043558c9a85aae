import type { TransitionRecord } from './order-registry.js';

/** `apply` or a lookup named a key the registry does not hold. */
export class UnknownOrderError extends Error {
  override readonly name = 'UnknownOrderError';
  constructor(readonly key: string) {
    super(`no tracked order with key ${key}`);
  }
}

/** A new order for a slot that already holds an active (non-terminal) order. Nothing changed. */
export class SlotOccupiedError extends Error {
  override readonly name = 'SlotOccupiedError';
  constructor(
    readonly slot: string,
    readonly occupantKey: string,
  ) {
    super(`slot ${slot} already holds active order ${occupantKey}`);
  }
}

/** Which index a conflict is in. */
export type OrderIndexName = 'key' | 'orderId' | 'clientOrderId' | 'contractId';

/**
 * An id that already belongs to another tracked order (two orders claiming one venue order, or
 * a reused clientOrderId). Nothing changed.
 */
export class OrderConflictError extends Error {
  override readonly name = 'OrderConflictError';
  constructor(
    readonly index: OrderIndexName,
    readonly id: string,
    readonly existingKey: string,
    readonly incomingKey: string,
  ) {
    super(`${index} ${id} already belongs to order ${existingKey}, not ${incomingKey}`);
  }
}

/**
 * An `onTransition` observer threw. The transition IS committed (`record` is the stored
 * change); the other observers still ran. Observers must not throw: this surfaces the bug.
 */
export class ObserverError extends Error {
  override readonly name = 'ObserverError';
  constructor(
    readonly record: TransitionRecord,
    readonly errors: readonly unknown[],
  ) {
    super(`${errors.length} transition observer(s) threw for order ${record.key}`, { cause: errors[0] });
  }
}

/**
 * The registry's refusals: an unknown key, a slot already held, a conflicting order. (An
 * observer's failure, `ObserverError`, is thrown by the registry itself: `order-registry.ts`.)
 */
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

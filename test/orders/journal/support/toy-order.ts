import { dec } from '../../../../src/core/decimal.js';
import type { Dec } from '../../../../src/core/decimal.js';
import type { FillInput, JournalOrder } from '../../../../src/orders/journal/index.js';

/**
 * A toy order model for the journal tests. The journal is decoupled from the real state machine,
 * so its tests (and the kill -9 child) use this small, deterministic one: replaying its events
 * from the intent must reproduce the stored snapshot exactly.
 */

export type ToySide = 'BUY' | 'SELL';

export interface ToyOrder extends JournalOrder {
  readonly side: ToySide;
  readonly price: Dec;
  readonly version: number;
}

export type ToyEvent =
  | { readonly type: 'Prepared'; readonly orderId: string; readonly at: number }
  | { readonly type: 'Rested'; readonly contractId: string; readonly at: number }
  /** `contractId`: the residual's new contract; null when the fill completes the order. */
  | {
      readonly type: 'Filled';
      readonly quantity: Dec;
      readonly contractId: string | null;
      readonly at: number;
    }
  | { readonly type: 'Cancelled'; readonly at: number };

export const TOY_TERMINAL = ['FILLED', 'CANCELLED'] as const;

export interface ToyIntent {
  readonly key: string;
  readonly slot: string | null;
  readonly pair: string;
  readonly side: ToySide;
  readonly price: Dec;
  readonly quantity: Dec;
  readonly clientOrderId: string;
}

/** A new order in INTENT. */
export function toyIntent(i: ToyIntent): ToyOrder {
  return {
    ...i,
    type: 'LIMIT',
    orderId: null,
    contractIds: [],
    state: 'INTENT',
    filled: dec('0'),
    flags: { foreign: false },
    version: 0,
  };
}

/** A toy intent with defaults, keyed by its clientOrderId. */
export function toy(clientOrderId: string, overrides: Partial<ToyIntent> = {}): ToyOrder {
  return toyIntent({
    key: clientOrderId,
    slot: 'BTC/USDC:BUY:0',
    pair: 'BTC/USDC',
    side: 'BUY',
    price: dec('100.25'),
    quantity: dec('1'),
    clientOrderId,
    ...overrides,
  });
}

/** Applies one event; returns the next order and the fills it produced. Throws on illegal moves. */
export function applyToy(o: ToyOrder, e: ToyEvent): { order: ToyOrder; fills: FillInput[] } {
  const bump = { version: o.version + 1 };
  switch (e.type) {
    case 'Prepared':
      expectState(o, e, ['INTENT']);
      return { order: { ...o, ...bump, orderId: e.orderId, state: 'PREPARED' }, fills: [] };
    case 'Rested':
      expectState(o, e, ['PREPARED']);
      return {
        order: { ...o, ...bump, contractIds: [...o.contractIds, e.contractId], state: 'OPEN' },
        fills: [],
      };
    case 'Filled': {
      expectState(o, e, ['OPEN', 'PARTIALLY_FILLED']);
      const filled = o.filled.plus(e.quantity);
      if (filled.gt(o.quantity)) throw new Error(`toy: overfill of ${o.key}`);
      const done = filled.eq(o.quantity);
      const contractIds = e.contractId === null ? o.contractIds : [...o.contractIds, e.contractId];
      const order: ToyOrder = {
        ...o,
        ...bump,
        filled,
        contractIds,
        state: done ? 'FILLED' : 'PARTIALLY_FILLED',
      };
      const fill: FillInput = {
        orderId: o.orderId,
        key: o.key,
        pair: o.pair,
        side: o.side,
        price: o.price,
        quantity: e.quantity,
        filled,
        contractId: o.contractIds.at(-1) ?? null,
        at: e.at,
      };
      return { order, fills: [fill] };
    }
    case 'Cancelled':
      expectState(o, e, ['OPEN', 'PARTIALLY_FILLED']);
      return { order: { ...o, ...bump, state: 'CANCELLED' }, fills: [] };
  }
}

function expectState(o: ToyOrder, e: ToyEvent, states: string[]): void {
  if (!states.includes(o.state)) throw new Error(`toy: ${e.type} is illegal in ${o.state} (${o.key})`);
}

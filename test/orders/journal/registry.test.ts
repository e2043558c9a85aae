import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { OrderRegistry } from '../../../src/orders/order-registry.js';
import { TERMINAL_STATES } from '../../../src/orders/fsm/index.js';
import type { OrderEventType, TrackedOrder } from '../../../src/orders/fsm/index.js';
import { JournalConflictError, journalWriteAhead, openJournal } from '../../../src/orders/journal/index.js';
import type { Journal } from '../../../src/orders/journal/index.js';
import {
  CLIENT_ID,
  PAIR,
  SLOT,
  STATES_TO_OPEN,
  T0,
  TO_OPEN,
  defaultEvent,
  snap,
  wireOrder,
} from '../support/fixtures.js';
import { steppingClock, useTempStores } from './support/temp-store.js';

/**
 * The journal wired to the real own-orders registry and state machine through
 * `journalWriteAhead`: every registry change is journaled before it is stored, fills go in the
 * same transaction, and a reopened journal restores an identical registry.
 */

const stores = useTempStores();

function openTracked(path: string): Journal<TrackedOrder> {
  return openJournal<TrackedOrder>({ path, clock: steppingClock() });
}

function applyDefaults(registry: OrderRegistry, key: string, ...types: OrderEventType[]): TrackedOrder {
  let o = registry.get(key)!;
  for (const type of types) o = registry.apply(key, defaultEvent(type, o)).order;
  return o;
}

function newRegistry(journal: Journal<TrackedOrder>): OrderRegistry {
  return new OrderRegistry({ writeAhead: journalWriteAhead(journal) });
}

const INTENT = {
  slot: SLOT,
  pair: PAIR,
  side: 'BUY' as const,
  price: dec('100'),
  quantity: dec('1'),
  clientOrderId: CLIENT_ID,
  at: T0,
};

describe('journal + order registry', () => {
  it('journals every registry change before it is stored, fills included', () => {
    const path = stores.tempStore();
    const journal = openTracked(path);
    try {
      const registry = newRegistry(journal);
      registry.createIntent(INTENT);
      expect(journal.findByClientOrderId(CLIENT_ID)?.state).toBe('INTENT');

      const open = applyDefaults(registry, CLIENT_ID, ...TO_OPEN);
      expect(journal.get(CLIENT_ID)).toMatchObject({
        state: 'OPEN',
        orderId: open.orderId,
        contractId: 'c-1',
      });

      const { order, effects } = registry.apply(CLIENT_ID, snap(open, 'PARTIALLY_FILLED', '0.4', 'c-2'));
      expect(effects.some((e) => e.type === 'fill')).toBe(true);
      expect(journal.get(CLIENT_ID)).toMatchObject({ state: order.state, contractId: 'c-2' });
      expect(journal.findByContractId('c-1')?.key).toBe(CLIENT_ID);
      expect(journal.fills(open.orderId!).map((f) => [f.filled.toFixed(), f.delta.toFixed()])).toEqual([
        ['0.4', '0.4'],
      ]);
      expect(journal.transitions(CLIENT_ID).map((t) => t.toState)).toEqual([
        ...STATES_TO_OPEN,
        'PARTIALLY_FILLED',
      ]);
    } finally {
      journal.close();
    }
  });

  it('vetoes a registry change the journal refuses: the registry stays unchanged', () => {
    const journal = openTracked(stores.tempStore());
    try {
      newRegistry(journal).createIntent(INTENT);
      const second = newRegistry(journal);
      expect(() => second.createIntent(INTENT)).toThrow(JournalConflictError);
      expect(second.size).toBe(0);
    } finally {
      journal.close();
    }
  });

  it('restores an identical registry from a reopened journal and keeps journaling', () => {
    const path = stores.tempStore();
    let before: TrackedOrder[];
    const first = openTracked(path);
    try {
      const registry = newRegistry(first);
      registry.createIntent(INTENT);
      registry.createIntent({ ...INTENT, slot: `${SLOT}-2`, clientOrderId: `${CLIENT_ID}-2` });
      const open = applyDefaults(
        registry,
        CLIENT_ID,
        'PrepareStarted',
        'Prepared',
        'Signed',
        'SubmitStarted',
      );
      registry.apply(CLIENT_ID, snap(open, 'PARTIALLY_FILLED', '0.4', 'c-2'));
      registry.adoptForeign(wireOrder({ orderId: 'ord-ext', contractId: 'c-ext', clientOrderId: null }), T0);
      applyDefaults(registry, `${CLIENT_ID}-2`, 'PrepareStarted', 'PrepareFailed');
      before = registry.active();
    } finally {
      first.close();
    }

    const second = openTracked(path);
    try {
      const restored = newRegistry(second);
      for (const stored of second.loadOpenOrders(TERMINAL_STATES)) restored.restore(stored.order);
      expect(restored.active()).toEqual(before);
      expect(restored.byContractId('c-ext')?.flags.foreign).toBe(true);
      expect(second.loadAll()).toHaveLength(3);

      const cancelling = applyDefaults(restored, CLIENT_ID, 'CancelRequested');
      expect(second.get(CLIENT_ID)?.state).toBe(cancelling.state);
    } finally {
      second.close();
    }
  });
});

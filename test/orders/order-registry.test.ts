import { describe, expect, it, vi } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { IllegalTransitionError, ORDER_STATES } from '../../src/orders/fsm/index.js';
import type { IntentInput, OrderEventType, TrackedOrder } from '../../src/orders/fsm/index.js';
import { ObserverError, OrderRegistry } from '../../src/orders/order-registry.js';
import type { TransitionRecord } from '../../src/orders/order-registry.js';
import {
  OrderConflictError,
  SlotOccupiedError,
  UnknownOrderError,
} from '../../src/orders/registry-errors.js';
import {
  PAIR,
  T0,
  TO_OPEN,
  defaultEvent,
  echoOf,
  next,
  orderIn,
  snap,
  wireOrder,
} from './support/fixtures.js';

let seq = 0;
function input(slot: string, overrides: Partial<IntentInput> = {}): IntentInput {
  seq += 1;
  return {
    slot,
    pair: PAIR,
    side: 'BUY',
    price: dec('100'),
    quantity: dec('1'),
    clientOrderId: `acme-${seq}`,
    at: T0,
    ...overrides,
  };
}

/** Drives a registry order through default events, giving it a unique orderId and contractIds. */
function drive(reg: OrderRegistry, key: string, ...types: OrderEventType[]): TrackedOrder {
  for (const type of types) {
    const o = reg.get(key)!;
    let event = defaultEvent(type, o);
    if (event.type === 'Prepared') event = { ...event, orderId: `ord-${key}` };
    if (event.type === 'ConfirmedResting') event = { ...event, contractId: `c-${key}` };
    reg.apply(key, event);
  }
  return reg.get(key)!;
}

describe('OrderRegistry indexes', () => {
  it('resolves key, clientOrderId, orderId (also a pre-re-prepare one) and contractIds', () => {
    const reg = new OrderRegistry();
    const { key } = reg.createIntent(input('S:BUY:0', { clientOrderId: 'acme-idx' }));
    expect(key).toBe('acme-idx');
    expect(reg.byClientOrderId('acme-idx')!.key).toBe(key);
    expect(reg.byOrderId(`ord-${key}`)).toBeUndefined();
    drive(reg, key, 'PrepareStarted', 'Prepared');
    expect(reg.byOrderId(`ord-${key}`)!.key).toBe(key);
    // A re-prepare assigns a new orderId; the old one still resolves.
    drive(reg, key, 'CacheExpired');
    const o = reg.get(key)!;
    reg.apply(key, {
      type: 'Prepared',
      orderId: 'ord-new',
      clientOrderId: 'acme-idx',
      echo: echoOf(o),
      at: next(o),
    });
    expect(reg.byOrderId('ord-new')!.key).toBe(key);
    expect(reg.byOrderId(`ord-${key}`)!.key).toBe(key);
    drive(reg, key, 'Signed', 'SubmitStarted', 'SubmitAccepted', 'ConfirmedResting');
    expect(reg.byContractId(`c-${key}`)!.key).toBe(key);
    expect(reg.isCurrentContractId(`c-${key}`)).toBe(true);
    expect(reg.size).toBe(1);
  });

  it('refuses an id that belongs to another order, changing nothing', () => {
    const reg = new OrderRegistry();
    const a = reg.createIntent(input('S:BUY:0'));
    drive(reg, a.key, 'PrepareStarted', 'Prepared');
    expect(() => reg.createIntent(input('S:BUY:1', { clientOrderId: a.clientOrderId! }))).toThrow(
      OrderConflictError,
    );
    const b = reg.createIntent(input('S:BUY:1'));
    drive(reg, b.key, 'PrepareStarted');
    const before = reg.get(b.key);
    const clash = { ...defaultEvent('Prepared', before!), orderId: `ord-${a.key}` } as const;
    expect(() => reg.apply(b.key, clash)).toThrow(OrderConflictError);
    expect(reg.get(b.key)).toBe(before);
    expect(reg.byOrderId(`ord-${a.key}`)!.key).toBe(a.key);
  });

  it('throws UnknownOrderError for a key it does not hold', () => {
    expect(() => new OrderRegistry().apply('nope', { type: 'Signed', at: 0 })).toThrow(UnknownOrderError);
  });

  it('an illegal event changes nothing', () => {
    const reg = new OrderRegistry();
    const { key } = reg.createIntent(input('S:BUY:0'));
    const before = reg.get(key);
    expect(() => reg.apply(key, { type: 'Signed', at: T0 + 1 })).toThrow(IllegalTransitionError);
    expect(reg.get(key)).toBe(before);
  });
});

describe('slots', () => {
  it('hold at most one active order; a terminal order frees its slot', () => {
    const reg = new OrderRegistry();
    const a = reg.createIntent(input('S:BUY:0'));
    expect(reg.inSlot('S:BUY:0').map((o) => o.key)).toEqual([a.key]);
    const err = (() => {
      try {
        reg.createIntent(input('S:BUY:0'));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SlotOccupiedError);
    expect((err as SlotOccupiedError).occupantKey).toBe(a.key);
    expect(reg.size).toBe(1);
    drive(reg, a.key, 'Abandoned');
    expect(reg.inSlot('S:BUY:0')).toEqual([]);
    const b = reg.createIntent(input('S:BUY:0'));
    expect(reg.inSlot('S:BUY:0').map((o) => o.key)).toEqual([b.key]);
    expect(reg.slotViolations()).toEqual([]);
  });

  it('restore keeps a journal conflict and reports it', () => {
    const reg = new OrderRegistry();
    reg.restore(orderIn('OPEN'));
    const other = { ...orderIn('UNKNOWN'), key: 'k2', clientOrderId: 'acme-k2', orderId: 'ord-k2' };
    reg.restore(other);
    expect(reg.slotViolations()).toEqual([{ slot: 'BTC/USDC:BUY:0', keys: ['acme-0001', 'k2'] }]);
  });
});

describe('queries', () => {
  function populated(): OrderRegistry {
    const reg = new OrderRegistry();
    const open = reg.createIntent(input('S:BUY:0', { price: dec('100'), quantity: dec('2') }));
    drive(reg, open.key, ...TO_OPEN);
    reg.apply(open.key, snap(reg.get(open.key)!, 'PARTIALLY_FILLED', '0.5', `c2-${open.key}`));
    const unknown = reg.createIntent(input('S:BUY:1', { price: dec('99'), quantity: dec('1') }));
    drive(reg, unknown.key, 'PrepareStarted', 'Prepared', 'Signed', 'SubmitStarted', 'SubmitAmbiguous');
    const submitting = reg.createIntent(input('S:BUY:2', { price: dec('98'), quantity: dec('1') }));
    drive(reg, submitting.key, 'PrepareStarted', 'Prepared', 'Signed', 'SubmitStarted');
    const prepared = reg.createIntent(input('S:BUY:3', { price: dec('97'), quantity: dec('5') }));
    drive(reg, prepared.key, 'PrepareStarted', 'Prepared');
    const stranded = reg.createIntent(
      input('S:SELL:0', { side: 'SELL', price: dec('110'), quantity: dec('3') }),
    );
    drive(reg, stranded.key, ...TO_OPEN, 'CancelRequested', 'CancelPrepareStarted', 'CancelStranded');
    const done = reg.createIntent(input('S:SELL:1', { side: 'SELL', price: dec('111'), quantity: dec('4') }));
    drive(reg, done.key, ...TO_OPEN, 'CancelRequested', 'CancelPrepareStarted', 'CancelConfirmed');
    reg.createIntent(input('E:BUY:0', { pair: 'ETH/USDC' }));
    return reg;
  }

  it('exposure counts UNKNOWN, SUBMITTING and STRANDED, not PREPARED or terminal', () => {
    const e = populated().exposure(PAIR);
    // BUY: 1.5 @ 100 (partially filled) + 1 @ 99 (unknown) + 1 @ 98 (submitting)
    expect(e.BUY.quantity.eq('3.5')).toBe(true);
    expect(e.BUY.notional.eq('347')).toBe(true);
    expect(e.BUY.orders).toBe(3);
    // SELL: 3 @ 110 (stranded)
    expect(e.SELL.quantity.eq('3')).toBe(true);
    expect(e.SELL.notional.eq('330')).toBe(true);
    expect(e.SELL.unpriced).toBe(0);
  });

  it('live, active, filters and counts by state', () => {
    const reg = populated();
    expect(
      reg
        .live({ pair: PAIR })
        .map((o) => o.state)
        .sort(),
    ).toEqual(['PARTIALLY_FILLED', 'STRANDED', 'SUBMITTING', 'UNKNOWN']);
    expect(reg.active({ pair: PAIR, side: 'BUY' })).toHaveLength(4);
    expect(reg.all({ slot: 'E:BUY:0' })).toHaveLength(1);
    expect(reg.all({ foreign: true })).toHaveLength(0);
    const counts = reg.countsByState();
    expect(Object.keys(counts).sort()).toEqual([...ORDER_STATES].sort());
    expect(counts).toMatchObject({
      PARTIALLY_FILLED: 1,
      UNKNOWN: 1,
      SUBMITTING: 1,
      PREPARED: 1,
      STRANDED: 1,
      CANCELLED: 1,
      INTENT: 1,
      OPEN: 0,
    });
  });

  it('evicts old terminal orders with their index entries', () => {
    const reg = populated();
    const cancelled = reg.all().find((o) => o.state === 'CANCELLED')!;
    expect(reg.evictTerminal(cancelled.updatedAt)).toBe(0);
    expect(reg.evictTerminal(cancelled.updatedAt + 1)).toBe(1);
    expect(reg.get(cancelled.key)).toBeUndefined();
    expect(reg.byOrderId(cancelled.orderId!)).toBeUndefined();
    expect(reg.byContractId(cancelled.contractIds[0]!)).toBeUndefined();
    expect(reg.size).toBe(6);
  });
});

describe('foreign orders', () => {
  it('adopts a resting venue order the journal does not know', () => {
    const reg = new OrderRegistry();
    const o = reg.adoptForeign(
      wireOrder({
        orderId: 'ord-f',
        contractId: 'c-f',
        filled: '0.2',
        status: 'PARTIALLY_FILLED',
        clientOrderId: null,
      }),
      T0,
    );
    expect(o).toMatchObject({
      key: 'foreign:ord-f',
      slot: null,
      state: 'PARTIALLY_FILLED',
      clientOrderId: null,
      flags: { foreign: true },
    });
    expect(reg.byOrderId('ord-f')).toBe(o);
    expect(reg.byContractId('c-f')).toBe(o);
    expect(reg.exposure(PAIR).BUY.quantity.eq('0.8')).toBe(true);
    expect(reg.all({ foreign: true })).toEqual([o]);
    // It can be cancelled like any other.
    reg.apply(o.key, { type: 'CancelRequested', reason: 'foreign', at: T0 + 1 });
    expect(reg.get(o.key)!.state).toBe('CANCEL_REQUESTED');
  });

  it('refuses a non-resting order and an order it already tracks', () => {
    const reg = new OrderRegistry();
    expect(() => reg.adoptForeign(wireOrder({ status: 'FILLED', filled: '1' }), T0)).toThrow(RangeError);
    reg.adoptForeign(wireOrder(), T0);
    expect(() => reg.adoptForeign(wireOrder(), T0)).toThrow(OrderConflictError);
  });
});

describe('transition hooks', () => {
  it('writeAhead sees every change before it is stored; observers after', () => {
    const seen: string[] = [];
    const reg: OrderRegistry = new OrderRegistry({
      writeAhead: (r) =>
        seen.push(`journal ${r.cause} ${r.order.state} stored=${String(reg.get(r.key)?.state)}`),
    });
    reg.onTransition((r) =>
      seen.push(
        `observe ${r.cause} ${r.previous?.state ?? '-'}→${r.order.state} stored=${reg.get(r.key)!.state}`,
      ),
    );
    const { key } = reg.createIntent(input('S:BUY:0'));
    reg.apply(key, { type: 'PrepareStarted', at: T0 + 1 });
    expect(seen).toEqual([
      'journal created INTENT stored=undefined',
      'observe created -→INTENT stored=INTENT',
      'journal event PREPARING stored=INTENT',
      'observe event INTENT→PREPARING stored=PREPARING',
    ]);
  });

  it('a throwing writeAhead vetoes the change: nothing stored, no observer called', () => {
    let fail = false;
    const reg = new OrderRegistry({
      writeAhead: () => {
        if (fail) throw new Error('disk full');
      },
    });
    const observer = vi.fn();
    reg.onTransition(observer);
    const { key } = reg.createIntent(input('S:BUY:0'));
    const before = reg.get(key);
    fail = true;
    expect(() => reg.apply(key, { type: 'PrepareStarted', at: T0 + 1 })).toThrow('disk full');
    expect(reg.get(key)).toBe(before);
    expect(() => reg.createIntent(input('S:BUY:1'))).toThrow('disk full');
    expect(reg.size).toBe(1);
    expect(reg.inSlot('S:BUY:1')).toEqual([]);
    expect(observer).toHaveBeenCalledTimes(1);
  });

  it('a throwing observer does not stop the others; the change is stored and ObserverError carries it', () => {
    const reg = new OrderRegistry();
    const later = vi.fn();
    reg.onTransition(() => {
      throw new Error('bug');
    });
    reg.onTransition(later);
    let err: unknown;
    try {
      reg.createIntent(input('S:BUY:0', { clientOrderId: 'acme-obs' }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ObserverError);
    expect((err as ObserverError).record.key).toBe('acme-obs');
    expect(later).toHaveBeenCalledTimes(1);
    expect(reg.get('acme-obs')!.state).toBe('INTENT');
  });

  it('unsubscribes', () => {
    const reg = new OrderRegistry();
    const records: TransitionRecord[] = [];
    const off = reg.onTransition((r) => records.push(r));
    const { key } = reg.createIntent(input('S:BUY:0'));
    off();
    reg.apply(key, { type: 'PrepareStarted', at: T0 + 1 });
    expect(records).toHaveLength(1);
  });

  it('records carry the event and the effects', () => {
    const reg = new OrderRegistry();
    const { key } = reg.createIntent(input('S:BUY:0'));
    drive(reg, key, ...TO_OPEN);
    const r = reg.apply(key, snap(reg.get(key)!, 'FILLED', '1'));
    expect(r.event!.type).toBe('VenueSnapshot');
    expect(r.previous!.state).toBe('OPEN');
    expect(r.effects.map((e) => e.type)).toEqual(['fill', 'terminal']);
  });
});

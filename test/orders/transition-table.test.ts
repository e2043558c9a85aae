import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import {
  IllegalTransitionError,
  ORDER_EVENT_TYPES,
  ORDER_STATES,
  PREPARED_TX_LIFETIME_MS,
  TRANSITIONS,
  apply,
  canApply,
  currentContractId,
  possibleTargets,
} from '../../src/orders/fsm/index.js';
import type { OrderEvent, OrderEventType, OrderState, TrackedOrder } from '../../src/orders/fsm/index.js';
import { defaultEvent, echoOf, next, orderIn, through } from './support/fixtures.js';
import { errorOf } from '../support/thrown.js';

type Expected = Record<OrderState, Partial<Record<OrderEventType, readonly OrderState[]>>>;

const ENTRY = ['OPEN', 'PARTIALLY_FILLED', 'CANCEL_REQUESTED'] as const;
const DONE = ['FILLED', 'CANCELLED', 'EXPIRED', 'REJECTED'] as const;

/**
 * The intended table, written out by hand independently of the source. A change to the source
 * table that is not mirrored here fails; so does a change here that the source does not honour.
 */
const EXPECTED: Expected = {
  INTENT: { PrepareStarted: ['PREPARING'], CancelRequested: ['INTENT'], Abandoned: ['ABANDONED'] },
  PREPARING: {
    PrepareStarted: ['PREPARING'],
    Prepared: ['PREPARED', 'REJECTED'],
    PreparedLive: [...ENTRY, ...DONE, 'UNKNOWN'],
    PrepareFailed: ['REJECTED'],
    Abandoned: ['ABANDONED'],
    CancelRequested: ['PREPARING'],
  },
  PREPARED: {
    Signed: ['SIGNED'],
    EchoMismatch: ['REJECTED'],
    Abandoned: ['ABANDONED'],
    CacheExpired: ['PREPARING'],
    CancelRequested: ['PREPARED'],
    NotFound: ['PREPARED'],
  },
  SIGNED: {
    SubmitStarted: ['SUBMITTING'],
    Abandoned: ['ABANDONED'],
    CacheExpired: ['PREPARING'],
    CancelRequested: ['SIGNED'],
    NotFound: ['SIGNED'],
  },
  SUBMITTING: {
    SubmitAccepted: ['SUBMITTED'],
    SubmitAmbiguous: ['UNKNOWN'],
    SubmitRejected: ['REJECTED'],
    SubmitThrottled: ['SIGNED'],
    CacheExpired: ['PREPARING'],
    VenueSnapshot: ['SUBMITTING'],
    NotFound: ['SUBMITTING'],
    CancelRequested: ['SUBMITTING'],
  },
  SUBMITTED: {
    ConfirmedResting: [...ENTRY, 'SUBMITTED'],
    VenueSnapshot: [...ENTRY, ...DONE, 'SUBMITTED'],
    NotFound: ['SUBMITTED'],
    NeverCommitted: ['REJECTED'],
    CancelRequested: ['SUBMITTED'],
  },
  UNKNOWN: {
    ConfirmedResting: [...ENTRY, 'UNKNOWN'],
    VenueSnapshot: [...ENTRY, ...DONE, 'UNKNOWN'],
    NotFound: ['UNKNOWN'],
    NeverCommitted: ['REJECTED'],
    CancelRequested: ['UNKNOWN'],
  },
  OPEN: {
    VenueSnapshot: ['OPEN', 'PARTIALLY_FILLED', ...DONE],
    ContractRotated: ['OPEN'],
    CancelRequested: ['CANCEL_REQUESTED'],
    NotFound: ['OPEN'],
  },
  PARTIALLY_FILLED: {
    VenueSnapshot: ['PARTIALLY_FILLED', ...DONE],
    ContractRotated: ['PARTIALLY_FILLED'],
    CancelRequested: ['CANCEL_REQUESTED'],
    NotFound: ['PARTIALLY_FILLED'],
  },
  CANCEL_REQUESTED: {
    CancelPrepareStarted: ['CANCELLING'],
    CancelRequested: ['CANCEL_REQUESTED'],
    VenueSnapshot: ['CANCEL_REQUESTED', ...DONE],
    ContractRotated: ['CANCEL_REQUESTED'],
    NotFound: ['CANCEL_REQUESTED'],
  },
  CANCELLING: {
    CancelSubmitted: ['CANCELLING'],
    CancelConfirmed: ['CANCELLED'],
    CancelFailedFilled: ['FILLED'],
    CancelFailedCancelled: ['CANCELLED'],
    CancelRetry: ['CANCEL_REQUESTED'],
    ContractRotated: ['CANCEL_REQUESTED'],
    CancelStranded: ['STRANDED'],
    VenueSnapshot: ['CANCELLING', ...DONE],
    CancelRequested: ['CANCELLING'],
    NotFound: ['CANCELLING'],
  },
  STRANDED: {
    VenueSnapshot: ['STRANDED', ...DONE],
    CancelRetry: ['CANCEL_REQUESTED'],
    CancelRequested: ['STRANDED'],
    ContractRotated: ['STRANDED'],
    NotFound: ['STRANDED'],
  },
  FILLED: { VenueSnapshot: ['FILLED'], NotFound: ['FILLED'] },
  CANCELLED: { VenueSnapshot: ['CANCELLED'], NotFound: ['CANCELLED'] },
  EXPIRED: { VenueSnapshot: ['EXPIRED'], NotFound: ['EXPIRED'] },
  REJECTED: { VenueSnapshot: ['REJECTED'], NotFound: ['REJECTED'] },
  ABANDONED: { VenueSnapshot: ['ABANDONED'], NotFound: ['ABANDONED'] },
};

const VIEW_EVENTS: readonly OrderEventType[] = ['VenueSnapshot', 'ConfirmedResting', 'PreparedLive'];

/** The venue status and cumulative filled that should lead a read to `target`. */
function readFor(order: TrackedOrder, target: OrderState): { status: string | null; filled: string } {
  const filled = order.filled.toFixed();
  switch (target) {
    case 'OPEN':
    case 'CANCEL_REQUESTED':
      return { status: 'OPEN', filled };
    case 'PARTIALLY_FILLED':
      return { status: 'PARTIALLY_FILLED', filled: order.filled.plus('0.2').toFixed() };
    case 'FILLED':
      return { status: 'FILLED', filled: order.quantity.toFixed() };
    case 'CANCELLED':
    case 'EXPIRED':
    case 'REJECTED':
      return { status: target, filled };
    case 'UNKNOWN':
      return { status: 'SOMETHING_NEW', filled };
    default:
      // The state itself: a read that does not move it.
      if (target !== order.state) throw new Error(`no read drives ${order.state} to ${target}`);
      if (target === 'CANCELLING' || target === 'STRANDED') return { status: 'OPEN', filled };
      return { status: null, filled };
  }
}

/** An order in `state` and an event of `type` chosen so that the transition should reach `target`. */
function drive(
  state: OrderState,
  type: OrderEventType,
  target: OrderState,
): { order: TrackedOrder; event: OrderEvent } {
  let order = orderIn(state);
  if (VIEW_EVENTS.includes(type) && target === 'CANCEL_REQUESTED' && state !== 'CANCEL_REQUESTED') {
    order = through(order, 'CancelRequested'); // a deferred cancel
  }
  const at = next(order);
  if (type === 'ConfirmedResting' && target === state) {
    // A confirmation read that contradicts our quantity is flagged and leaves the state.
    return {
      order,
      event: { type, status: 'OPEN', contractId: 'c-1', filled: order.filled, quantity: dec('2'), at },
    };
  }
  if (VIEW_EVENTS.includes(type)) {
    const { status, filled } = readFor(order, target);
    const contractId = currentContractId(order) ?? 'c-1';
    const view = { status, filled: dec(filled), contractId, at };
    if (type === 'PreparedLive') {
      return {
        order,
        event: { type, orderId: 'ord-1', clientOrderId: order.clientOrderId!, echo: echoOf(order), ...view },
      };
    }
    return {
      order,
      event: { type: type as 'VenueSnapshot' | 'ConfirmedResting', ...view, quantity: order.quantity },
    };
  }
  if (type === 'Prepared' && target === 'REJECTED') {
    return {
      order,
      event: {
        type,
        orderId: 'ord-1',
        clientOrderId: order.clientOrderId!,
        echo: echoOf(order, { price: dec('101') }),
        at,
      },
    };
  }
  return { order, event: defaultEvent(type, order) };
}

describe('the transition table', () => {
  it('has exactly the intended legal pairs', () => {
    for (const state of ORDER_STATES) {
      expect(Object.keys(TRANSITIONS[state]).sort(), state).toEqual(Object.keys(EXPECTED[state]).sort());
    }
  });

  it('declares exactly the intended targets for every legal pair', () => {
    for (const state of ORDER_STATES) {
      for (const type of ORDER_EVENT_TYPES) {
        const expected = EXPECTED[state][type] ?? [];
        expect([...possibleTargets(state, type)].sort(), `${state} × ${type}`).toEqual([...expected].sort());
        expect(canApply(state, type)).toBe(expected.length > 0);
      }
    }
  });

  const legal = ORDER_STATES.flatMap((state) =>
    Object.entries(EXPECTED[state]).flatMap(([type, targets]) =>
      targets.map((target) => [state, type as OrderEventType, target] as const),
    ),
  );

  it.each(legal)('%s × %s → %s', (state, type, target) => {
    const { order, event } = drive(state, type, target);
    const { order: after } = apply(order, event);
    expect(after.state).toBe(target);
    expect(after.version).toBe(order.version + 1);
    expect(after.updatedAt).toBe(event.at);
    expect(Object.isFrozen(after)).toBe(true);
  });

  const illegal = ORDER_STATES.flatMap((state) =>
    ORDER_EVENT_TYPES.filter((type) => EXPECTED[state][type] === undefined).map(
      (type) => [state, type] as const,
    ),
  );

  it('covers a large illegal set', () => {
    expect(illegal.length).toBeGreaterThan(300);
  });

  it.each(illegal)('%s × %s throws IllegalTransitionError', (state, type) => {
    const order = orderIn(state);
    const err = errorOf(() => apply(order, defaultEvent(type, order)), IllegalTransitionError);
    expect(err.state).toBe(state);
    expect(err.eventType).toBe(type);
    expect(err.key).toBe(order.key);
    expect(err.orderRef).toBe(order.orderId ?? order.clientOrderId);
    expect(err.reason).toBeUndefined();
  });

  it('names the clientOrderId when the order has no orderId yet', () => {
    const order = orderIn('INTENT');
    const err = catchIllegal(() => apply(order, defaultEvent('Signed', order)));
    expect(err.orderRef).toBe('acme-0001');
    expect(err.orderId).toBeNull();
    expect(err.message).toContain('Signed is illegal in INTENT');
  });
});

describe('guard refusals', () => {
  it('NeverCommitted before the 5 minutes have passed', () => {
    const order = orderIn('UNKNOWN');
    const err = catchIllegal(() =>
      apply(order, { type: 'NeverCommitted', at: order.preparedAt! + PREPARED_TX_LIFETIME_MS - 1 }),
    );
    expect(err.reason).toMatch(/younger than 5 minutes/);
  });

  it('NeverCommitted once the order was seen committed', () => {
    const open = orderIn('OPEN');
    // An UNKNOWN order that carries a contractId cannot be "never committed".
    const order = { ...orderIn('UNKNOWN'), contractIds: open.contractIds };
    const err = catchIllegal(() => apply(order, defaultEvent('NeverCommitted', order)));
    expect(err.reason).toMatch(/seen committed/);
  });

  it('Prepared for another clientOrderId', () => {
    const order = orderIn('PREPARING');
    const err = catchIllegal(() =>
      apply(order, {
        type: 'Prepared',
        orderId: 'x',
        clientOrderId: 'acme-9999',
        echo: echoOf(order),
        at: next(order),
      }),
    );
    expect(err.reason).toMatch(/not ours/);
  });

  it('ConfirmedResting with a status that is not resting', () => {
    const order = orderIn('SUBMITTED');
    const err = catchIllegal(() =>
      apply(order, {
        type: 'ConfirmedResting',
        status: 'FILLED',
        contractId: 'c-1',
        filled: dec('1'),
        at: next(order),
      }),
    );
    expect(err.reason).toMatch(/not resting/);
  });
});

function catchIllegal(fn: () => unknown): IllegalTransitionError {
  try {
    fn();
  } catch (err) {
    if (err instanceof IllegalTransitionError) return err;
    throw err;
  }
  throw new Error('expected IllegalTransitionError');
}

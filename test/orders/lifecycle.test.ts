import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import {
  EXPOSURE_STATES,
  ORDER_STATES,
  PREPARED_TX_LIFETIME_MS,
  TERMINAL_STATES,
  apply,
  countsAsExposure,
  isActive,
  isTerminal,
  newForeign,
  newIntent,
  remaining,
} from '../../src/orders/fsm/index.js';
import type { AlarmReason, OrderEffect } from '../../src/orders/fsm/index.js';
import {
  PAIR,
  TO_OPEN,
  defaultEvent,
  echoOf,
  effectsOf,
  intent,
  next,
  orderIn,
  run,
  snap,
  through,
} from './support/fixtures.js';

const alarms = (effects: readonly OrderEffect[]): AlarmReason[] =>
  effectsOf(effects, 'alarm').map((a) => a.reason);

describe('the happy path', () => {
  it('INTENT → … → OPEN → PARTIALLY_FILLED → FILLED', () => {
    const o = through(intent(), ...TO_OPEN);
    expect(o.state).toBe('OPEN');
    expect(o.orderId).toBe('ord-1');
    expect(o.preparedAt).not.toBeNull();
    expect(o.submittedAt).not.toBeNull();
    expect(o.contractIds).toEqual(['c-1']);
    const end = run(o, snap(o, 'PARTIALLY_FILLED', '0.5', 'c-2'), {
      ...snap(o, 'FILLED', '1', 'c-2'),
      at: o.updatedAt + 5000,
    });
    expect(end.order.state).toBe('FILLED');
    expect(alarms(end.effects)).toEqual([]);
    expect(remaining(end.order).isZero()).toBe(true);
  });

  it('SUBMITTED → FILLED when a taker filled it before the first confirmation read', () => {
    const submitted = orderIn('SUBMITTED');
    const { order, effects } = apply(submitted, snap(submitted, 'FILLED', '1', 'c-1'));
    expect(order.state).toBe('FILLED');
    expect(effectsOf(effects, 'fill')).toHaveLength(1);
    expect(alarms(effects)).toEqual([]);
  });
});

describe('residual expiry', () => {
  it('EXPIRED after a partial fill ends the order without an alarm and frees its exposure', () => {
    const pf = orderIn('PARTIALLY_FILLED');
    const { order, effects } = apply(pf, snap(pf, 'EXPIRED', '0.9'));
    expect(order.state).toBe('EXPIRED');
    expect(order.filled.eq('0.9')).toBe(true);
    expect(alarms(effects)).toEqual([]);
    expect(effectsOf(effects, 'terminal')[0]!.state).toBe('EXPIRED');
    expect(remaining(order).isZero()).toBe(true);
    expect(countsAsExposure(order.state)).toBe(false);
  });

  it('a status we do not know is not guessed: fills applied, state and exposure kept, alarm raised', () => {
    const pf = orderIn('PARTIALLY_FILLED');
    const { order, effects } = apply(pf, snap(pf, 'DONE_FOR_DAY', '0.9'));
    expect(order.state).toBe('PARTIALLY_FILLED');
    expect(order.filled.eq('0.9')).toBe(true);
    expect(order.venueStatus).toBe('DONE_FOR_DAY');
    expect(alarms(effects)).toEqual(['unknown-status']);
    expect(remaining(order).eq('0.1')).toBe(true);
  });

  it('an unknown status on a fully filled order concludes FILLED', () => {
    const pf = orderIn('PARTIALLY_FILLED');
    const { order } = apply(pf, snap(pf, 'DONE_FOR_DAY', '1'));
    expect(order.state).toBe('FILLED');
  });
});

describe('stranded orders', () => {
  it('a cancel that cannot complete strands the order, which keeps counting as exposure', () => {
    const stranded = orderIn('STRANDED');
    expect(stranded.flags.alarms).toEqual(['stranded']);
    expect(countsAsExposure('STRANDED')).toBe(true);
    expect(remaining(stranded).eq('1')).toBe(true);
    // Repeated cancel requests and resting reads leave it stranded.
    const again = run(stranded, defaultEvent('CancelRequested', stranded), snap(stranded, 'OPEN', '0'));
    expect(again.order.state).toBe('STRANDED');
  });

  it('the operator clears it (venue CANCELLED) without a cancelled-by-venue alarm', () => {
    const stranded = orderIn('STRANDED');
    const { order, effects } = apply(stranded, snap(stranded, 'CANCELLED', '0'));
    expect(order.state).toBe('CANCELLED');
    expect(alarms(effects)).toEqual([]);
  });

  it('restored funds allow the cancel to be retried', () => {
    expect(through(orderIn('STRANDED'), 'CancelRetry').state).toBe('CANCEL_REQUESTED');
  });
});

describe('unknown submissions', () => {
  it('UNKNOWN → OPEN when the read shows it committed', () => {
    expect(through(orderIn('UNKNOWN'), 'ConfirmedResting').state).toBe('OPEN');
    const unknown = orderIn('UNKNOWN');
    expect(apply(unknown, snap(unknown, 'OPEN', '0', 'c-1')).order.state).toBe('OPEN');
  });

  it('UNKNOWN stays while the venue shows nothing (404 or a null status)', () => {
    const unknown = orderIn('UNKNOWN');
    expect(through(unknown, 'NotFound').state).toBe('UNKNOWN');
    const pending = apply(unknown, snap(unknown, null, '0', null));
    expect(pending.order.state).toBe('UNKNOWN');
    expect(alarms(pending.effects)).toEqual([]);
    expect(countsAsExposure('UNKNOWN')).toBe(true);
  });

  it('never committed: REJECTED with rejectCode NEVER_COMMITTED once 5 minutes passed since the prepare', () => {
    const unknown = orderIn('UNKNOWN');
    const { order, effects } = apply(unknown, {
      type: 'NeverCommitted',
      at: unknown.preparedAt! + PREPARED_TX_LIFETIME_MS,
    });
    expect(order.state).toBe('REJECTED');
    expect(order.rejectCode).toBe('NEVER_COMMITTED');
    expect(effectsOf(effects, 'terminal')).toHaveLength(1);
  });

  it('the venue can settle it too: REJECTED, or FILLED by a taker', () => {
    const unknown = orderIn('UNKNOWN');
    expect(apply(unknown, snap(unknown, 'REJECTED', '0', null)).order.state).toBe('REJECTED');
    const filled = apply(unknown, snap(unknown, 'FILLED', '1', 'c-1'));
    expect(filled.order.state).toBe('FILLED');
    expect(effectsOf(filled.effects, 'fill')).toHaveLength(1);
  });

  it('a cancel requested while UNKNOWN is deferred until the order rests', () => {
    const unknown = through(orderIn('UNKNOWN'), 'CancelRequested');
    expect(unknown.state).toBe('UNKNOWN');
    expect(unknown.cancelReason).toBe('reprice');
    expect(through(unknown, 'ConfirmedResting').state).toBe('CANCEL_REQUESTED');
  });

  it('a 200 that never confirms is settled the same way from SUBMITTED', () => {
    const submitted = orderIn('SUBMITTED');
    expect(apply(submitted, defaultEvent('NeverCommitted', submitted)).order.state).toBe('REJECTED');
  });
});

describe('the placement pipeline', () => {
  it('410 CACHE_EXPIRED returns to PREPARING; the re-prepare may assign a new orderId', () => {
    const preparing = through(orderIn('SUBMITTING'), 'CacheExpired');
    expect(preparing.state).toBe('PREPARING');
    expect(preparing.preparedAt).toBeNull();
    expect(preparing.submittedAt).toBeNull();
    const { order } = apply(preparing, {
      type: 'Prepared',
      orderId: 'ord-2',
      clientOrderId: preparing.clientOrderId!,
      echo: echoOf(preparing),
      at: next(preparing),
    });
    expect(order.state).toBe('PREPARED');
    expect(order.orderId).toBe('ord-2');
    expect(order.clientOrderId).toBe(preparing.clientOrderId);
  });

  it('429 on submission returns to SIGNED', () => {
    const signed = through(orderIn('SUBMITTING'), 'SubmitThrottled');
    expect(signed.state).toBe('SIGNED');
    expect(signed.submittedAt).toBeNull();
  });

  it('an echo that differs from the intent is never signed', () => {
    const preparing = orderIn('PREPARING');
    const { order, effects } = apply(preparing, {
      type: 'Prepared',
      orderId: 'ord-1',
      clientOrderId: preparing.clientOrderId!,
      echo: echoOf(preparing, { quantity: dec('10') }),
      at: next(preparing),
    });
    expect(order.state).toBe('REJECTED');
    expect(order.rejectCode).toBe('ECHO_MISMATCH');
    expect(alarms(effects)).toEqual(['echo-mismatch']);
    expect(effectsOf(effects, 'alarm')[0]!.detail).toContain('quantity 10 ≠ 1');
    const refused = through(orderIn('PREPARED'), 'EchoMismatch');
    expect([refused.state, refused.rejectCode]).toEqual(['REJECTED', 'ECHO_MISMATCH']);
  });

  it('201 (already resting) enters the book directly', () => {
    const open = through(orderIn('PREPARING'), 'PreparedLive');
    expect(open.state).toBe('OPEN');
    expect(open.orderId).toBe('ord-1');
    expect(open.contractIds).toEqual(['c-1']);
  });

  it('201 whose order differs from the intent: track what rests and cancel it', () => {
    const preparing = orderIn('PREPARING');
    const { order, effects } = apply(preparing, {
      type: 'PreparedLive',
      orderId: 'ord-1',
      clientOrderId: preparing.clientOrderId!,
      echo: echoOf(preparing, { price: dec('99'), quantity: dec('2') }),
      status: 'OPEN',
      contractId: 'c-1',
      filled: dec('0'),
      at: next(preparing),
    });
    expect(order.state).toBe('CANCEL_REQUESTED');
    expect(order.cancelReason).toBe('echo-mismatch');
    expect(order.quantity.eq('2')).toBe(true);
    expect(order.price!.eq('99')).toBe(true);
    expect(alarms(effects)).toEqual(['echo-mismatch']);
  });

  it('201 with a status we cannot classify is UNKNOWN', () => {
    const preparing = orderIn('PREPARING');
    const { order } = apply(preparing, {
      type: 'PreparedLive',
      orderId: 'ord-1',
      clientOrderId: preparing.clientOrderId!,
      echo: echoOf(preparing),
      status: 'WEIRD',
      contractId: 'c-1',
      filled: dec('0'),
      at: next(preparing),
    });
    expect(order.state).toBe('UNKNOWN');
  });

  it('a cancel requested before signing is deferred; the pipeline may abandon instead', () => {
    const signed = through(orderIn('PREPARED'), 'CancelRequested', 'Signed');
    expect(signed.cancelReason).toBe('reprice');
    expect(through(signed, 'Abandoned').state).toBe('ABANDONED');
  });
});

describe('cancels', () => {
  it('a full cancel: OPEN → CANCEL_REQUESTED → CANCELLING → CANCELLED', () => {
    const cancelled = through(
      orderIn('OPEN'),
      'CancelRequested',
      'CancelPrepareStarted',
      'CancelSubmitted',
      'CancelConfirmed',
    );
    expect(cancelled.state).toBe('CANCELLED');
    expect(cancelled.cancelReason).toBe('reprice');
  });

  it('the first cancel reason is kept', () => {
    const o = run(
      orderIn('OPEN'),
      { type: 'CancelRequested', reason: 'reprice', at: 1 },
      { type: 'CancelRequested', reason: 'shutdown', at: 2 },
    );
    expect(o.order.cancelReason).toBe('reprice');
  });

  it('409 ORDER_ALREADY_CANCELLED ends CANCELLED; a transient failure retries', () => {
    expect(through(orderIn('CANCELLING'), 'CancelFailedCancelled').state).toBe('CANCELLED');
    expect(through(orderIn('CANCELLING'), 'CancelRetry').state).toBe('CANCEL_REQUESTED');
  });

  it('a cancel we did not ask for is flagged', () => {
    const open = orderIn('OPEN');
    const { order, effects } = apply(open, snap(open, 'CANCELLED', '0'));
    expect(order.state).toBe('CANCELLED');
    expect(alarms(effects)).toEqual(['cancelled-by-venue']);
  });
});

describe('observations that need a human', () => {
  it('404 for a committed order: alarm, state and exposure kept', () => {
    const { order, effects } = apply(orderIn('OPEN'), defaultEvent('NotFound', orderIn('OPEN')));
    expect(order.state).toBe('OPEN');
    expect(alarms(effects)).toEqual(['not-found-after-commit']);
  });

  it('a terminal order the venue shows resting: alarm, the state is final', () => {
    const filled = orderIn('FILLED');
    const { order, effects } = apply(filled, snap(filled, 'OPEN', '1'));
    expect(order.state).toBe('FILLED');
    expect(alarms(effects)).toEqual(['venue-contradicts-terminal']);
  });

  it('a resting status without a contractId', () => {
    const submitted = orderIn('SUBMITTED');
    const { order, effects } = apply(submitted, snap(submitted, 'OPEN', '0', null));
    expect(order.state).toBe('OPEN');
    expect(alarms(effects)).toEqual(['missing-contract-id']);
  });
});

describe('helpers', () => {
  it('classify every state', () => {
    // Which states are terminal and which count as exposure is pinned state by state in
    // state-predicates.test.ts; here the exported groups and isActive agree with those predicates.
    for (const s of ORDER_STATES) expect(isActive(s), s).toBe(!isTerminal(s));
    expect([...TERMINAL_STATES].sort()).toEqual(ORDER_STATES.filter(isTerminal).sort());
    expect([...EXPOSURE_STATES].sort()).toEqual(ORDER_STATES.filter(countsAsExposure).sort());
  });

  it('remaining is quantity − filled while active, zero once terminal', () => {
    expect(remaining(orderIn('PARTIALLY_FILLED')).eq('0.6')).toBe(true);
    expect(remaining(orderIn('PREPARED')).eq('1')).toBe(true);
    expect(remaining(orderIn('CANCELLED')).isZero()).toBe(true);
  });

  it('remaining follows an order whose filled is replaced (its last answer is not kept past it)', () => {
    const order = orderIn('PARTIALLY_FILLED');
    expect(remaining(order).eq('0.6')).toBe(true);
    expect(remaining(order).eq('0.6')).toBe(true);
    const more = { ...order, filled: dec('0.9') };
    expect(remaining(more).eq('0.1')).toBe(true);
    expect(remaining({ ...more, state: 'CANCELLED' }).isZero()).toBe(true);
  });

  it('newIntent validates its input', () => {
    expect(() => intent({ quantity: dec('0') })).toThrow(RangeError);
    expect(() => intent({ price: dec('-1') })).toThrow(RangeError);
    expect(() => intent({ price: null })).toThrow(RangeError);
    expect(intent({ price: null, type: 'MARKET' }).price).toBeNull();
    expect(
      newIntent({
        slot: 's',
        pair: PAIR,
        side: 'SELL',
        price: dec('1'),
        quantity: dec('1'),
        clientOrderId: 'c',
        key: 'k',
        at: 0,
      }).key,
    ).toBe('k');
  });

  it('newForeign accepts only resting orders with filled below quantity', () => {
    const base = {
      orderId: 'x',
      clientOrderId: null,
      contractId: 'c-x',
      pair: PAIR,
      side: 'SELL' as const,
      type: 'LIMIT',
      price: dec('100'),
      quantity: dec('1'),
      filled: dec('0.5'),
      status: 'PARTIALLY_FILLED',
      at: 0,
    };
    const foreign = newForeign(base);
    expect(foreign).toMatchObject({
      key: 'foreign:x',
      slot: null,
      state: 'PARTIALLY_FILLED',
      flags: { foreign: true },
    });
    expect(() => newForeign({ ...base, status: 'FILLED' })).toThrow(RangeError);
    expect(() => newForeign({ ...base, status: null })).toThrow(RangeError);
    expect(() => newForeign({ ...base, filled: dec('1') })).toThrow(RangeError);
  });

  it('orders are frozen', () => {
    const o = orderIn('PARTIALLY_FILLED');
    expect(Object.isFrozen(o) && Object.isFrozen(o.contractIds) && Object.isFrozen(o.flags)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { ORDER_STATES, apply, isCancelling, isLiveOnBook } from '../../src/orders/fsm/index.js';
import { effectsOf, next, orderIn, run, snap, sumFills, through } from './support/fixtures.js';

describe('fill de-duplication by cumulative filled', () => {
  it('repeated reads with the same filled produce one fill', () => {
    const open = orderIn('OPEN');
    let o = open;
    const fills = [];
    for (let i = 0; i < 4; i += 1) {
      const t = apply(o, snap(o, 'PARTIALLY_FILLED', '0.3', 'c-2'));
      o = t.order;
      fills.push(...effectsOf(t.effects, 'fill'));
    }
    expect(fills).toHaveLength(1);
    expect(fills[0]!.quantity.eq('0.3')).toBe(true);
    expect(o.filled.eq('0.3')).toBe(true);
    expect(o.fills).toBe(1);
    expect(o.state).toBe('PARTIALLY_FILLED');
  });

  it('increasing filled yields deltas that sum to filled, numbered in order', () => {
    let o = orderIn('OPEN');
    const effects = [];
    for (const [status, filled, c] of [
      ['PARTIALLY_FILLED', '0.2', 'c-2'],
      ['PARTIALLY_FILLED', '0.5', 'c-3'],
      ['PARTIALLY_FILLED', '0.5', 'c-3'],
      ['FILLED', '1', 'c-3'],
    ] as const) {
      const t = apply(o, snap(o, status, filled, c));
      o = t.order;
      effects.push(...t.effects);
    }
    const fills = effectsOf(effects, 'fill');
    expect(fills.map((f) => f.quantity.toFixed())).toEqual(['0.2', '0.3', '0.5']);
    expect(fills.map((f) => f.filled.toFixed())).toEqual(['0.2', '0.5', '1']);
    expect(fills.map((f) => f.seq)).toEqual([1, 2, 3]);
    expect(sumFills(effects).eq(o.filled)).toBe(true);
    expect(o.state).toBe('FILLED');
    expect(effectsOf(effects, 'terminal')).toEqual([
      { type: 'terminal', key: o.key, state: 'FILLED', at: o.updatedAt },
    ]);
  });

  it('a fill carries pair, side, price, delta, cumulative, sequence and the contract it filled on', () => {
    const open = orderIn('OPEN');
    const { effects } = apply(open, snap(open, 'PARTIALLY_FILLED', '0.25', 'c-2'));
    const [fill] = effectsOf(effects, 'fill');
    expect(fill).toMatchObject({
      pair: 'BTC/USDC',
      side: 'BUY',
      orderId: 'ord-1',
      clientOrderId: 'acme-0001',
      seq: 1,
    });
    expect(fill!.price!.eq('100')).toBe(true);
    expect(fill!.quantity.eq('0.25')).toBe(true);
    expect(fill!.filled.eq('0.25')).toBe(true);
    expect(fill!.contractId).toBe('c-1');
  });

  it('a lower filled is flagged and not applied (nor its contractId or status)', () => {
    const pf = orderIn('PARTIALLY_FILLED');
    const { order, effects } = apply(pf, snap(pf, 'OPEN', '0.1', 'c-9'));
    expect(order.filled.eq('0.4')).toBe(true);
    expect(order.contractIds).toEqual(['c-1', 'c-2']);
    expect(order.state).toBe('PARTIALLY_FILLED');
    expect(order.venueStatus).toBe('PARTIALLY_FILLED');
    expect(effectsOf(effects, 'fill')).toHaveLength(0);
    expect(effectsOf(effects, 'alarm').map((a) => a.reason)).toEqual(['filled-decreased']);
    expect(order.flags.alarms).toEqual(['filled-decreased']);
  });

  it('filled above the quantity, or a different quantity, is flagged and not applied', () => {
    const open = orderIn('OPEN');
    const over = apply(open, snap(open, 'FILLED', '1.5'));
    expect(over.order.state).toBe('OPEN');
    expect(over.order.filled.isZero()).toBe(true);
    expect(effectsOf(over.effects, 'alarm').map((a) => a.reason)).toEqual(['overfill']);

    const mismatch = apply(open, { ...snap(open, 'OPEN', '0'), quantity: dec('2') });
    expect(mismatch.order.state).toBe('OPEN');
    expect(effectsOf(mismatch.effects, 'alarm').map((a) => a.reason)).toEqual(['quantity-mismatch']);
  });

  it('fills during a cancel are recorded without losing the cancel intent', () => {
    // Cancelling states whose cancel can still complete (STRANDED is its own case).
    for (const state of ORDER_STATES.filter((s) => isCancelling(s) && isLiveOnBook(s))) {
      const o = orderIn(state);
      const { order, effects } = apply(o, snap(o, 'PARTIALLY_FILLED', '0.6', 'c-2'));
      expect(order.state).toBe(state);
      expect(order.cancelReason).toBe('reprice');
      expect(order.filled.eq('0.6')).toBe(true);
      expect(effectsOf(effects, 'fill')).toHaveLength(1);
      expect(order.contractIds.at(-1)).toBe('c-2');
    }
  });

  it('the cancel outcome carries the final filled: no fill is lost on cancel', () => {
    const cancelling = orderIn('CANCELLING');
    const { order, effects } = run(cancelling, {
      type: 'CancelConfirmed',
      filled: dec('0.3'),
      at: next(cancelling),
    });
    expect(order.state).toBe('CANCELLED');
    expect(effectsOf(effects, 'fill').map((f) => f.quantity.toFixed())).toEqual(['0.3']);
  });

  it('409 ORDER_ALREADY_FILLED records the rest of the fill', () => {
    const pf = orderIn('PARTIALLY_FILLED');
    const cancelling = through(pf, 'CancelRequested', 'CancelPrepareStarted');
    const { order, effects } = run(cancelling, {
      type: 'CancelFailedFilled',
      filled: dec('1'),
      at: next(cancelling),
    });
    expect(order.state).toBe('FILLED');
    expect(effectsOf(effects, 'fill').map((f) => [f.quantity.toFixed(), f.seq])).toEqual([['0.6', 2]]);
    expect(effectsOf(effects, 'terminal')).toHaveLength(1);
  });

  it('a cancel outcome with a lower filled is flagged and the terminal move still happens', () => {
    const pf = through(orderIn('PARTIALLY_FILLED'), 'CancelRequested', 'CancelPrepareStarted');
    const { order, effects } = run(pf, { type: 'CancelFailedCancelled', filled: dec('0'), at: next(pf) });
    expect(order.state).toBe('CANCELLED');
    expect(order.filled.eq('0.4')).toBe(true);
    expect(effectsOf(effects, 'alarm').map((a) => a.reason)).toEqual(['filled-decreased']);
  });

  it('a fill discovered after the end is still recorded, with an alarm, and the state stays', () => {
    const cancelled = orderIn('CANCELLED');
    const { order, effects } = apply(cancelled, snap(cancelled, 'CANCELLED', '0.3'));
    expect(order.state).toBe('CANCELLED');
    expect(order.filled.eq('0.3')).toBe(true);
    expect(effectsOf(effects, 'fill')).toHaveLength(1);
    expect(effectsOf(effects, 'alarm').map((a) => a.reason)).toEqual(['fill-after-terminal']);
    expect(effectsOf(effects, 'terminal')).toHaveLength(0);
  });

  it('fills seen while the submission call is still in flight are recorded', () => {
    const submitting = orderIn('SUBMITTING');
    const { order, effects } = apply(submitting, snap(submitting, 'PARTIALLY_FILLED', '0.5', 'c-1'));
    expect(order.state).toBe('SUBMITTING');
    expect(order.filled.eq('0.5')).toBe(true);
    expect(order.contractIds).toEqual(['c-1']);
    expect(effectsOf(effects, 'fill')).toHaveLength(1);
    // The later confirmation read adds nothing twice.
    const confirmed = run(through(order, 'SubmitAccepted'), snap(order, 'PARTIALLY_FILLED', '0.5', 'c-1'));
    expect(confirmed.order.state).toBe('PARTIALLY_FILLED');
    expect(effectsOf(confirmed.effects, 'fill')).toHaveLength(0);
  });
});

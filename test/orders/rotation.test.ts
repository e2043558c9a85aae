import { describe, expect, it } from 'vitest';
import { apply, currentContractId } from '../../src/orders/fsm/index.js';
import { OrderRegistry } from '../../src/orders/order-registry.js';
import {
  INTENT_INPUT,
  TO_OPEN,
  defaultEvent,
  effectsOf,
  next,
  orderIn,
  snap,
  through,
} from './support/fixtures.js';

describe('contractId rotation', () => {
  it('keeps the history, makes the new id current and emits one rotation', () => {
    const open = orderIn('OPEN');
    const { order, effects } = apply(open, snap(open, 'PARTIALLY_FILLED', '0.4', 'c-2'));
    expect(order.contractIds).toEqual(['c-1', 'c-2']);
    expect(currentContractId(order)).toBe('c-2');
    expect(effectsOf(effects, 'rotated')).toEqual([
      { type: 'rotated', key: order.key, from: 'c-1', to: 'c-2', at: order.updatedAt },
    ]);
    // The fill is attributed to the contract that filled (the old one).
    expect(effectsOf(effects, 'fill')[0]!.contractId).toBe('c-1');
  });

  it('a read carrying an old contractId is stale: flagged, nothing applied', () => {
    const pf = orderIn('PARTIALLY_FILLED');
    const { order, effects } = apply(pf, snap(pf, 'PARTIALLY_FILLED', '0.4', 'c-1'));
    expect(order.contractIds).toEqual(['c-1', 'c-2']);
    expect(effectsOf(effects, 'alarm').map((a) => a.reason)).toEqual(['stale-contract-id']);
    expect(effectsOf(effects, 'rotated')).toHaveLength(0);
  });

  it('the same current id is a no-op', () => {
    const pf = orderIn('PARTIALLY_FILLED');
    const { order, effects } = apply(pf, snap(pf, 'PARTIALLY_FILLED', '0.4', 'c-2'));
    expect(order.contractIds).toEqual(['c-1', 'c-2']);
    expect(effects).toEqual([]);
  });

  it('a cancel that hit a stale contract returns to CANCEL_REQUESTED with the current id', () => {
    const cancelling = orderIn('CANCELLING');
    const { order, effects } = apply(cancelling, {
      type: 'ContractRotated',
      contractId: 'c-7',
      at: next(cancelling),
    });
    expect(order.state).toBe('CANCEL_REQUESTED');
    expect(currentContractId(order)).toBe('c-7');
    expect(order.cancelReason).toBe('reprice');
    expect(effectsOf(effects, 'rotated')).toHaveLength(1);
  });

  it('ContractRotated with an old id is flagged and does not move the current id back', () => {
    const pf = orderIn('PARTIALLY_FILLED');
    const { order, effects } = apply(pf, { type: 'ContractRotated', contractId: 'c-1', at: next(pf) });
    expect(currentContractId(order)).toBe('c-2');
    expect(effectsOf(effects, 'alarm').map((a) => a.reason)).toEqual(['stale-contract-id']);
  });

  it('the registry resolves every historical id to the same order and tells the current one', () => {
    const reg = new OrderRegistry();
    const created = reg.createIntent(INTENT_INPUT);
    for (const type of TO_OPEN) {
      reg.apply(created.key, defaultEvent(type, reg.get(created.key)!));
    }
    reg.apply(created.key, snap(reg.get(created.key)!, 'PARTIALLY_FILLED', '0.2', 'c-2'));
    reg.apply(created.key, snap(reg.get(created.key)!, 'PARTIALLY_FILLED', '0.5', 'c-3'));
    const order = reg.get(created.key)!;
    expect(order.contractIds).toEqual(['c-1', 'c-2', 'c-3']);
    for (const c of order.contractIds) expect(reg.byContractId(c)).toBe(order);
    expect(reg.isCurrentContractId('c-3')).toBe(true);
    expect(reg.isCurrentContractId('c-1')).toBe(false);
    expect(reg.isCurrentContractId('c-2')).toBe(false);
    expect(reg.isCurrentContractId('nope')).toBe(false);
    expect(currentContractId(through(order, 'CancelRequested'))).toBe('c-3');
  });
});

/** The own-orders view: quote and registry slots, pending intents standing in for orders. */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import {
  ownOrdersView,
  quoteSlotOf,
  registrySlot,
  type PendingIntent,
} from '../../src/orders/own-orders-view.js';
import { order } from '../support/btc-market.js';

describe('quote slots and the own-orders view', () => {
  it('maps registry slots to quote slots; pending intents stand in until the registry has them', () => {
    expect(registrySlot('BTC/USDC:BUY:0', 1)).toBe('BTC/USDC:BUY:0#1');
    expect(quoteSlotOf('BTC/USDC:BUY:0#1')).toBe('BTC/USDC:BUY:0');
    expect(quoteSlotOf(null)).toBeNull();
    const resting = order('a', 'BUY', '100', '1', 'OPEN');
    const pending: PendingIntent = {
      key: 'pending:BTC/USDC:BUY:0#1',
      quoteSlot: 'BTC/USDC:BUY:0',
      registrySlot: 'BTC/USDC:BUY:0#1',
      pair: 'BTC/USDC',
      side: 'BUY',
      price: dec('101'),
      quantity: dec('1'),
      enqueuedAt: 5,
    };
    const view = ownOrdersView([resting], [pending], new Set(['a']));
    expect(view.map((v) => [v.key, v.slot, v.resting, v.cancelling])).toEqual([
      ['a', 'BTC/USDC:BUY:0', false, true],
      ['pending:BTC/USDC:BUY:0#1', 'BTC/USDC:BUY:0', false, false],
    ]);
    // Once the pipeline writes the intent to its registry slot, the pending stand-in goes.
    const written = order('b', 'BUY', '101', '1', 'PREPARING', 'BTC/USDC:BUY:0#1');
    expect(ownOrdersView([resting, written], [pending], new Set()).map((v) => v.key)).toEqual(['a', 'b']);
  });
});

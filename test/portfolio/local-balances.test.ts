/** Local balances between two balance polls: what new orders, fills and cancels move. */
import { describe, expect, it } from 'vitest';
import { ZERO, dec } from '../../src/core/decimal.js';
import { BALANCES_PENDING, type BalanceView, type WalletInput } from '../../src/market/market-snapshot.js';
import type { PendingIntent } from '../../src/orders/own-orders-view.js';
import { LocalBalances, ownLocks } from '../../src/portfolio/local-balances.js';
import { order, snapshot } from '../support/btc-market.js';

/** The balances of a wallet input that must be known. */
function known(w: WalletInput): Readonly<Record<string, BalanceView>> {
  if (w === null || w === BALANCES_PENDING) throw new Error(`balances not known: ${String(w)}`);
  return w;
}

describe('local balances between polls', () => {
  it('moves available with new orders, fills and cancels, and never above the total', () => {
    const lb = new LocalBalances();
    const polled = {
      BTC: { available: dec('1'), locked: ZERO },
      USDC: { available: dec('1000'), locked: ZERO },
    };
    const snap = snapshot(0, {}, polled);
    lb.onPoll(0, new Map(), new Map());
    // A BUY of 2 @ 100 queued: 200 USDC committed.
    const pending: PendingIntent = {
      key: 'p',
      quoteSlot: 'BTC/USDC:BUY:0',
      registrySlot: 'BTC/USDC:BUY:0#0',
      pair: 'BTC/USDC',
      side: 'BUY',
      price: dec('100'),
      quantity: dec('2'),
      enqueuedAt: 0,
    };
    let b = known(lb.current(snap, ownLocks([], [pending], snap.pairs), new Map()));
    expect(b['USDC']!.available.toFixed()).toBe('800');
    expect(b['USDC']!.locked.toFixed()).toBe('200');
    // It rests, then half fills: the lock shrinks to 100 and the flow brings 1 BTC for 100 USDC.
    const half = {
      ...order('k', 'BUY', '100', '2', 'PARTIALLY_FILLED', 'BTC/USDC:BUY:0#0'),
      filled: dec('1'),
    };
    b = known(
      lb.current(
        snap,
        ownLocks([half], [], snap.pairs),
        new Map([
          ['BTC', dec('1')],
          ['USDC', dec('-100')],
        ]),
      ),
    );
    expect(b['USDC']!.available.toFixed()).toBe('800');
    expect(b['USDC']!.locked.toFixed()).toBe('100');
    expect(b['BTC']!.available.toFixed()).toBe('2');
    // Cancelled: the rest of the lock comes back.
    b = known(
      lb.current(
        snap,
        ownLocks([], [], snap.pairs),
        new Map([
          ['BTC', dec('1')],
          ['USDC', dec('-100')],
        ]),
      ),
    );
    expect(b['USDC']!.available.toFixed()).toBe('900');
    expect(b['USDC']!.locked.toFixed()).toBe('0');
  });

  it('is null until the first poll, and BALANCES_PENDING while the startup read is under way', () => {
    const none = { resting: new Map(), notYet: new Map() };
    expect(new LocalBalances().current(snapshot(0), none, new Map())).toBeNull();
    const pending = { ...snapshot(0), balancesPending: true };
    expect(new LocalBalances().current(pending, none, new Map())).toBe(BALANCES_PENDING);
    // Known balances win over a stale mark.
    const polled = {
      ...snapshot(0, {}, { BTC: { available: dec('1'), locked: ZERO } }),
      balancesPending: true,
    };
    expect(known(new LocalBalances().current(polled, none, new Map()))['BTC']!.available.toFixed()).toBe('1');
  });
});

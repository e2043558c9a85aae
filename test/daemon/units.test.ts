import { describe, expect, it } from 'vitest';
import { ZERO, dec } from '../../src/core/decimal.js';
import { BookWatch, CLOCK_MARGIN_MS } from '../../src/market/book-watch.js';
import { LocalBalances, ownLocks } from '../../src/portfolio/local-balances.js';
import { isPipelineFailure } from '../../src/daemon/trading/order-dispatch.js';
import {
  ownOrdersView,
  quoteSlotOf,
  registrySlot,
  type PendingIntent,
} from '../../src/orders/own-orders-view.js';
import { riskInputs, type PairPosition } from '../../src/portfolio/pnl.js';
import { assessDaemonReadiness, type ReadinessInput } from '../../src/daemon/reporting/daemon-readiness.js';
import { SignalRelay } from '../../src/daemon/signals.js';
import type { PlacementOutcome } from '../../src/execution/execution-events.js';
import {
  BALANCES_PENDING,
  type BalanceView,
  type MarketSnapshot,
  type PairMarket,
  type WalletInput,
} from '../../src/market/market-snapshot.js';
import { newIntent, type OrderState, type TrackedOrder } from '../../src/orders/fsm/index.js';
import type { RiskVerdict } from '../../src/risk/index.js';
import { FakeProcess } from './support/daemon-env.js';

const PAIR: PairMarket = {
  pair: 'BTC/USDC',
  base: 'BTC',
  quote: 'USDC',
  minQuoteAmount: dec('10'),
  book: { bids: [], asks: [], sequence: 1, receivedAt: 0 },
  trades: [],
  external: null,
};

function snapshot(
  now: number,
  over: Partial<PairMarket> = {},
  balances: MarketSnapshot['balances'] = null,
): MarketSnapshot {
  return { now, pairs: { 'BTC/USDC': { ...PAIR, ...over } }, balances, balancesAt: null, account: null };
}

function order(
  key: string,
  side: 'BUY' | 'SELL',
  price: string,
  qty: string,
  state: OrderState,
  slot: string | null = null,
): TrackedOrder {
  const o = newIntent({
    key,
    slot: slot ?? `BTC/USDC:${side}:0#0`,
    pair: 'BTC/USDC',
    side,
    price: dec(price),
    quantity: dec(qty),
    clientOrderId: key,
    at: 0,
  });
  return { ...o, state, slot: slot === null ? o.slot : slot };
}

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

describe('the book watch', () => {
  it('proves a frozen book stale from a later trade, and clears on a new sequence', () => {
    const w = new BookWatch();
    w.observe(snapshot(1_000, { book: { ...PAIR.book!, sequence: 7, receivedAt: 1_000 } }));
    const trade = { tradeId: 't', price: dec('1'), quantity: dec('1'), at: 1_000 + CLOCK_MARGIN_MS + 1 };
    const frozen = { book: { ...PAIR.book!, sequence: 7, receivedAt: 9_000 }, trades: [trade] };
    w.observe(snapshot(9_000, frozen));
    expect(w.stale(9_000 + 5_000, 5_000)).toEqual([]);
    const stale = w.stale(9_000 + 5_001, 5_000);
    expect(stale.map((s) => [s.pair, s.since])).toEqual([['BTC/USDC', 1_000]]);
    const adjusted = w.adjust(snapshot(14_001, frozen), stale);
    expect(adjusted.pairs['BTC/USDC']!.book!.receivedAt).toBe(1_000);
    w.observe(snapshot(15_000, { book: { ...PAIR.book!, sequence: 8, receivedAt: 15_000 } }));
    expect(w.stale(30_000, 5_000)).toEqual([]);
  });

  it('takes our own rested orders and committed cancels as proof, but not changes older than the sequence', () => {
    const w = new BookWatch();
    w.observe(snapshot(10_000, { book: { ...PAIR.book!, sequence: 3, receivedAt: 10_000 } }));
    w.changedAfter('BTC/USDC', 9_000, 12_000, 'old');
    expect(w.stale(60_000, 5_000)).toEqual([]);
    w.changedAfter('BTC/USDC', 12_000, 13_000, 'our order rested');
    expect(w.stale(18_001, 5_000).map((s) => s.proof)).toEqual(['our order rested']);
  });
});

describe('the risk inputs from positions', () => {
  const position = (base: string, quote: string, mark: string | null, pnl: string): PairPosition => ({
    pair: 'BTC/USDC',
    base: dec(base),
    quote: dec(quote),
    mark: mark === null ? null : dec(mark),
    pnl: dec(pnl),
    realised: ZERO,
    fills: 1,
  });

  it.each<{ name: string; p: PairPosition; pnl: string | null }>([
    { name: 'marked', p: position('0.5', '-30000', '61000', '500'), pnl: '500' },
    { name: 'flat, no mark: the quote flow is the PnL', p: position('0', '12.5', null, '12.5'), pnl: '12.5' },
    { name: 'a position with no mark: not known', p: position('0.5', '-30000', null, '-30000'), pnl: null },
  ])('$name', ({ p, pnl }) => {
    const r = riskInputs([p]);
    expect(r.inventory['BTC/USDC']!.toFixed()).toBe(p.base.toFixed());
    expect(r.pnl['BTC/USDC'] === null ? null : r.pnl['BTC/USDC']!.toFixed()).toBe(pnl);
  });
});

describe('pipeline failures for the error breaker', () => {
  const ref = { intentId: 'i', slot: 's', key: null, clientOrderId: null, orderId: null };
  it.each<[PlacementOutcome, boolean]>([
    [{ ...ref, kind: 'failed', code: 'CLIENT_TIMEOUT' }, true],
    [{ ...ref, kind: 'ledger-rejected', attempts: 6 }, true],
    [{ ...ref, kind: 'refused', code: 'VALIDATION_ERROR' }, true],
    [{ ...ref, kind: 'refused', code: 'MARKET_MAKER_SUSPENDED' }, false],
    [{ ...ref, kind: 'refused', code: 'API_KEY_REVOKED' }, false],
    [{ ...ref, kind: 'not-wanted', stage: 'queued' }, false],
    [{ ...ref, kind: 'rate-limited', retryAfterMs: 1 }, false],
    [{ ...ref, kind: 'insufficient-balance' }, false],
  ])('%o → %s', (outcome, failure) => {
    expect(isPipelineFailure(outcome)).toBe(failure);
  });
});

describe('readiness', () => {
  const verdict = (over: Partial<RiskVerdict> = {}): RiskVerdict =>
    ({
      ready: true,
      reasons: [],
      pairStates: { 'BTC/USDC': 'active', 'ETH/USDC': 'active' },
      ...over,
    }) as RiskVerdict;
  const input = (over: Partial<ReadinessInput> = {}): ReadinessInput => ({
    phase: 'running',
    preflight: null,
    recoveryError: null,
    account: {
      status: 'ACTIVE',
      maxOpenOrders: null,
      ordersPerMinute: null,
      clientOrderIdPrefix: 'x-',
      readAt: 0,
      authFailing: false,
    },
    authFailing: false,
    verdict: verdict(),
    stale: [],
    pairs: ['BTC/USDC', 'ETH/USDC'],
    ...over,
  });
  it('is ready when running with an ACTIVE account and a quoting pair; lists halted pairs', () => {
    expect(assessDaemonReadiness(input())).toEqual({ ready: true, reasons: [] });
    const oneHalted = verdict({
      pairStates: { 'BTC/USDC': 'halted', 'ETH/USDC': 'active' },
      reasons: [{ pair: 'BTC/USDC', rule: 'price-jump', detail: 'paused' }],
    });
    expect(assessDaemonReadiness(input({ verdict: oneHalted }))).toEqual({
      ready: true,
      reasons: ['BTC/USDC: price-jump: paused'],
    });
    const allHalted = verdict({ pairStates: { 'BTC/USDC': 'halted', 'ETH/USDC': 'halted' } });
    expect(assessDaemonReadiness(input({ verdict: allHalted })).ready).toBe(false);
  });
  it('is not ready, with reasons, when the key fails, the account is suspended, or before running', () => {
    const r = assessDaemonReadiness(input({ authFailing: true, verdict: verdict({ ready: false }) }));
    expect(r.ready).toBe(false);
    expect(r.reasons).toContain('the API key is failing (401 on the last authenticated call)');
    const s = assessDaemonReadiness(input({ account: { ...input().account!, status: 'SUSPENDED' } }));
    expect(s.reasons.join()).toContain('SUSPENDED');
    expect(assessDaemonReadiness(input({ phase: 'recovering' })).ready).toBe(false);
    expect(assessDaemonReadiness(input({ phase: 'closing' })).reasons).toEqual(['shutting down']);
  });
});

describe('the signal relay', () => {
  it('passes signals on, raises its own, exits at once on 128+, defers a normal exit to release()', () => {
    const real = new FakeProcess();
    const relay = new SignalRelay(real);
    const seen: string[] = [];
    relay.on('SIGTERM', () => seen.push('TERM'));
    real.emit('SIGTERM');
    relay.raise('SIGTERM');
    expect(seen).toEqual(['TERM', 'TERM']);
    relay.exit(143);
    expect(real.exits).toEqual([143]);
    relay.exit(0);
    expect(real.exits).toEqual([143]);
    relay.release();
    expect(real.exits).toEqual([143, 0]);
    expect(real.listenerCount('SIGTERM')).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import type { RiskInput, RiskParams, RiskRule } from '../../src/risk/risk-types.js';
import {
  T0,
  account,
  allowedSlots,
  bookAt,
  cancel,
  d,
  deniedReasons,
  forcedKeys,
  input,
  once,
  own,
  params,
  place,
  snapshot,
} from './support/fixtures.js';

/**
 * One evaluation per row: each rule of the gate, alone, with what it allows, denies and cancels.
 * Every row also carries an unrelated cancel, which must always come through first.
 */

const NOW = T0 + 1_000;

interface Row {
  name: string;
  input: Partial<RiskInput>;
  params?: Partial<RiskParams>;
  /** Slots of the allowed placements, in order. */
  allowed: string[];
  denied: RiskRule[];
  /** Keys of the forced cancels. */
  cancels?: string[];
  btc?: 'active' | 'reducing' | 'halted';
  ready?: boolean;
}

const buy = (qty: string, level: number, over: Parameters<typeof place>[3] = {}) =>
  place('BUY', '99', qty, { level, ...over });
const sell = (qty: string, level: number, over: Parameters<typeof place>[3] = {}) =>
  place('SELL', '101', qty, { level, ...over });
const B = (level: number) => `BTC/USDC:BUY:${level}`;
const S = (level: number) => `BTC/USDC:SELL:${level}`;

const rows: Row[] = [
  {
    name: 'all clear: both sides placed',
    input: { actions: [buy('1', 0), sell('1', 0)] },
    allowed: [B(0), S(0)],
    denied: [],
    btc: 'active',
  },
  // --- account readiness: place nothing, cancel nothing, report not-ready
  ...(
    [
      ['account never read', null],
      ['account SUSPENDED', account({ status: 'SUSPENDED' })],
      ['account DISABLED', account({ status: 'DISABLED' })],
      ['API key failing', account({ authFailing: true })],
    ] as const
  ).map(([name, acct]): Row => ({
    name,
    input: {
      snapshot: snapshot(NOW, { account: acct }),
      actions: [buy('1', 0)],
      ownOrders: [own('o1', 'BUY', '1')],
    },
    allowed: [],
    denied: ['not-ready'],
    cancels: [],
    btc: 'halted',
    ready: false,
  })),
  // --- unknown pair
  {
    name: 'a pair missing from the snapshot',
    input: { actions: [place('BUY', '1', '1', { pair: 'XRP/USDC', level: 0 }), buy('1', 1)] },
    allowed: [B(1)],
    denied: ['unknown-pair'],
  },
  // --- stale data
  {
    name: 'stale book: no placement on the pair, its quotes cancelled, other pairs unaffected',
    input: {
      snapshot: snapshot(NOW + 10_000, { books: { 'BTC/USDC': bookAt(NOW + 10_000 - 5_001) } }),
      now: NOW + 10_000,
      actions: [buy('1', 0), place('BUY', '99', '1', { pair: 'ETH/USDC', level: 0 })],
      ownOrders: [own('o1', 'BUY', '1'), own('o2', 'SELL', '1'), own('e1', 'BUY', '1', { pair: 'ETH/USDC' })],
    },
    allowed: ['ETH/USDC:BUY:0'],
    denied: ['stale-book'],
    cancels: ['o1', 'o2'],
    btc: 'halted',
  },
  {
    name: 'book exactly staleBookMs old is still fresh',
    input: {
      snapshot: snapshot(NOW + 10_000, { books: { 'BTC/USDC': bookAt(NOW + 10_000 - 5_000) } }),
      now: NOW + 10_000,
      actions: [buy('1', 0)],
    },
    allowed: [B(0)],
    denied: [],
  },
  {
    name: 'no book yet, just started: no placement, but no cancels either',
    input: {
      snapshot: snapshot(NOW, { books: { 'BTC/USDC': null } }),
      actions: [buy('1', 0)],
      ownOrders: [own('o1', 'BUY', '1')],
    },
    allowed: [],
    denied: ['stale-book'],
    cancels: [],
    btc: 'halted',
  },
  {
    name: 'no book staleBookMs after the gate started: quotes cancelled',
    input: {
      snapshot: snapshot(T0 + 5_001, { books: { 'BTC/USDC': null } }),
      now: T0 + 5_001,
      ownOrders: [own('o1', 'BUY', '1')],
    },
    allowed: [],
    denied: [],
    cancels: ['o1'],
  },
  {
    name: 'orders already cancelling, or cancelled by the reconciler, are not cancelled twice',
    input: {
      snapshot: snapshot(NOW + 10_000, { books: { 'BTC/USDC': bookAt(NOW) } }),
      now: NOW + 10_000,
      actions: [cancel('o1')],
      ownOrders: [
        own('o1', 'BUY', '1'),
        own('o2', 'SELL', '1', { cancelling: true }),
        own('o3', 'SELL', '1'),
      ],
    },
    allowed: [],
    denied: [],
    cancels: ['o3'],
  },
  // --- invalid and notional
  {
    name: 'zero quantity',
    input: { actions: [buy('0', 0), place('BUY', '0', '1', { level: 1 })] },
    allowed: [],
    denied: ['invalid-order', 'invalid-order'],
  },
  {
    name: 'notional above maxOrderNotional (99 x 10.11 = 1000.89)',
    input: { actions: [buy('10.11', 0), buy('10.1', 1)] },
    allowed: [B(1)],
    denied: ['max-order-notional'],
  },
  {
    name: 'per-pair maxOrderNotional override',
    input: { actions: [buy('15', 0), place('BUY', '99', '15', { pair: 'ETH/USDC', level: 0 })] },
    params: { pairLimits: { 'BTC/USDC': { maxOrderNotional: d('2000') } } },
    allowed: [B(0)],
    denied: ['max-order-notional'],
  },
  // --- inventory
  {
    name: 'long at the notional limit (100 x mid 100): reducing, only sells, resting buys cancelled',
    input: {
      inventory: { 'BTC/USDC': d('100') },
      actions: [buy('1', 0), sell('1', 0)],
      ownOrders: [own('b1', 'BUY', '1'), own('s1', 'SELL', '1')],
    },
    allowed: [S(0)],
    denied: ['max-inventory'],
    cancels: ['b1'],
    btc: 'reducing',
  },
  {
    name: 'short beyond the limit: only buys',
    input: { inventory: { 'BTC/USDC': d('-150') }, actions: [buy('1', 0), sell('1', 0)] },
    allowed: [B(0)],
    denied: ['max-inventory'],
    btc: 'reducing',
  },
  {
    name: 'worst case counts resting same-side orders (90 + 5 resting + 6 = 101 > 100)',
    input: {
      inventory: { 'BTC/USDC': d('90') },
      ownOrders: [own('b1', 'BUY', '5')],
      actions: [buy('6', 0), buy('5', 1)],
    },
    params: { maxOrderNotional: d('100000') },
    allowed: [B(1)],
    denied: ['max-inventory'],
  },
  {
    name: 'worst case counts placements allowed earlier in the batch',
    input: { inventory: { 'BTC/USDC': d('90') }, actions: [buy('6', 0), buy('6', 1)] },
    params: { maxOrderNotional: d('100000') },
    allowed: [B(0)],
    denied: ['max-inventory'],
  },
  {
    name: 'the order being replaced and cancelling orders do not count',
    input: {
      inventory: { 'BTC/USDC': d('90') },
      ownOrders: [own('b1', 'BUY', '5'), own('b2', 'BUY', '5', { cancelling: true })],
      actions: [buy('6', 0, { replaces: 'b1' })],
    },
    params: { maxOrderNotional: d('100000') },
    allowed: [B(0)],
    denied: [],
  },
  {
    name: 'per-pair base limit (1.5 + 1 > 2), while a sell is within',
    input: { inventory: { 'BTC/USDC': d('1.5') }, actions: [buy('1', 0), sell('3', 0)] },
    params: { pairLimits: { 'BTC/USDC': { maxInventory: d('2') } } },
    allowed: [S(0)],
    denied: ['max-inventory'],
    btc: 'active',
  },
  {
    name: 'reducing may shrink the position but not cross to the other limit',
    input: {
      inventory: { 'BTC/USDC': d('150') },
      actions: [sell('9.9', 0), sell('9.9', 1, { priority: 1 })],
    },
    params: { maxInventoryNotional: d('1000'), maxOrderNotional: d('100000') },
    // 150 → 140.1 (shrinks, allowed); then 150 − 19.8 = 130.2 still shrinking: allowed.
    allowed: [S(0), S(1)],
    denied: [],
    btc: 'reducing',
  },
  {
    name: 'a reducing sell that would flip far short is refused',
    input: { inventory: { 'BTC/USDC': d('5') }, actions: [sell('9', 0), sell('4', 1)] },
    params: { pairLimits: { 'BTC/USDC': { maxInventory: d('3') } } },
    allowed: [S(1)],
    denied: ['max-inventory'],
    btc: 'reducing',
  },
  // --- open orders
  {
    name: 'own maxOpenOrders: in-flight and cancelling orders count',
    input: {
      ownOrders: [own('a', 'BUY', '1', { resting: false }), own('b', 'SELL', '1', { cancelling: true })],
      actions: [buy('1', 0), sell('1', 0)],
    },
    params: { maxOpenOrders: 3 },
    allowed: [B(0)],
    denied: ['max-open-orders'],
  },
  {
    name: "the account's lower maxOpenOrders wins",
    input: {
      snapshot: snapshot(NOW, { account: account({ maxOpenOrders: 1 }) }),
      actions: [buy('1', 0), sell('1', 0)],
    },
    allowed: [B(0)],
    denied: ['max-open-orders'],
  },
  {
    name: 'foreign resting orders count against the cap',
    input: { otherOpenOrders: 9, actions: [buy('1', 0), sell('1', 0)] },
    allowed: [B(0)],
    denied: ['max-open-orders'],
  },
  // --- rate budget
  {
    name: 'token bucket: burst of 2, the third placement waits',
    input: { actions: [buy('1', 0), buy('1', 1), buy('1', 2)] },
    params: { rateBurst: 2 },
    allowed: [B(0), B(1)],
    denied: ['rate-limit'],
  },
  {
    name: "the account's lower ordersPerMinute shrinks the bucket (4/min → burst 2)",
    input: {
      snapshot: snapshot(NOW, { account: account({ ordersPerMinute: 4 }) }),
      actions: [buy('1', 0), buy('1', 1), buy('1', 2)],
    },
    allowed: [B(0), B(1)],
    denied: ['rate-limit'],
  },
  {
    name: 'placements are budgeted by priority; denied ones consume nothing',
    input: {
      actions: [
        buy('1', 0, { priority: 5 }),
        buy('50', 1, { priority: 0 }), // notional too large: denied, no token
        buy('1', 2, { priority: 1 }),
        buy('1', 3, { priority: 3 }),
      ],
    },
    params: { rateBurst: 2 },
    allowed: [B(2), B(3)],
    denied: ['max-order-notional', 'rate-limit'],
  },
  // --- error breaker
  {
    name: 'breaker: N consecutive failures pause every pair and cancel the quotes',
    input: {
      pipelineFailures: 3,
      actions: [buy('1', 0)],
      ownOrders: [own('o1', 'BUY', '1'), own('e1', 'SELL', '1', { pair: 'ETH/USDC' })],
    },
    allowed: [],
    denied: ['error-breaker'],
    cancels: ['o1', 'e1'],
    btc: 'halted',
    ready: true,
  },
  {
    name: 'breaker: fewer failures change nothing',
    input: { pipelineFailures: 2, actions: [buy('1', 0)] },
    allowed: [B(0)],
    denied: [],
  },
];

describe('risk gate rules', () => {
  it.each(rows)('$name', (row) => {
    const p = params(row.params);
    const inp = input(NOW, { ...row.input, actions: [cancel('unrelated'), ...(row.input.actions ?? [])] });
    const v = once(inp, p);
    expect(v.allowed[0]).toEqual(cancel('unrelated'));
    expect(allowedSlots(v)).toEqual(row.allowed);
    expect(deniedReasons(v)).toEqual(row.denied);
    if (row.cancels !== undefined) expect(forcedKeys(v)).toEqual(row.cancels);
    if (row.btc !== undefined) expect(v.pairStates['BTC/USDC']).toBe(row.btc);
    expect(v.ready).toBe(row.ready ?? true);
    for (const c of v.cancels) expect(c.reason).toMatch(/^risk:/);
  });

  it('reports the conditions in force with their rule and pair', () => {
    const v = once(
      input(NOW + 10_000, {
        snapshot: snapshot(NOW + 10_000, {
          books: { 'BTC/USDC': bookAt(NOW) },
          account: account({ status: 'SUSPENDED' }),
        }),
        inventory: { 'ETH/USDC': d('200') },
      }),
    );
    expect(v.reasons.map((r) => [r.pair, r.rule])).toEqual([
      [null, 'not-ready'],
      ['BTC/USDC', 'stale-book'],
    ]);
    expect(v.pairStates).toEqual({ 'BTC/USDC': 'halted', 'ETH/USDC': 'halted' });
  });

  it('reports reducing with the side that is allowed', () => {
    const v = once(input(NOW, { inventory: { 'ETH/USDC': d('200') } }));
    expect(v.pairStates).toEqual({ 'BTC/USDC': 'active', 'ETH/USDC': 'reducing' });
    expect(v.reasons.map((r) => [r.pair, r.rule])).toEqual([['ETH/USDC', 'max-inventory']]);
    expect(v.reasons[0]!.detail).toContain('only SELL');
  });
});

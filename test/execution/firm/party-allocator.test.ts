import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import {
  allocate,
  type AllocationPolicy,
  type AllocationRequest,
  type PartyLoad,
} from '../../../src/execution/firm/party-allocator.js';

const funds = (base: string, quote: string): Map<string, ReturnType<typeof dec>> =>
  new Map([
    ['BTC', dec(base)],
    ['USDC', dec(quote)],
  ]);

function party(name: string, over: Partial<PartyLoad> = {}): PartyLoad {
  return {
    name,
    active: true,
    pairs: null,
    sides: null,
    queued: 0,
    busySince: null,
    rateLimited: false,
    openOrders: 0,
    maxOpenOrders: 50,
    funds: funds('1', '100000'),
    ...over,
  };
}

const BUY: AllocationRequest = {
  pair: 'BTC/USDC',
  side: 'BUY',
  base: 'BTC',
  quote: 'USDC',
  price: dec('60000'),
  quantity: dec('0.25'),
};
const SELL: AllocationRequest = { ...BUY, side: 'SELL' };

interface Row {
  readonly name: string;
  readonly parties: readonly PartyLoad[];
  readonly request: AllocationRequest;
  readonly policy: AllocationPolicy;
  readonly expected: string | { readonly none: string };
}

const ROWS: readonly Row[] = [
  {
    name: 'an idle pipeline before a busy one',
    parties: [party('a', { queued: 1, busySince: 1_000 }), party('b')],
    request: BUY,
    policy: 'earliest-free',
    expected: 'b',
  },
  {
    name: 'the shorter queue first',
    parties: [party('a', { queued: 2, busySince: 1_000 }), party('b', { queued: 1, busySince: 5_000 })],
    request: BUY,
    policy: 'earliest-free',
    expected: 'b',
  },
  {
    name: 'equal queues: the placement that started first ends first',
    parties: [party('a', { queued: 1, busySince: 9_000 }), party('b', { queued: 1, busySince: 2_000 })],
    request: BUY,
    policy: 'earliest-free',
    expected: 'b',
  },
  {
    name: 'all equal: the list order',
    parties: [party('a'), party('b'), party('c')],
    request: SELL,
    policy: 'earliest-free',
    expected: 'a',
  },
  {
    name: 'a BUY needs quote: the idle party without it is passed over',
    parties: [party('a', { funds: funds('5', '100') }), party('b', { queued: 1, busySince: 0 })],
    request: BUY,
    policy: 'earliest-free',
    expected: 'b',
  },
  {
    name: 'a SELL needs base: the idle party without it is passed over',
    parties: [party('a', { funds: funds('0.1', '900000') }), party('b', { queued: 3, busySince: 0 })],
    request: SELL,
    policy: 'earliest-free',
    expected: 'b',
  },
  {
    name: 'funds exactly enough are enough (0.25 × 60000 = 15000)',
    parties: [party('a', { funds: funds('0', '15000') })],
    request: BUY,
    policy: 'earliest-free',
    expected: 'a',
  },
  {
    name: 'funds not read yet: taken to be there (the venue refuses safely)',
    parties: [party('a', { funds: null })],
    request: BUY,
    policy: 'earliest-free',
    expected: 'a',
  },
  {
    name: 'a dropped-out party is skipped',
    parties: [party('a', { active: false }), party('b', { queued: 2, busySince: 0 })],
    request: BUY,
    policy: 'earliest-free',
    expected: 'b',
  },
  {
    name: 'a party at its open-order cap is skipped',
    parties: [party('a', { openOrders: 50 }), party('b', { queued: 1, busySince: 0 })],
    request: BUY,
    policy: 'earliest-free',
    expected: 'b',
  },
  {
    name: 'a party out of its own per-minute budget is skipped, however idle',
    parties: [party('a', { rateLimited: true }), party('b', { queued: 3, busySince: 0 })],
    request: BUY,
    policy: 'earliest-free',
    expected: 'b',
  },
  {
    name: 'fixed: a rate-limited first party passes the placement down the list',
    parties: [party('a', { rateLimited: true }), party('b', { queued: 3, busySince: 0 })],
    request: SELL,
    policy: 'fixed',
    expected: 'b',
  },
  {
    name: 'fixed: the first listed party that serves the side, however busy',
    parties: [
      party('bids', { sides: ['BUY'], queued: 4, busySince: 0 }),
      party('asks', { sides: ['SELL'] }),
      party('spare'),
    ],
    request: BUY,
    policy: 'fixed',
    expected: 'bids',
  },
  {
    name: 'fixed: by pair',
    parties: [
      party('eth', { pairs: ['ETH/USDC'] }),
      party('btc', { pairs: ['BTC/USDC'], queued: 2, busySince: 0 }),
    ],
    request: SELL,
    policy: 'fixed',
    expected: 'btc',
  },
  {
    name: 'earliest-free keeps the pair and side restrictions',
    parties: [party('asks', { sides: ['SELL'] }), party('any', { queued: 1, busySince: 0 })],
    request: BUY,
    policy: 'earliest-free',
    expected: 'any',
  },
  {
    name: 'nobody serves the pair',
    parties: [party('eth', { pairs: ['ETH/USDC'] })],
    request: BUY,
    policy: 'earliest-free',
    expected: { none: 'no-party-serves' },
  },
  {
    name: 'every party out: inactive',
    parties: [party('a', { active: false }), party('b', { active: false })],
    request: BUY,
    policy: 'earliest-free',
    expected: { none: 'inactive' },
  },
  {
    name: 'the most telling reason wins: unfunded over inactive',
    parties: [party('a', { active: false }), party('b', { funds: funds('0', '1') })],
    request: BUY,
    policy: 'earliest-free',
    expected: { none: 'unfunded' },
  },
  {
    name: 'every party out of budget: rate-limited',
    parties: [party('a', { rateLimited: true }), party('b', { rateLimited: true })],
    request: BUY,
    policy: 'earliest-free',
    expected: { none: 'rate-limited' },
  },
  {
    name: 'the most telling reason wins: at-cap over rate-limited over inactive',
    parties: [
      party('a', { active: false }),
      party('b', { rateLimited: true }),
      party('c', { openOrders: 50 }),
    ],
    request: BUY,
    policy: 'earliest-free',
    expected: { none: 'at-cap' },
  },
  {
    name: 'at cap everywhere',
    parties: [party('a', { openOrders: 50 }), party('b', { openOrders: 60, maxOpenOrders: 60 })],
    request: SELL,
    policy: 'fixed',
    expected: { none: 'at-cap' },
  },
];

describe('the allocator', () => {
  it.each(ROWS)('$name', ({ parties, request, policy, expected }) => {
    const got = allocate(parties, request, policy);
    if (typeof expected === 'string') expect(got).toEqual({ party: expected });
    else expect(got).toMatchObject({ party: null, reason: expected.none });
  });

  it('names the placement when nobody can take it', () => {
    const got = allocate([party('a', { funds: funds('0', '0') })], SELL, 'earliest-free');
    expect(got).toEqual({
      party: null,
      reason: 'unfunded',
      detail: 'no party can place SELL 0.25 BTC/USDC: unfunded',
    });
  });
});

import type { SimCapture } from '../../../../src/lab/simulate/run/capture.js';
import type {
  CallRecord,
  CommitRecord,
  OrderHistoryEntry,
  OrderTruth,
  TradeTruth,
} from '../../../../src/sim/truth/ground-truth.js';
import type { PlacementSpan } from '../../../../src/sim/truth/ground-truth-view.js';
import { profileRanges } from '../../../../src/sim/latency.js';

/**
 * A small hand-made run of 1000 s on one pair (BTC/USDC), every figure checkable by hand:
 *
 * | order | side | price | prepare | submit | rests | ends |
 * |---|---|---|---|---|---|---|
 * | b1 | BUY | 99.9 | 0–10 s | 12–30 s | 42 s | cancelled 470 s |
 * | a1 | SELL | 100.1 | 42–52 s | 54–72 s | 84 s | cancelled 495 s |
 * | x1 | BUY | 99.95 | 100–110 s | never (expired) | | |
 * | b2 | BUY | 100.09 | 420–430 s | 432–450 s | 462 s | rests |
 * | a2 | SELL | 100.31 | 462–472 s | 474–492 s | 504 s | rests |
 *
 * The reference is 100 from 0, 100.2 from 400 s, 99.8 from 800 s and 100.2 from 900 s. Fills:
 * we sell 0.5 @ 100.1 at 200 s, buy 1 @ 99.9 at 300 s, buy 0.5 @ 100.09 at 700 s.
 */

export const PARTY = 'me::1220ab';
export const PAIR = 'BTC/USDC';
const S = 1000;

interface OrderSpec {
  readonly id: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: string;
  readonly createdAt: number;
  readonly restsAt: number | null;
  readonly endsAt: number | null;
  readonly slot: string;
  /** How it ended at `endsAt` (default CANCELLED). */
  readonly endStatus?: 'CANCELLED' | 'FILLED';
}

function order(o: OrderSpec, cid: string = `c-${o.id}`): OrderTruth {
  const history: OrderHistoryEntry[] = [
    { at: o.createdAt, status: null, contractId: null, filled: '0', event: 'prepared' },
  ];
  if (o.restsAt !== null)
    history.push({ at: o.restsAt, status: 'OPEN', contractId: `k-${o.id}`, filled: '0', event: 'committed' });
  if (o.endsAt !== null)
    history.push({
      at: o.endsAt,
      status: o.endStatus ?? 'CANCELLED',
      contractId: `k-${o.id}`,
      filled: o.endStatus === 'FILLED' ? '1' : '0',
      event: o.endStatus === 'FILLED' ? 'filled' : 'cancel-committed',
    });
  if (o.restsAt === null)
    history.push({
      at: o.createdAt + 300 * S,
      status: 'EXPIRED',
      contractId: null,
      filled: '0',
      event: 'prepare-abandoned',
    });
  const last = history[history.length - 1]!;
  return {
    orderId: o.id,
    partyId: PARTY,
    accountSlug: 'me',
    clientOrderId: cid,
    pair: PAIR,
    side: o.side,
    type: 'LIMIT',
    price: o.price,
    quantity: '1',
    filled: '0',
    status: last.status,
    contractId: last.contractId,
    contractIds: o.restsAt === null ? [] : [`k-${o.id}`],
    submitted: o.restsAt !== null,
    committed: o.restsAt !== null,
    stranded: false,
    lock: { token: 'USDC', amount: '0' },
    createdAt: o.createdAt,
    updatedAt: last.at,
    history,
    fills: [],
  };
}

const SPECS: OrderSpec[] = [
  {
    id: 'b1',
    side: 'BUY',
    price: '99.9',
    createdAt: 0,
    restsAt: 42 * S,
    endsAt: 470 * S,
    slot: `${PAIR}:BUY:0#0`,
  },
  {
    id: 'a1',
    side: 'SELL',
    price: '100.1',
    createdAt: 42 * S,
    restsAt: 84 * S,
    endsAt: 495 * S,
    slot: `${PAIR}:SELL:0#0`,
  },
  {
    id: 'x1',
    side: 'BUY',
    price: '99.95',
    createdAt: 100 * S,
    restsAt: null,
    endsAt: null,
    slot: `${PAIR}:BUY:0#1`,
  },
  {
    id: 'b2',
    side: 'BUY',
    price: '100.09',
    createdAt: 420 * S,
    restsAt: 462 * S,
    endsAt: null,
    slot: `${PAIR}:BUY:0#1`,
  },
  {
    id: 'a2',
    side: 'SELL',
    price: '100.31',
    createdAt: 462 * S,
    restsAt: 504 * S,
    endsAt: null,
    slot: `${PAIR}:SELL:0#1`,
  },
];

/** Prepare and submit call windows per order, seconds. */
const CALLS: Record<string, { prepare: [number, number]; submit?: [number, number] }> = {
  b1: { prepare: [0, 10], submit: [12, 30] },
  a1: { prepare: [42, 52], submit: [54, 72] },
  x1: { prepare: [100, 110] },
  b2: { prepare: [420, 430], submit: [432, 450] },
  a2: { prepare: [462, 472], submit: [474, 492] },
};

let callId = 0;
function call(endpoint: 'prepare' | 'submit', orderId: string, [a, b]: [number, number]): CallRecord {
  return {
    id: ++callId,
    endpoint,
    host: endpoint === 'submit' ? 'submit' : 'api',
    method: 'POST',
    path: '/',
    accountSlug: 'me',
    partyId: PARTY,
    startedAt: a * S,
    endedAt: b * S,
    status: 200,
    code: null,
    orderId,
    commandKind: 'place',
    ...(endpoint === 'submit' ? { verdict: 'valid' as const } : {}),
    faults: [],
    latencyMs: (b - a) * S,
    clientAborted: false,
  };
}

function trade(
  id: string,
  at: number,
  takerSide: 'BUY' | 'SELL',
  price: string,
  quantity: string,
  maker: string | null,
): TradeTruth {
  return {
    tradeId: id,
    pair: PAIR,
    price,
    quantity,
    at,
    executedAt: new Date(at).toISOString(),
    takerSide,
    maker: { orderId: null, partyId: maker },
    taker: { orderId: null, partyId: 'taker::1' },
  };
}

/** The capture of the module doc, with overrides. */
export function syntheticCapture(over: Partial<SimCapture> = {}): SimCapture {
  const orders = SPECS.map((s) => order(s));
  const spans: PlacementSpan[] = SPECS.map((s) => ({
    orderId: s.id,
    partyId: PARTY,
    preparedAt: s.createdAt,
    settledAt: s.restsAt,
    outcome: s.restsAt === null ? 'abandoned' : 'committed',
  }));
  const calls = SPECS.flatMap((s) => {
    const c = CALLS[s.id]!;
    return [
      call('prepare', s.id, c.prepare),
      ...(c.submit === undefined ? [] : [call('submit', s.id, c.submit)]),
    ];
  });
  let seq = 0;
  const commit = (kind: 'place' | 'cancel', orderId: string, at: number): CommitRecord => ({
    seq: ++seq,
    at,
    kind,
    commandId: `${kind}-${orderId}`,
    orderId,
    partyId: PARTY,
    ok: true,
  });
  const commits = [
    ...SPECS.filter((s) => s.restsAt !== null).map((s) => commit('place', s.id, s.restsAt!)),
    commit('cancel', 'b1', 470 * S),
    commit('cancel', 'a1', 495 * S),
  ].sort((a, b) => a.at - b.at);
  return {
    start: 0,
    end: 1000 * S,
    partyIds: [PARTY],
    pairs: [PAIR],
    orders,
    trades: [
      trade('t1', 200 * S, 'BUY', '100.1', '0.5', PARTY),
      trade('t2', 300 * S, 'SELL', '99.9', '1', PARTY),
      trade('t3', 650 * S, 'BUY', '100.5', '2', 'someone::else'),
      trade('t4', 700 * S, 'SELL', '100.09', '0.5', PARTY),
    ],
    spans,
    calls,
    commits,
    references: {
      [PAIR]: [
        { at: 0, price: '100' },
        { at: 400 * S, price: '100.2' },
        { at: 800 * S, price: '99.8' },
        { at: 900 * S, price: '100.2' },
      ],
    },
    slots: new Map(SPECS.map((s) => [`c-${s.id}`, s.slot])),
    initialBalances: { BTC: '10', USDC: '1000' },
    cycles: 600,
    abandonedBy: {},
    placementOutcomes: {},
    guards: [],
    log: { warn: 0, error: 0, messages: [] },
    latencyRanges: profileRanges('realistic'),
    ...over,
  };
}

/** An order of the table's shape, for invariant tests. */
export function extraOrder(spec: OrderSpec, clientOrderId?: string): OrderTruth {
  return order(spec, clientOrderId);
}

/** A prepare call of the party, seconds. */
export function prepareCall(orderId: string, from: number, to: number): CallRecord {
  return call('prepare', orderId, [from, to]);
}

/**
 * The simulated venue's read endpoints as the `data` of their responses: GET /account, /pairs,
 * /balances, /orders (filters and cursor pagination), /orders/{orderId} (another party's order is
 * a 404), /orderbook/{pair} (the lagging projection) and /trades. Read-only views of the engine
 * core in wire form; the daemon's pollers and confirmation reads call them through the router.
 */
import { toWire } from '../../core/decimal.js';
import { RESTING_STATUSES, TERMINAL_STATUSES } from '../../core/order-status.js';
import type { Account as AccountWire, Order, OrderBook, Pair, PublicTrade } from '../../venue/schemas.js';
import type { Account } from './accounts.js';
import type { EngineCore } from './engine-core.js';
import { orderToWire } from './orders.js';
import { contractNotFound, validationError } from './sim-error.js';

/** Default and cap of `limit` on GET /orders (the contract states both 50 and 100; 50 is used). */
export const ORDERS_DEFAULT_LIMIT = 50;
export const ORDERS_MAX_LIMIT = 500;
export const TRADES_DEFAULT_LIMIT = 50;
export const TRADES_MAX_LIMIT = 500;
export const DEPTH_DEFAULT = 20;
export const DEPTH_MAX = 500;

/** Query parameters as the router passes them (first value of each). */
export type Query = Record<string, string | undefined>;

/** data of GET /account. The clientOrderId prefix is the slug and a hyphen. */
export function accountView(a: Account): AccountWire {
  return {
    name: a.name,
    slug: a.slug,
    partyId: a.partyId,
    status: a.status,
    feeExempt: a.feeExempt,
    clientOrderIdPrefix: `${a.slug}-`,
    limits: {
      allowedPairs: a.allowedPairs,
      maxOpenOrders: a.maxOpenOrders,
      ordersPerMinute: a.ordersPerMinute,
    },
  };
}

/** data of GET /pairs. */
export function pairsView(core: EngineCore): { pairs: Pair[] } {
  return {
    pairs: [...core.pairs.values()].map((p) => ({
      pair: p.pair,
      base: p.base,
      quote: p.quote,
      minQuoteAmount: p.minQuoteAmount === null ? null : toWire(p.minQuoteAmount),
      feeSymbol: p.feeSymbol,
      ...(p.tick !== null ? { tick: toWire(p.tick) } : {}),
    })),
  };
}

/**
 * data of GET /balances: `{balances: [{instrument, available, locked}]}`, one entry per token
 * of the account's pairs plus any other token it holds, sorted by instrument.
 */
export function balancesView(
  core: EngineCore,
  a: Account,
): { balances: { instrument: string; available: string; locked: string }[] } {
  const pairs = a.allowedPairs === 'all' ? [...core.pairs.keys()] : a.allowedPairs;
  const tokens = new Set<string>();
  for (const p of pairs) {
    const spec = core.pairs.get(p);
    if (spec) tokens.add(spec.base).add(spec.quote);
  }
  const held = core.wallets.view(a.partyId);
  for (const t of Object.keys(held)) tokens.add(t);
  return {
    balances: [...tokens].sort().map((instrument) => {
      const h = core.wallets.holding(a.partyId, instrument);
      return { instrument, available: toWire(h.available), locked: toWire(h.locked) };
    }),
  };
}

/** data of GET /orders/{orderId}: the caller's order in any phase; anyone else's is 404. */
export function orderView(core: EngineCore, a: Account, orderId: string): { order: Order } {
  const o = core.orders.get(orderId);
  if (!o || o.partyId !== a.partyId) throw contractNotFound();
  return { order: orderToWire(o) };
}

const STATUS_FILTERS = new Set<string>(['OPEN', 'ALL', ...RESTING_STATUSES, ...TERMINAL_STATUSES]);

/**
 * data of GET /orders: the caller's submitted orders, newest first. `status` OPEN (default)
 * means every resting status, ALL the whole history, anything else an exact status; `pair`,
 * `side`, `from`/`to` (inclusive bounds on creation time) filter too. Pagination is by
 * `cursor` (an opaque token from `pagination.cursor` of the previous page) and `limit`.
 */
export function ordersView(
  core: EngineCore,
  a: Account,
  q: Query,
): { orders: Order[]; pagination: { limit: number; cursor: string | null; hasMore: boolean } } {
  const status = q['status'] ?? 'OPEN';
  if (!STATUS_FILTERS.has(status)) throw validationError(`Unknown status filter ${status}`);
  const side = q['side'];
  if (side !== undefined && side !== 'BUY' && side !== 'SELL')
    throw validationError('side must be BUY or SELL');
  const pair = q['pair'];
  const from = parseTime(q['from'], 'from');
  const to = parseTime(q['to'], 'to');
  const limit = parseIntParam(q['limit'], 'limit', ORDERS_DEFAULT_LIMIT, 1, ORDERS_MAX_LIMIT);
  const refresh = q['refreshWallet'];
  if (refresh !== undefined && !['true', 'false', '1', '0'].includes(refresh)) {
    throw validationError('refreshWallet must be true or false');
  }
  let before = Infinity;
  if (q['cursor'] !== undefined) {
    const m = /^o(\d+)$/.exec(q['cursor']);
    if (!m) throw validationError('Invalid cursor');
    before = Number(m[1]);
  }
  // Only orders that have not ended can rest: the default OPEN listing skips the history.
  const matches = (status === 'OPEN' ? core.orders.notEnded(a.partyId) : core.orders.ofParty(a.partyId))
    .filter(
      (o) =>
        o.submitted &&
        o.seq < before &&
        (status === 'ALL' ||
          (status === 'OPEN'
            ? (RESTING_STATUSES as readonly string[]).includes(o.status ?? '')
            : o.status === status)) &&
        (pair === undefined || o.pair === pair) &&
        (side === undefined || o.side === side) &&
        (from === undefined || o.createdAt >= from) &&
        (to === undefined || o.createdAt <= to),
    )
    .reverse();
  const page = matches.slice(0, limit);
  const hasMore = matches.length > limit;
  const last = page[page.length - 1];
  return {
    orders: page.map(orderToWire),
    pagination: { limit, cursor: hasMore && last ? `o${last.seq}` : null, hasMore },
  };
}

/** data of GET /orderbook/{pair}: the lagging projection, aggregated by price level. */
export function orderBookView(core: EngineCore, pair: string, q: Query): OrderBook {
  if (!core.pairs.has(pair)) throw validationError(`Unknown pair ${pair}`);
  const depth = parseIntParam(q['depth'], 'depth', DEPTH_DEFAULT, 1, DEPTH_MAX);
  const snap = core.projection.read(core.book(pair));
  return {
    pair,
    bids: snap.bids.slice(0, depth),
    asks: snap.asks.slice(0, depth),
    asOf: { updateId: snap.updateId, sequence: snap.sequence, source: 'projection' },
  };
}

/**
 * data of GET /trades: newest first, no attribution. `nextCursor` (passed back as `cursor`)
 * continues with older trades; null when there are none.
 */
export function tradesView(
  core: EngineCore,
  q: Query,
): { pair: string | null; trades: PublicTrade[]; nextCursor: string | null } {
  const pair = q['pair'] ?? null;
  if (pair !== null && !core.pairs.has(pair)) throw validationError(`Unknown pair ${pair}`);
  const limit = parseIntParam(q['limit'], 'limit', TRADES_DEFAULT_LIMIT, 1, TRADES_MAX_LIMIT);
  let before = Infinity;
  if (q['cursor'] !== undefined) {
    const m = /^t(\d+)$/.exec(q['cursor']);
    if (!m) throw validationError('Invalid cursor');
    before = Number(m[1]);
  }
  const out: PublicTrade[] = [];
  let more = false;
  let lastSeq = 0;
  for (let i = core.publicTrades.length - 1; i >= 0; i--) {
    const t = core.publicTrades[i]!;
    if (t.seq >= before || (pair !== null && t.pair !== pair)) continue;
    if (out.length === limit) {
      more = true;
      break;
    }
    out.push({ tradeId: t.tradeId, price: t.price, quantity: t.quantity, executedAt: t.executedAt });
    lastSeq = t.seq;
  }
  return { pair, trades: out, nextCursor: more ? `t${lastSeq}` : null };
}

function parseTime(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms))
    throw validationError(`${name} must be an ISO 8601 date-time`);
  return ms;
}

function parseIntParam(
  value: string | undefined,
  name: string,
  dflt: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return dflt;
  if (!/^\d+$/.test(value)) throw validationError(`${name} must be an integer`);
  const n = Number(value);
  if (n < min || n > max) throw validationError(`${name} must be between ${min} and ${max}`);
  return n;
}

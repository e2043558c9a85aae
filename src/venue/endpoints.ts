/**
 * The endpoint table: every call the client makes, with its low-cardinality label (used for
 * metrics and in errors), whether it carries the API key, and which timeout applies. Paths are
 * relative to the base URL; submit goes to the absolute `signing.submitUrl` instead.
 */
import type { KnownOrderStatus } from '../core/order-status.js';
import type { Side } from './schemas.js';

/** Which configured timeout a call uses (see `VenueTimeouts`). */
export type TimeoutClass = 'read' | 'balances' | 'prepare' | 'cancelPrepare' | 'submit';

/** One endpoint of either host. */
export interface EndpointDef {
  readonly method: 'GET' | 'POST';
  /** Label such as `GET /orders/{orderId}`; never contains ids or pair names. */
  readonly label: string;
  /** Public endpoints and submit send no credential. */
  readonly auth: boolean;
  readonly timeout: TimeoutClass;
}

function ep(method: 'GET' | 'POST', template: string, auth: boolean, timeout: TimeoutClass): EndpointDef {
  return { method, label: `${method} ${template}`, auth, timeout };
}

/** Every endpoint in the contract (section 4). */
export const ENDPOINTS = {
  pairs: ep('GET', '/pairs', false, 'read'),
  orderBook: ep('GET', '/orderbook/{pair}', false, 'read'),
  trades: ep('GET', '/trades', false, 'read'),
  account: ep('GET', '/account', true, 'read'),
  orders: ep('GET', '/orders', true, 'read'),
  // refreshWallet=true re-queries the wallet service: tens of seconds (34 s measured), like balances.
  ordersRefreshing: { ...ep('GET', '/orders', true, 'balances'), label: 'GET /orders' },
  order: ep('GET', '/orders/{orderId}', true, 'read'),
  balances: ep('GET', '/balances', true, 'balances'),
  prepareOrder: ep('POST', '/orders', true, 'prepare'),
  prepareCancel: ep('POST', '/orders/{contractId}/cancel', true, 'cancelPrepare'),
  cancelAll: ep('POST', '/orders/cancel', true, 'read'),
  submit: ep('POST', '{submitUrl}', false, 'submit'),
} as const satisfies Record<string, EndpointDef>;

/** Name of an endpoint in {@link ENDPOINTS}. */
export type EndpointName = keyof typeof ENDPOINTS;

/** Query of GET /orderbook/{pair}. */
export interface OrderBookQuery {
  /** Levels per side; the venue default is 20. */
  depth?: number;
}

/** Query of GET /trades. */
export interface TradesQuery {
  pair?: string;
  /** The venue default is 50. */
  limit?: number;
  /** A `nextCursor` from a previous page. */
  cursor?: string;
}

/**
 * The `status` filter of GET /orders: `OPEN` (every resting status, the venue default), `ALL`
 * (full history) or one exact status.
 */
export type OrderStatusFilter = 'OPEN' | 'ALL' | KnownOrderStatus | (string & {});

/** Query of GET /orders. */
export interface OrdersQuery {
  pair?: string;
  status?: OrderStatusFilter;
  side?: Side;
  /** Lower bound on creation time; a Date is sent as ISO 8601. */
  from?: Date | string;
  /** Upper bound on creation time; a Date is sent as ISO 8601. */
  to?: Date | string;
  /**
   * Re-query the wallet service on this call. The venue defaults to true, which can add tens of
   * seconds; this client sends `refreshWallet=false` unless the caller passes `true` here.
   */
  refreshWallet?: boolean;
  limit?: number;
  /** A `pagination.cursor` from a previous page. */
  cursor?: string;
}

/** Names of the query parameter that carries a pagination cursor (not shown in the contract). */
export interface CursorParams {
  trades: string;
  orders: string;
}

function positiveInt(name: string, v: number): string {
  if (!Number.isSafeInteger(v) || v <= 0)
    throw new RangeError(`${name} must be a positive integer, got ${v}`);
  return String(v);
}

function isoTime(v: Date | string): string {
  return typeof v === 'string' ? v : v.toISOString();
}

/** The query string of GET /orderbook/{pair}. */
export function orderBookParams(q: OrderBookQuery = {}): URLSearchParams {
  const p = new URLSearchParams();
  if (q.depth !== undefined) p.set('depth', positiveInt('depth', q.depth));
  return p;
}

/** The query string of GET /trades. */
export function tradesParams(q: TradesQuery, cursorParam: string): URLSearchParams {
  const p = new URLSearchParams();
  if (q.pair !== undefined) p.set('pair', q.pair);
  if (q.limit !== undefined) p.set('limit', positiveInt('limit', q.limit));
  if (q.cursor !== undefined) p.set(cursorParam, q.cursor);
  return p;
}

/** The query string of GET /orders. `refreshWallet` is always sent, `false` unless asked for. */
export function ordersParams(q: OrdersQuery, cursorParam: string): URLSearchParams {
  const p = new URLSearchParams();
  if (q.pair !== undefined) p.set('pair', q.pair);
  if (q.status !== undefined) p.set('status', q.status);
  if (q.side !== undefined) p.set('side', q.side);
  if (q.from !== undefined) p.set('from', isoTime(q.from));
  if (q.to !== undefined) p.set('to', isoTime(q.to));
  p.set('refreshWallet', q.refreshWallet === true ? 'true' : 'false');
  if (q.limit !== undefined) p.set('limit', positiveInt('limit', q.limit));
  if (q.cursor !== undefined) p.set(cursorParam, q.cursor);
  return p;
}

/** A path segment (pair, order id, contract id), percent-encoded: `BTC/USDC` → `BTC%2FUSDC`. */
export function segment(value: string): string {
  // '.' and '..' (even percent-encoded) are dot segments to the URL parser and would change the path.
  if (value === '' || value === '.' || value === '..') {
    throw new RangeError(`invalid path parameter ${JSON.stringify(value)}`);
  }
  return encodeURIComponent(value);
}

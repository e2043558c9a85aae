/**
 * The venue client, the last stop of the data flow before the network: {@link VenueClient}
 * speaks to both hosts (the trade API with the API key, the submission host without it) through
 * an injected transport and clock, validates every response against its schema, and turns every
 * failure into a {@link VenueError} keyed by code. It owns per-call timeouts and the retry of
 * reads and keyed prepares; a submission is sent once and resolves to accepted, rejected or
 * ambiguous, never retried. The pollers, the execution layer and the CLI's reads all use it.
 */
import type { z } from 'zod';
import type { CallOptions, PrepareCancelResult, PrepareOrderResult, SubmitOutcome } from './call-types.js';
import {
  resolveAuth,
  resolveOptions,
  type ResolvedOptions,
  type VenueClientOptions,
} from './client-options.js';
import { decodeData, decodeFailure, decodeSubmit, isSuccessStatus, protocolError } from './decode.js';
import {
  ENDPOINTS,
  orderBookParams,
  ordersParams,
  segment,
  tradesParams,
  type EndpointDef,
  type OrderBookQuery,
  type OrdersQuery,
  type TradesQuery,
} from './endpoints.js';
import { VenueError, classify } from './errors.js';
import { exchange, notify, type ExchangeDeps } from './exchange.js';
import { backoffDelay, shouldRetryPrepare, shouldRetryRead, withRetry, type RetryEvent } from './retry.js';
import {
  Account,
  BalancesData,
  OrderBook,
  OrderData,
  OrdersData,
  PairsData,
  PrepareCancelData,
  PrepareOrderData,
  TradesData,
  type Balance,
  type Order,
  type Pair,
  type PrepareOrderBody,
  type SubmitBody,
} from './schemas.js';
import type { TransportResponse } from './transport.js';
import { walkPages, type PageOptions } from './pagination.js';
import { checkSubmitUrl } from './url-policy.js';
import { apiKeyHandle } from '../logging/redact.js';

interface Call<T> {
  ep: EndpointDef;
  path?: string;
  query?: URLSearchParams;
  body?: unknown;
  signal?: AbortSignal | undefined;
  attempts: number;
  shouldRetry: (err: VenueError) => boolean;
  decode: (resp: TransportResponse, label: string) => T;
}

/**
 * The typed client of both venue hosts. Every method validates the response and returns parsed
 * data, or rejects with a {@link VenueError} (branch on `code`, see `classify`); `submit`
 * instead resolves to a {@link SubmitOutcome} and never retries. (The one exception: a `typed`
 * answer of the in-process simulated venue to a read whose schema returns its input is taken as
 * the venue wrote it; see `TransportResponse.typed`.)
 *
 * Timeouts apply per attempt. Reads retry transient failures with backoff; a prepare retries
 * 5xx/timeout/network failures with the identical body, and only when it carries a
 * clientOrderId. Transport and clock are injected, so the same client runs live (see
 * `createLiveVenueClient`), against the simulator, and under fake timers.
 */
export class VenueClient {
  private readonly opts: ResolvedOptions;
  private readonly deps: ExchangeDeps;
  private readonly onRetry: ((e: RetryEvent) => void) | undefined;
  private readonly authHeader: VenueClientOptions['authHeader'];
  private authHeaders: Readonly<Record<string, string>>;
  private handle: string;

  /** Throws on misconfiguration; see `resolveOptions`. */
  constructor(options: VenueClientOptions) {
    this.opts = resolveOptions(options);
    this.authHeader = options.authHeader;
    this.authHeaders = this.opts.authHeaders;
    this.handle = apiKeyHandle(options.apiKey);
    this.deps = {
      transport: options.transport,
      clock: options.clock,
      onResponse: options.onResponse,
      onRateLimited: options.onRateLimited,
    };
    this.onRetry = options.onRetry;
  }

  /** The API key's public handle `mm_ak_<prefix>` (safe to log). */
  get keyHandle(): string {
    return this.handle;
  }

  /**
   * Uses `apiKey` for every authenticated call from now on (a rotated key). Calls in flight keep
   * the old one. Throws TypeError on a malformed key, and the old key stays.
   */
  setApiKey(apiKey: string): void {
    this.authHeaders = resolveAuth(apiKey, this.authHeader);
    this.handle = apiKeyHandle(apiKey);
  }

  /** GET /pairs (public). */
  async getPairs(opts: CallOptions = {}): Promise<Pair[]> {
    return (await this.read(ENDPOINTS.pairs, '/pairs', undefined, PairsData, opts)).pairs;
  }

  /** GET /orderbook/{pair} (public). The pair is URL-encoded (`BTC/USDC` → `BTC%2FUSDC`). */
  async getOrderBook(pair: string, query: OrderBookQuery = {}, opts: CallOptions = {}): Promise<OrderBook> {
    const path = `/orderbook/${segment(pair)}`;
    return this.read(ENDPOINTS.orderBook, path, orderBookParams(query), OrderBook, opts);
  }

  /** GET /trades (public), newest first; pass `nextCursor` back as `cursor` for the next page. */
  async getTrades(query: TradesQuery = {}, opts: CallOptions = {}): Promise<TradesData> {
    const params = tradesParams(query, this.opts.cursorParams.trades);
    return this.read(ENDPOINTS.trades, '/trades', params, TradesData, opts);
  }

  /** GET /account. */
  async getAccount(opts: CallOptions = {}): Promise<Account> {
    return this.read(ENDPOINTS.account, '/account', undefined, Account, opts);
  }

  /**
   * GET /orders, one page. Sends `refreshWallet=false` unless `query.refreshWallet` is `true`
   * (the venue's own default is true and can add tens of seconds).
   */
  async listOrders(query: OrdersQuery = {}, opts: CallOptions = {}): Promise<OrdersData> {
    const params = ordersParams(query, this.opts.cursorParams.orders);
    const ep = query.refreshWallet === true ? ENDPOINTS.ordersRefreshing : ENDPOINTS.orders;
    return this.read(ep, '/orders', params, OrdersData, opts);
  }

  /**
   * Walks GET /orders page by page from `query.cursor` while `hasMore` is true (bounded by
   * `maxPages`, default 100; see `walkPages` for how a walk fails rather than truncates).
   */
  orderPages(query: OrdersQuery = {}, opts: PageOptions = {}): AsyncGenerator<OrdersData, void, void> {
    const call = opts.signal ? { signal: opts.signal } : {};
    return walkPages(
      ENDPOINTS.orders.label,
      (cursor) => this.listOrders({ ...query, cursor }, call),
      (page) => (page.pagination.hasMore ? page.pagination.cursor : null),
      query.cursor,
      opts.maxPages,
    );
  }

  /** Every order across pages, in venue order; see {@link VenueClient.orderPages} for the bounds. */
  async *iterateOrders(query: OrdersQuery = {}, opts: PageOptions = {}): AsyncGenerator<Order, void, void> {
    for await (const page of this.orderPages(query, opts)) yield* page.orders;
  }

  /**
   * GET /orders/{orderId}: the recovery read after a lost submission. An unknown id, or one
   * owned by someone else, is 404 CONTRACT_NOT_FOUND.
   */
  async getOrder(orderId: string, opts: CallOptions = {}): Promise<Order> {
    const path = `/orders/${segment(orderId)}`;
    return (await this.read(ENDPOINTS.order, path, undefined, OrderData, opts)).order;
  }

  /** GET /balances, normalised to one entry per instrument. Startup and slow timer only. */
  async getBalances(opts: CallOptions = {}): Promise<Balance[]> {
    return this.read(ENDPOINTS.balances, '/balances', undefined, BalancesData, opts);
  }

  /**
   * POST /orders: prepares an order; nothing is on the book yet. Retried on 5xx, timeout or
   * network failure with the byte-identical body only when `body.clientOrderId` is set (the
   * venue is idempotent on it); without one, never retried.
   */
  async prepareOrder(body: PrepareOrderBody, opts: CallOptions = {}): Promise<PrepareOrderResult> {
    const idempotent = typeof body.clientOrderId === 'string' && body.clientOrderId !== '';
    return this.run({
      ep: ENDPOINTS.prepareOrder,
      path: '/orders',
      body,
      signal: opts.signal,
      attempts: idempotent ? this.opts.retry.prepareAttempts : 1,
      shouldRetry: shouldRetryPrepare,
      decode: (resp, label) => {
        const data = decodeData(label, resp, PrepareOrderData);
        const signing = data.signing ?? null;
        if (resp.status === 201) return { status: 201, order: data.order, signing };
        if (resp.status === 202 && signing !== null) return { status: 202, order: data.order, signing };
        throw protocolError(
          label,
          resp,
          resp.status === 202 ? 'prepared without signing' : 'unexpected status',
        );
      },
    });
  }

  /**
   * POST /orders/{contractId}/cancel: prepares a cancel of the CURRENT contract id (it rotates
   * on partial fill). Retried on 5xx, timeout or network failure like a prepare.
   */
  async prepareCancel(
    contractId: string,
    body: { reason?: string } = {},
    opts: CallOptions = {},
  ): Promise<PrepareCancelResult> {
    return this.run({
      ep: ENDPOINTS.prepareCancel,
      path: `/orders/${segment(contractId)}/cancel`,
      body: body.reason === undefined ? undefined : { reason: body.reason },
      signal: opts.signal,
      attempts: this.opts.retry.prepareAttempts,
      shouldRetry: shouldRetryPrepare,
      decode: (resp, label) => {
        const data = decodeData(label, resp, PrepareCancelData);
        if (resp.status !== 200 && resp.status !== 202) throw protocolError(label, resp, 'unexpected status');
        return {
          status: resp.status,
          cancelled: data.cancelled,
          order: data.order,
          signing: data.signing ?? null,
        };
      },
    });
  }

  /**
   * POST /orders/cancel, the bulk cancel the venue deliberately does not support. Always
   * rejects: with the venue's 404 NOT_SUPPORTED, or with NOT_SUPPORTED if it ever answers 2xx.
   * Cancel orders one by one with {@link prepareCancel}.
   */
  async cancelAllOrders(opts: CallOptions = {}): Promise<never> {
    return this.run<never>({
      ep: ENDPOINTS.cancelAll,
      path: '/orders/cancel',
      signal: opts.signal,
      attempts: 1,
      shouldRetry: () => false,
      decode: (resp, label) => {
        if (!isSuccessStatus(resp.status)) throw decodeFailure(label, resp);
        throw new VenueError({
          code: 'NOT_SUPPORTED',
          message: `${label}: bulk cancel is not supported by the venue`,
          status: resp.status,
          endpoint: label,
        });
      },
    });
  }

  /**
   * POST {submitUrl} on the submission host, with no API key. `submitUrl` is the prepare
   * response's `signing.submitUrl`, used as given, and only if its origin is the configured
   * submit origin (else `rejected` with CLIENT_SUBMIT_URL_REFUSED or CLIENT_INSECURE_URL,
   * nothing sent; likewise `rejected` with CLIENT_ABORTED for a signal aborted before sending).
   * Sent exactly once; never retried. Resolves, never rejects on venue errors.
   */
  async submit(submitUrl: string, body: SubmitBody, opts: CallOptions = {}): Promise<SubmitOutcome> {
    const label = ENDPOINTS.submit.label;
    try {
      const url = checkSubmitUrl(submitUrl, this.opts.submitOrigin);
      if (opts.signal?.aborted) {
        // Aborted before anything was sent: it cannot have committed, so not ambiguous.
        const error = new VenueError({
          code: 'CLIENT_ABORTED',
          message: `${label}: aborted before sending`,
          endpoint: label,
        });
        return { kind: 'rejected', error };
      }
      await exchange(
        this.deps,
        {
          endpoint: ENDPOINTS.submit,
          url,
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify(body),
          timeoutMs: this.opts.timeouts.submit,
          signal: opts.signal,
        },
        (resp) => decodeSubmit(label, resp),
      );
      return { kind: 'accepted' };
    } catch (err) {
      if (!(err instanceof VenueError)) throw err;
      return classify(err, 'submit') === 'ambiguous'
        ? { kind: 'ambiguous', error: err }
        : { kind: 'rejected', error: err };
    }
  }

  /** Closes the transport. Calls made afterwards fail with CLIENT_NETWORK. */
  async close(): Promise<void> {
    await this.deps.transport.close();
  }

  private async read<S extends z.ZodType>(
    ep: EndpointDef,
    path: string,
    query: URLSearchParams | undefined,
    schema: S,
    opts: CallOptions,
  ): Promise<z.output<S>> {
    return this.run({
      ep,
      path,
      query,
      signal: opts.signal,
      attempts: this.opts.retry.readAttempts,
      shouldRetry: shouldRetryRead,
      decode: (resp, label) => decodeData(label, resp, schema),
    });
  }

  private async run<T>(call: Call<T>): Promise<T> {
    const { ep } = call;
    const qs = call.query?.toString();
    const url = new URL(`${this.opts.baseUrl}${call.path ?? ''}${qs ? `?${qs}` : ''}`);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(ep.auth ? this.authHeaders : {}),
    };
    // Serialised once, so every retry sends byte-identical JSON (same clientOrderId).
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const timeoutMs = this.opts.timeouts[ep.timeout];
    return withRetry(
      {
        endpoint: ep.label,
        attempts: call.attempts,
        shouldRetry: call.shouldRetry,
        delay: (n) => backoffDelay(n, this.opts.retry, this.opts.random),
        clock: this.deps.clock,
        signal: call.signal,
        onRetry: (e) => notify(this.onRetry, e),
      },
      () =>
        exchange(this.deps, { endpoint: ep, url, headers, body, timeoutMs, signal: call.signal }, (resp) =>
          call.decode(resp, ep.label),
        ),
    );
  }
}

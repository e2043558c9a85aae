import FakeTimers from '@sinonjs/fake-timers';
import { fakeClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import type { AccountSetup } from '../../../src/sim/engine/venue-engine.js';
import type { LatencyProfile } from '../../../src/sim/latency.js';
import type { SimResponse } from '../../../src/sim/router/types.js';
import type { SimConfigInput } from '../../../src/sim/sim-config.js';
import { SimVenue } from '../../../src/sim/sim-venue.js';
import { type Order, OrderBook, PrepareOrderData, type SigningEnvelope } from '../../../src/venue/schemas.js';
import { type TestKey, makeTestKey, registerTestAccount, testSimConfig } from '../../support/sim-harness.js';

/** The fixed start of fake time in these tests. */
export const T0 = Date.parse('2025-03-01T12:00:00.000Z');

/** A venue on a fake clock, driven through its router (no sockets), with one funded account. */
export interface InProcessVenue {
  venue: SimVenue;
  fake: FakeTimers.Clock;
  key: TestKey;
  apiKey: string;
  partyId: string;
  slug: string;
  /** Calls the trade API (`path` relative to `/v1`) with the account's key. */
  api(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Parsed>;
  /** Posts a correctly signed submission (fields overridable). */
  submit(signing: SigningEnvelope, overrides?: Record<string, string>): Promise<Parsed>;
  /** Prepare + submit + let the commit happen; returns the order as GET /orders/{id} reads it. */
  place(input: {
    pair?: string;
    side: 'BUY' | 'SELL';
    price: string;
    quantity: string;
    clientOrderId?: string;
  }): Promise<Order>;
  /** Prepare + submit a cancel + let the commit happen. */
  cancel(contractId: string): Promise<Order>;
  order(orderId: string): Promise<Order>;
  /** Background liquidity through the market port: `[[price, qty], ...]` as strings. */
  background(pair: string, bids: [string, string][], asks: [string, string][]): void;
  take(pair: string, side: 'BUY' | 'SELL', qty: string, limit: string): string;
  balances(): Record<string, { available: string; locked: string }>;
}

/** A router answer with its JSON parsed (`json` is undefined for an empty or non-JSON body). */
export interface Parsed extends SimResponse {
  json: Envelope | undefined;
}

/** The envelope; `data` is parsed with the venue's schemas by {@link prepared} and {@link bookOf}. */
export interface Envelope {
  ok: boolean;
  data?: unknown;
  error?: { code: string; message: string; [k: string]: unknown };
  meta?: { requestId?: string };
}

/** data of a 202 prepare, parsed with the venue's schema. */
export function prepared(res: Parsed): { order: Order; signing: SigningEnvelope } {
  const d = PrepareOrderData.parse(res.json?.data);
  if (!d.signing) throw new Error(`no signing in ${res.status}: ${res.body}`);
  return { order: d.order, signing: d.signing };
}

/** data of GET /orderbook, parsed with the venue's schema. */
export function bookOf(res: Parsed): OrderBook {
  return OrderBook.parse(res.json?.data);
}

function parse(res: SimResponse): Parsed {
  let json: Envelope | undefined;
  try {
    json = res.body === '' ? undefined : (JSON.parse(res.body) as Envelope);
  } catch {
    json = undefined;
  }
  return { ...res, json };
}

/** Builds an {@link InProcessVenue}. */
export function inProcessVenue(
  opts: { config?: Partial<SimConfigInput>; account?: Partial<AccountSetup>; latency?: LatencyProfile } = {},
): InProcessVenue {
  const fake = FakeTimers.createClock(T0, 100_000);
  const venue = new SimVenue({
    config: testSimConfig(opts.config),
    clock: fakeClock(fake),
    latency: opts.latency ?? 'instant',
  });
  const key = makeTestKey();
  const { apiKey, partyId, slug } = registerTestAccount(venue, key.publicKeyRaw, opts.account);
  const api: InProcessVenue['api'] = async (method, path, body, headers) =>
    parse(
      await venue.router.handle({
        host: 'api',
        method,
        path: `/v1${path.split('?')[0]}`,
        query: new URLSearchParams(path.split('?')[1] ?? ''),
        headers: { authorization: `Bearer ${apiKey}`, ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  const submit: InProcessVenue['submit'] = async (signing, o = {}) =>
    parse(
      await venue.router.handle({
        host: 'submit',
        method: 'POST',
        path: '/submit',
        body: JSON.stringify({
          partyId: o['partyId'] ?? partyId,
          commandId: o['commandId'] ?? signing.commandId,
          signature: o['signature'] ?? key.sign(signing.preparedTransactionHash),
          publicKey: o['publicKey'] ?? key.publicKeyRaw,
          submitToken: o['submitToken'] ?? signing.submitToken,
          prepared: {
            preparedTransactionHash: o['preparedTransactionHash'] ?? signing.preparedTransactionHash,
            hashingSchemeVersion: o['hashingSchemeVersion'] ?? signing.hashingSchemeVersion,
          },
        }),
      }),
    );
  const order = async (orderId: string): Promise<Order> => {
    const r = await api('GET', `/orders/${orderId}`);
    return (r.json?.data as { order: Order }).order;
  };
  const place: InProcessVenue['place'] = async (input) => {
    const prep = await api('POST', '/orders', { pair: 'BTC/USDC', type: 'LIMIT', ...input });
    if (prep.status !== 202) throw new Error(`prepare ${prep.status}: ${prep.body}`);
    const data = prepared(prep);
    const sub = await submit(data.signing);
    if (sub.status !== 200) throw new Error(`submit ${sub.status}: ${sub.body}`);
    await fake.tickAsync(0);
    return order(data.order.orderId);
  };
  const cancel: InProcessVenue['cancel'] = async (contractId) => {
    const prep = await api('POST', `/orders/${contractId}/cancel`);
    if (prep.status !== 202) throw new Error(`cancel prepare ${prep.status}: ${prep.body}`);
    const data = prep.json!.data as { order: Order; signing: SigningEnvelope };
    const sub = await submit(data.signing);
    if (sub.status !== 200) throw new Error(`cancel submit ${sub.status}: ${sub.body}`);
    await fake.tickAsync(0);
    return order(data.order.orderId);
  };
  return {
    venue,
    fake,
    key,
    apiKey,
    partyId,
    slug,
    api,
    submit,
    place,
    cancel,
    order,
    background: (pair, bids, asks) =>
      venue.market.setBackgroundLiquidity(
        pair,
        bids.map(([p, q]) => [dec(p), dec(q)] as const),
        asks.map(([p, q]) => [dec(p), dec(q)] as const),
      ),
    take: (pair, side, qty, limit) => venue.market.takeLiquidity(pair, side, dec(qty), dec(limit)).toFixed(),
    balances: () => venue.engine.balancesOf(slug),
  };
}

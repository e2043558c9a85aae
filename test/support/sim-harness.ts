import { type KeyObject, generateKeyPairSync, randomBytes, sign as edSign } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { z } from 'zod';
import FakeTimers from '@sinonjs/fake-timers';
import { afterAll, beforeAll } from 'vitest';
import { type Dec, dec } from '../../src/core/decimal.js';
import { fakeClock, type Clock } from '../../src/core/clock.js';
import type { AccountSetup } from '../../src/sim/engine/venue-engine.js';
import type { LatencyProfile } from '../../src/sim/latency.js';
import type { SimConfigInput } from '../../src/sim/sim-config.js';
import { SimVenue } from '../../src/sim/sim-venue.js';
import { signerFromSeed, type Ed25519Signer } from '../../src/signing/ed25519-signer.js';
import {
  ErrorBody,
  type Order,
  OrderData,
  PrepareCancelData,
  PrepareOrderData,
  type SigningEnvelope,
  okEnvelope,
} from '../../src/venue/schemas.js';

/** A sim config for tests: two pairs (min notional 10 USDC), no market model, a live book projection. */
export function testSimConfig(overrides: Partial<SimConfigInput> = {}): SimConfigInput {
  return {
    seed: 7,
    latency: { profile: 'instant' },
    pairs: [
      { pair: 'BTC/USDC', base: 'BTC', quote: 'USDC', minQuoteAmount: '10', feeSymbol: 'USDC' },
      { pair: 'ETH/USDC', base: 'ETH', quote: 'USDC', minQuoteAmount: '10', feeSymbol: 'USDC' },
    ],
    accounts: [],
    bookProjectionLagMs: 0,
    market: { enabled: false },
    ...overrides,
  };
}

/** An Ed25519 key pair and its public key in both wire forms. */
export interface TestKey {
  privateKey: KeyObject;
  /** base64 of the raw 32 bytes. */
  publicKeyRaw: string;
  /** base64 of the SPKI DER. */
  publicKeySpki: string;
  /** Signs the raw bytes of a base64 preparedTransactionHash; returns base64. */
  sign(hashB64: string): string;
}

/** A fresh Ed25519 key, signing for real with node:crypto. */
export function makeTestKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    privateKey,
    publicKeyRaw: spki.subarray(12).toString('base64'),
    publicKeySpki: spki.toString('base64'),
    sign: (hashB64) => edSign(null, Buffer.from(hashB64, 'base64'), privateKey).toString('base64'),
  };
}

/** One HTTP exchange. */
export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
}

/** Options of {@link startSimHarness}. */
export interface SimHarnessOptions {
  /** Merged over {@link testSimConfig}. */
  config?: Partial<SimConfigInput>;
  /** Merged over the default test account. */
  account?: Partial<AccountSetup>;
  clock?: Clock;
  latency?: LatencyProfile;
  /**
   * Lets pending commits happen while {@link SimHarness.waitForOrder} polls. Default: a short real
   * sleep (right for the system clock); with a fake clock pass e.g. `() => fake.tickAsync(0)`.
   */
  advance?: () => Promise<unknown>;
}

/** A venue over real HTTP on port 0 with one registered account and its signing key. */
export interface SimHarness {
  venue: SimVenue;
  baseUrl: string;
  submitUrl: string;
  adminUrl: string;
  apiKey: string;
  slug: string;
  partyId: string;
  /** The account's clientOrderId prefix, `<slug>-`. */
  prefix: string;
  key: TestKey;
  /** A request to the trade API; `path` is relative to the base URL (`/orders`). */
  api(method: 'GET' | 'POST', path: string, opts?: ApiOptions): Promise<HttpResult>;
  /** A request to the operator's loopback endpoints; `path` is relative to `/admin`. */
  admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<HttpResult>;
  /** POSTs a correctly signed submission for `signing` (fields overridable) to its submitUrl. */
  submit(signing: SigningEnvelope, overrides?: Partial<SubmitOverrides>): Promise<HttpResult>;
  /** Prepares, signs, submits and waits until the order rests; returns it. */
  place(order: OrderInput): Promise<Order>;
  /** Prepares, signs and submits a cancel of the current contract; waits until CANCELLED. */
  cancel(contractId: string): Promise<Order>;
  /** GET /orders/{orderId}: the order as the venue shows it now. */
  getOrder(orderId: string): Promise<Order>;
  /** A taker outside the test takes `quantity` from the book up to `limit` (BTC/USDC unless `pair`). */
  take(side: 'BUY' | 'SELL', quantity: string, limit: string, pair?: string): Dec;
  /** Polls GET /orders/{orderId} until `until` holds. */
  waitForOrder(orderId: string, until: (o: Order) => boolean, attempts?: number): Promise<Order>;
  close(): Promise<void>;
}

/** Options of {@link SimHarness.api}. */
export interface ApiOptions {
  body?: unknown;
  /** Raw body text (wins over `body`). */
  rawBody?: string;
  /** How to send the key; default bearer. */
  auth?: 'bearer' | 'x-api-key' | 'none';
  apiKey?: string;
  headers?: Record<string, string>;
}

/** The submission body fields. */
export interface SubmitOverrides {
  partyId: string;
  commandId: string;
  signature: string;
  publicKey: string;
  submitToken: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: string;
}

/** What {@link SimHarness.place} places. */
export interface OrderInput {
  pair?: string;
  side: 'BUY' | 'SELL';
  price: string;
  quantity: string;
  clientOrderId?: string;
}

/** Parses a success envelope with a venue schema; fails loudly with the body otherwise. */
export function okData<T extends z.ZodType>(res: HttpResult, schema: T): z.output<T> {
  const parsed = okEnvelope(schema).safeParse(JSON.parse(res.text));
  if (res.status >= 300 || !parsed.success) {
    throw new Error(
      `expected success, got ${res.status}: ${res.text}${parsed.success ? '' : `\n${parsed.error.message}`}`,
    );
  }
  return (parsed.data as { data: z.output<T> }).data;
}

/** Parses an error body with the venue's schema. */
export function errBody(res: HttpResult): ErrorBody {
  return ErrorBody.parse(JSON.parse(res.text));
}

/** What {@link registerTestAccount} registered. */
export interface TestAccount {
  readonly apiKey: string;
  readonly partyId: string;
  readonly slug: string;
}

/**
 * Registers the funded account every simulator harness uses (slug `testmm`, USDC 100 000, BTC 10,
 * ETH 100, 50 open orders, 1000 orders a minute) under `publicKey`; `account` overrides any field.
 */
export function registerTestAccount(
  venue: SimVenue,
  publicKey: AccountSetup['publicKey'],
  account: Partial<AccountSetup> = {},
): TestAccount {
  const slug = account.slug ?? 'testmm';
  const { apiKey, partyId } = venue.registerAccount({
    name: 'Test Market Maker',
    slug,
    publicKey,
    balances: { USDC: '100000', BTC: '10', ETH: '100' },
    maxOpenOrders: 50,
    ordersPerMinute: 1000,
    ...account,
  });
  return { apiKey, partyId, slug };
}

/**
 * A simulated venue on a fake clock with the funded test account ({@link registerTestAccount})
 * and its Ed25519 signer: what the in-process harnesses (execution, daemon) build on.
 */
export interface FakeClockVenue {
  readonly fake: FakeTimers.Clock;
  readonly clock: Clock;
  readonly venue: SimVenue;
  /** The account's signing key. */
  readonly signer: Ed25519Signer;
  readonly apiKey: string;
  readonly partyId: string;
  readonly slug: string;
}

/** Options of {@link fakeClockVenue}. */
export interface FakeClockVenueOptions {
  /** Where fake time starts (ms since the epoch). */
  readonly startAt: number;
  /** The fake clock's loop limit (timers one tick may run). */
  readonly loopLimit: number;
  readonly latency: LatencyProfile;
  /** Merged over {@link testSimConfig}. */
  readonly config?: Partial<SimConfigInput>;
  /** Merged over the default test account. */
  readonly account?: Partial<AccountSetup>;
}

/** Builds a {@link FakeClockVenue}: the fake clock, the venue on it, a fresh key and the account. */
export function fakeClockVenue(o: FakeClockVenueOptions): FakeClockVenue {
  const fake = FakeTimers.createClock(o.startAt, o.loopLimit);
  const clock = fakeClock(fake);
  const venue = new SimVenue({ config: testSimConfig(o.config), clock, latency: o.latency });
  const signer = signerFromSeed(randomBytes(32), 'raw');
  return { fake, clock, venue, signer, ...registerTestAccount(venue, signer.publicKey, o.account) };
}

/** Where the conformance suites' fake clock starts: 2025-03-01T12:00Z. */
export const FAKE_TIME_START = Date.parse('2025-03-01T12:00:00Z');

/**
 * One venue for the enclosing describe block: started by its `beforeAll`, closed by its `afterAll`.
 * Call it in the describe body; the returned harness is filled in when `beforeAll` has run, so use
 * it only inside hooks and tests.
 */
export function simHarnessPerSuite(options: SimHarnessOptions = {}): SimHarness {
  const h = {} as SimHarness;
  beforeAll(async () => {
    Object.assign(h, await startSimHarness(options));
  });
  afterAll(async () => {
    if (Object.keys(h).length > 0) await h.close();
  });
  return h;
}

/**
 * The conformance suites' venue: {@link simHarnessPerSuite} on a fake clock from
 * {@link FAKE_TIME_START}, so commits wait until the test ticks `fake`.
 */
export function fakeTimeHarnessPerSuite(options: Omit<SimHarnessOptions, 'clock' | 'advance'> = {}): {
  h: SimHarness;
  fake: FakeTimers.Clock;
} {
  const fake = FakeTimers.createClock(FAKE_TIME_START);
  const h = simHarnessPerSuite({ ...options, clock: fakeClock(fake), advance: () => fake.tickAsync(0) });
  return { h, fake };
}

/** Starts a venue over HTTP on 127.0.0.1, port 0, and registers a funded account with a fresh key. */
export async function startSimHarness(options: SimHarnessOptions = {}): Promise<SimHarness> {
  const venue = new SimVenue({
    config: testSimConfig(options.config),
    clock: options.clock,
    latency: options.latency ?? 'instant',
  });
  const key = makeTestKey();
  const { apiKey, partyId, slug } = registerTestAccount(venue, key.publicKeyRaw, options.account);
  const urls = await venue.listen();
  const advance = options.advance ?? (() => delay(2));

  const api: SimHarness['api'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    const k = opts.apiKey ?? apiKey;
    if ((opts.auth ?? 'bearer') === 'bearer') headers['authorization'] = `Bearer ${k}`;
    else if (opts.auth === 'x-api-key') headers['x-api-key'] = k;
    const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${urls.baseUrl}${path}`, { method, headers, body });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const admin: SimHarness['admin'] = async (method, path, body) => {
    const res = await fetch(`${urls.adminUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const submit: SimHarness['submit'] = async (signing, o = {}) => {
    const hash = o.preparedTransactionHash ?? signing.preparedTransactionHash;
    const body = {
      partyId: o.partyId ?? partyId,
      commandId: o.commandId ?? signing.commandId,
      signature: o.signature ?? key.sign(signing.preparedTransactionHash),
      publicKey: o.publicKey ?? key.publicKeyRaw,
      submitToken: o.submitToken ?? signing.submitToken,
      prepared: {
        preparedTransactionHash: hash,
        hashingSchemeVersion: o.hashingSchemeVersion ?? signing.hashingSchemeVersion,
      },
    };
    const res = await fetch(signing.submitUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const getOrder: SimHarness['getOrder'] = async (orderId) =>
    okData(await api('GET', `/orders/${orderId}`), OrderData).order;
  const take: SimHarness['take'] = (side, quantity, limit, pair = 'BTC/USDC') =>
    venue.market.takeLiquidity(pair, side, dec(quantity), dec(limit));
  const waitForOrder: SimHarness['waitForOrder'] = async (orderId, until, attempts = 200) => {
    for (let i = 0; i < attempts; i++) {
      const order = await getOrder(orderId);
      if (until(order)) return order;
      await advance();
    }
    throw new Error(`order ${orderId} never reached the expected state`);
  };
  const place: SimHarness['place'] = async (input) => {
    const prep = okData(
      await api('POST', '/orders', { body: { pair: 'BTC/USDC', type: 'LIMIT', ...input } }),
      PrepareOrderData,
    );
    if (!prep.signing) return prep.order;
    const sub = await submit(prep.signing);
    if (sub.status !== 200) throw new Error(`submit failed ${sub.status}: ${sub.text}`);
    return waitForOrder(prep.order.orderId, (o) => o.status !== null);
  };
  const cancel: SimHarness['cancel'] = async (contractId) => {
    const prep = okData(
      await api('POST', `/orders/${contractId}/cancel`, { body: { reason: 'test' } }),
      PrepareCancelData,
    );
    const sub = await submit(prep.signing!);
    if (sub.status !== 200) throw new Error(`cancel submit failed ${sub.status}: ${sub.text}`);
    return waitForOrder(prep.order!.orderId, (o) => o.status === 'CANCELLED');
  };
  return {
    venue,
    ...urls,
    apiKey,
    slug,
    partyId,
    prefix: `${slug}-`,
    key,
    api,
    admin,
    submit,
    place,
    cancel,
    getOrder,
    take,
    waitForOrder,
    close: () => venue.close(),
  };
}

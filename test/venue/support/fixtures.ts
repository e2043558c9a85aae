import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { systemClock, type Clock } from '../../../src/core/clock.js';
import { VenueClient } from '../../../src/venue/client.js';
import { VenueError } from '../../../src/venue/errors.js';
import type { VenueClientOptions } from '../../../src/venue/client-options.js';
import type { PrepareOrderBody, SubmitBody } from '../../../src/venue/schemas.js';
import type { Transport, TransportRequest, TransportResponse } from '../../../src/venue/transport.js';
import { UndiciTransport } from '../../../src/venue/undici-transport.js';
import { StubServer } from '../../support/stub-server.js';

/** Sample wire data shared by the venue tests. */

export const API_KEY = 'mm_ak_abc123.s3cr3t';

export const ORDER = {
  contractId: 'c-1',
  orderId: 'o-1',
  pair: 'BTC/USDC',
  side: 'BUY',
  type: 'LIMIT',
  price: '64000.5',
  quantity: '0.01',
  filled: '0',
  status: 'OPEN',
  timestamp: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:01Z',
  correlationId: 'corr-1',
  providerFeeAmount: '0',
  cancelFee: { charged: false, amount: '0' },
} as const;

export function order(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...ORDER, ...over };
}

export function signing(submitOrigin: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    requiresSignature: true,
    preparedTransactionHash: 'aGFzaA==',
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    commandId: 'cmd-1',
    submitToken: 'tok-1',
    submitUrl: `${submitOrigin}/submit`,
    status: 'PENDING_SIGNATURE',
    signingUrl: `${submitOrigin}/sign`,
    prepared: {},
    ...over,
  };
}

export const PREPARE_BODY: PrepareOrderBody = {
  pair: 'BTC/USDC',
  side: 'BUY',
  type: 'LIMIT',
  price: '64000.5',
  quantity: '0.01',
  clientOrderId: 'acme-0001',
};

export const SUBMIT_BODY: SubmitBody = {
  partyId: 'party::1220ab',
  commandId: 'cmd-1',
  signature: 'c2ln',
  publicKey: 'cHVi',
  submitToken: 'tok-1',
  prepared: { preparedTransactionHash: 'aGFzaA==', hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' },
};

/** Two stub servers (API and submission host) and a live-transport client pointed at them. */
export interface Harness {
  api: StubServer;
  submitHost: StubServer;
  client: VenueClient;
  make(over?: Partial<VenueClientOptions>): VenueClient;
  close(): Promise<void>;
}

/** Fast retries by default so real-HTTP tests stay quick. */
export async function startHarness(over: Partial<VenueClientOptions> = {}): Promise<Harness> {
  const api = await StubServer.start();
  const submitHost = await StubServer.start();
  const clients: VenueClient[] = [];
  const make = (more: Partial<VenueClientOptions> = {}): VenueClient => {
    const client = new VenueClient({
      baseUrl: `${api.origin}/v1`,
      submitUrl: `${submitHost.origin}/submit`,
      apiKey: API_KEY,
      transport: new UndiciTransport({ origins: [api.origin, submitHost.origin] }),
      clock: systemClock,
      random: () => 0.5,
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      ...over,
      ...more,
    });
    clients.push(client);
    return client;
  };
  const client = make();
  return {
    api,
    submitHost,
    client,
    make,
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all([api.close(), submitHost.close()]);
    },
  };
}

type Handler = (req: TransportRequest) => Promise<TransportResponse> | TransportResponse;

/** An in-memory transport for fake-timer tests: records calls, answers from a script. */
export class FakeTransport implements Transport {
  readonly calls: TransportRequest[] = [];
  closed = false;
  private readonly script: Handler[] = [];

  constructor(private readonly fallback: Handler = hang) {}

  /** Queues handlers for the next calls, in order; afterwards the fallback answers. */
  then(...handlers: Handler[]): this {
    this.script.push(...handlers);
    return this;
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    this.calls.push(req);
    return (this.script.shift() ?? this.fallback)(req);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Never answers; rejects once the request's signal aborts, like a real transport. */
export function hang(req: TransportRequest): Promise<TransportResponse> {
  return new Promise((_, reject) => {
    req.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
}

/** A JSON response. */
export function jsonResponse(status: number, body: unknown): TransportResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** A client over a fake transport and clock (https URLs; nothing leaves the process). */
export function fakeClient(
  transport: Transport,
  clock: Clock,
  over: Partial<VenueClientOptions> = {},
): VenueClient {
  return new VenueClient({
    baseUrl: 'https://api.venue.test/v1',
    submitUrl: 'https://submit.venue.test/submit',
    apiKey: API_KEY,
    transport,
    clock,
    random: () => 0,
    ...over,
  });
}

/**
 * A harness for the tests of one file or describe block: started before all, both stub hosts
 * reset after each test (recorded requests and scripted answers), closed after all.
 */
export function useHarness(over: Partial<VenueClientOptions> = {}): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness(over);
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    h?.api.reset();
    h?.submitHost.reset();
  });
  return () => {
    if (h === undefined) throw new Error('the harness is used outside a test');
    return h;
  };
}

/** The VenueError `p` rejects with; fails the test when it resolves or rejects with anything else. */
export async function caught(p: Promise<unknown>): Promise<VenueError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VenueError);
  return err as VenueError;
}

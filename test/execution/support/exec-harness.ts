/** The fixed start of fake time. */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dec } from '../../../src/core/decimal.js';
import { CancelPool } from '../../../src/execution/cancel/cancel-pool.js';
import { ClientOrderIdFactory } from '../../../src/execution/placement/client-order-id.js';
import { ExecutionEventHub, type ExecutionEvent } from '../../../src/execution/execution-events.js';
import type { PlacementIntent } from '../../../src/execution/placement/placement-intent.js';
import {
  executionSettings,
  type CancelSettings,
  type PlacementSettings,
  type Tuning,
} from '../../../src/execution/execution-settings.js';
import { PlacementPipeline } from '../../../src/execution/placement/placement-pipeline.js';
import type { PlacementPolicy } from '../../../src/execution/placement/placement-policy.js';
import { UnknownResolver } from '../../../src/execution/resolve/unknown-resolver.js';
import { journalWriteAhead, openJournal, type Journal } from '../../../src/orders/journal/index.js';
import { OrderRegistry, type TransitionRecord } from '../../../src/orders/order-registry.js';
import type { TrackedOrder } from '../../../src/orders/fsm/index.js';
import { PreparedVerifier, type VerifyPreparedPolicy } from '../../../src/signing/prepared-verifier.js';
import type { AccountSetup } from '../../../src/sim/engine/venue-engine.js';
import { IN_PROCESS_BASE_URL, IN_PROCESS_SUBMIT_URL } from '../../../src/sim/in-process-transport.js';
import type { LatencyProfile } from '../../../src/sim/latency.js';
import type { SimConfigInput } from '../../../src/sim/sim-config.js';
import { VenueClient } from '../../../src/venue/client.js';
import type { Transport } from '../../../src/venue/transport.js';
import type { VenueTimeouts } from '../../../src/venue/client-options.js';
import { fakeClockVenue, type FakeClockVenue } from '../../support/sim-harness.js';
export const T0 = Date.parse('2025-03-01T12:00:00.000Z');

/** One journal write, with how many venue calls the ground truth had seen when it happened. */
export interface JournalMark {
  readonly key: string;
  readonly state: string;
  readonly event: string | null;
  readonly callsBefore: number;
}

/** Options of {@link execHarness}. */
export interface ExecHarnessOptions {
  readonly latency?: LatencyProfile;
  readonly config?: Partial<SimConfigInput>;
  readonly account?: Partial<AccountSetup>;
  /** The pipeline's settings over the engine's defaults. */
  readonly pipeline?: Tuning<PlacementSettings>;
  /** The pipeline's placement policy. Default: every intent wanted, nothing held. */
  readonly policy?: PlacementPolicy;
  /** The cancel pool's settings over the engine's defaults. */
  readonly pool?: Tuning<CancelSettings>;
  readonly timeouts?: Partial<VenueTimeouts>;
  /** Wraps the in-process transport (tampering, hiding reads…). */
  readonly wrap?: (inner: Transport) => Transport;
  /** Clear signing's policy (config `signing.verifyPrepared`). Default `if-present`. */
  readonly verifyPrepared?: VerifyPreparedPolicy;
}

/** A simulated venue on a fake clock and the whole execution layer against it, journal included. */
export interface ExecHarness extends FakeClockVenue {
  readonly client: VenueClient;
  readonly journal: Journal<TrackedOrder>;
  readonly journalMarks: JournalMark[];
  readonly registry: OrderRegistry;
  readonly resolver: UnknownResolver;
  readonly pipeline: PlacementPipeline;
  readonly pool: CancelPool;
  readonly events: ExecutionEvent[];
  /** Drives fake time until `promise` settles (or `maxMs` of fake time passed: then throws). */
  settle<T>(promise: Promise<T>, maxMs?: number): Promise<T>;
  /** Advances fake time by `ms`. */
  advance(ms: number): Promise<void>;
  /** Events of one type. */
  eventsOf<K extends ExecutionEvent['type']>(type: K): Extract<ExecutionEvent, { type: K }>[];
  close(): Promise<void>;
}

/** A BUY intent on BTC/USDC, 0.01 @ 60000 by default. */
export function buy(slot: string, price = '60000', quantity = '0.01'): PlacementIntent {
  return { slot, pair: 'BTC/USDC', side: 'BUY', price: dec(price), quantity: dec(quantity) };
}

/** A SELL intent on BTC/USDC. */
export function sell(slot: string, price = '61000', quantity = '0.01'): PlacementIntent {
  return { slot, pair: 'BTC/USDC', side: 'SELL', price: dec(price), quantity: dec(quantity) };
}

/** Builds the harness. Close it in `afterEach`. */
export function execHarness(opts: ExecHarnessOptions = {}): ExecHarness {
  const base = fakeClockVenue({
    startAt: T0,
    loopLimit: 1_000_000,
    config: opts.config,
    latency: opts.latency ?? 'realistic',
    account: opts.account,
  });
  const { fake, clock, venue, signer, apiKey, partyId, slug } = base;
  const inner = venue.createTransport();
  const client = new VenueClient({
    baseUrl: IN_PROCESS_BASE_URL,
    submitUrl: IN_PROCESS_SUBMIT_URL,
    apiKey,
    transport: opts.wrap ? opts.wrap(inner) : inner,
    clock,
    random: () => 0.5,
    ...(opts.timeouts ? { timeouts: opts.timeouts } : {}),
  });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-exec-'));
  const journal = openJournal<TrackedOrder>({ path: path.join(dir, 'journal.sqlite'), clock });
  const journalMarks: JournalMark[] = [];
  const toJournal = journalWriteAhead(journal);
  const writeAhead = (record: TransitionRecord): void => {
    journalMarks.push({
      key: record.key,
      state: record.order.state,
      event: record.event?.type ?? null,
      callsBefore: venue.truth.calls().length,
    });
    toJournal(record);
  };
  const registry = new OrderRegistry({ writeAhead });

  const events: ExecutionEvent[] = [];
  const hub = new ExecutionEventHub();
  hub.subscribe((e) => events.push(e));
  const verifier = new PreparedVerifier({ policy: opts.verifyPrepared ?? 'if-present', partyId });
  const deps = { venue: client, registry, signer, partyId, clock, observer: hub.emit, verifier };
  const settings = executionSettings({}, { placement: opts.pipeline ?? {}, cancel: opts.pool ?? {} });
  const resolver = new UnknownResolver({ ...deps, settings: settings.resolver });
  const pipeline = new PlacementPipeline({
    ...deps,
    resolver,
    clientOrderIds: new ClientOrderIdFactory({ prefix: `${slug}-`, clock }),
    settings: settings.placement,
    ...(opts.policy === undefined ? {} : { policy: opts.policy }),
  });
  const pool = new CancelPool({ ...deps, settings: settings.cancel });

  const advance = async (ms: number): Promise<void> => {
    await fake.tickAsync(ms);
  };
  const settle = async <T>(promise: Promise<T>, maxMs = 30 * 60_000): Promise<T> => {
    let done = false;
    const tracked = promise.finally(() => {
      done = true;
    });
    for (let t = 0; !done && t < maxMs; t += 500) await fake.tickAsync(500);
    if (!done) throw new Error(`did not settle within ${maxMs} ms of fake time`);
    return tracked;
  };
  let closed = false;
  return {
    ...base,
    client,
    journal,
    journalMarks,
    registry,
    resolver,
    pipeline,
    pool,
    events,
    settle,
    advance,
    eventsOf: <K extends ExecutionEvent['type']>(type: K) =>
      events.filter((e): e is Extract<ExecutionEvent, { type: K }> => e.type === type),
    close: async () => {
      if (closed) return;
      closed = true;
      await settle(Promise.all([pipeline.close({ drainMs: 1_000 }), pool.close({ drainMs: 1_000 })]), 60_000);
      await settle(resolver.close(), 60_000);
      await venue.close();
      journal.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The same pipeline and cancel pool over real HTTP (undici, port 0, the system clock) against the
 * simulator's instant profile: the wire format, both hosts and the submitUrl vetting are real.
 */

import { DEFAULT_EXECUTION_SETTINGS } from '../../../src/execution/execution-settings.js';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { CancelPool } from '../../../src/execution/cancel/cancel-pool.js';
import { ClientOrderIdFactory } from '../../../src/execution/placement/client-order-id.js';
import type { ExecutionEvent } from '../../../src/execution/execution-events.js';
import { PlacementPipeline } from '../../../src/execution/placement/placement-pipeline.js';
import { UnknownResolver } from '../../../src/execution/resolve/unknown-resolver.js';
import { OrderRegistry } from '../../../src/orders/order-registry.js';
import { signerFromSeed } from '../../../src/signing/ed25519-signer.js';
import { createLiveVenueClient } from '../../../src/venue/live-client.js';
import type { VenueClient } from '../../../src/venue/client.js';
import { startSimHarness, type SimHarness } from '../../support/sim-harness.js';
import { buy } from '../support/exec-harness.js';
import { expectNoDuplicateLive, partyOrders } from '../support/ground-truth.js';

let sim: SimHarness | undefined;
let client: VenueClient | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await client?.close();
  await sim?.close();
  sim = undefined;
  client = undefined;
});

const FAST = { initialMs: 10, factor: 1.5, maxMs: 50 };

describe('execution over HTTP', () => {
  it('places, survives a 504 that committed, and cancels; the venue shows no duplicate', async () => {
    sim = await startSimHarness({ latency: 'instant' });
    const signer = signerFromSeed(randomBytes(32));
    sim.venue.setPublicKey(sim.slug, signer.publicKey);
    client = createLiveVenueClient({ baseUrl: sim.baseUrl, submitUrl: sim.submitUrl, apiKey: sim.apiKey });
    const registry = new OrderRegistry();
    const events: ExecutionEvent[] = [];
    const deps = {
      venue: client,
      registry,
      signer,
      partyId: sim.partyId,
      clock: systemClock,
      observer: (e: ExecutionEvent) => void events.push(e),
    };
    const resolver = new UnknownResolver({
      ...deps,
      settings: { ...DEFAULT_EXECUTION_SETTINGS.resolver, backoff: FAST },
    });
    const pipeline = new PlacementPipeline({
      ...deps,
      resolver,
      clientOrderIds: new ClientOrderIdFactory({ prefix: sim.prefix, clock: systemClock }),
      settings: { ...DEFAULT_EXECUTION_SETTINGS.placement, confirmBackoff: FAST },
    });
    const pool = new CancelPool({
      ...deps,
      settings: { ...DEFAULT_EXECUTION_SETTINGS.cancel, confirmBackoff: FAST, retryBackoff: FAST },
    });
    closers.push(
      () => pipeline.close(),
      () => pool.close(),
      () => resolver.close(),
    );

    const first = await pipeline.place(buy('s-a'));
    expect(first).toMatchObject({ kind: 'placed', state: 'OPEN' });

    sim.venue.addFault({
      kind: 'error',
      endpoint: 'submit',
      status: 504,
      effect: true,
      at: sim.venue.faults.count('submit') + 1,
    });
    const second = await pipeline.place(buy('s-b', '59000'));
    expect(second).toMatchObject({ kind: 'placed', state: 'OPEN' });
    expect(events.filter((e) => e.type === 'unknown').map((e) => (e as { key: string }).key)).toEqual([
      second.key,
    ]);

    const cancelled = await Promise.all([pool.cancel(first.key!), pool.cancel(second.key!)]);
    expect(cancelled.map((c) => c.kind)).toEqual(['cancelled', 'cancelled']);

    const orders = partyOrders(sim.venue, sim.partyId);
    expect(orders.map((o) => [o.clientOrderId, o.status])).toEqual([
      [first.clientOrderId, 'CANCELLED'],
      [second.clientOrderId, 'CANCELLED'],
    ]);
    expect(sim.venue.truth.submits().map((s) => [s.commandKind, s.status])).toEqual([
      ['place', 200],
      ['place', 504],
      ['cancel', 200],
      ['cancel', 200],
    ]);
    expectNoDuplicateLive(sim.venue, sim.partyId, registry);
  });
});

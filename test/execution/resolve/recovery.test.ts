/**
 * Recovery on start against the simulated venue: the `recovery.unknownOrders` policies, orders
 * that changed while the daemon was down, and a registry rebuilt identical to the one before a
 * crash. Every assertion is checked against the venue's ground truth.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { UnknownOrderPolicy } from '../../../src/config/schema.js';
import type { PlacementIntent } from '../../../src/execution/placement/placement-intent.js';
import type { Order } from '../../../src/venue/schemas.js';
import { disposeAll, settle, startDaemon, until, type DaemonProcess } from '../support/daemon.js';
import {
  expectNoDuplicateLive,
  liveOnVenue,
  placeDirect,
  simEnv,
  takeFrom,
  truthByCoid,
  type SimEnv,
} from '../support/sim-env.js';

function intent(slot: string, side: 'BUY' | 'SELL', price: string, quantity = '0.01'): PlacementIntent {
  return { slot, pair: 'BTC/USDC', side, price: dec(price), quantity: dec(quantity) };
}

let env: SimEnv;
let daemons: DaemonProcess[] = [];

function daemon(path: string, policy?: UnknownOrderPolicy): DaemonProcess {
  const d = startDaemon(env, path, policy === undefined ? {} : { recovery: { unknownOrders: policy } });
  daemons.push(d);
  return d;
}

beforeEach(() => {
  env = simEnv();
  daemons = [];
});
afterEach(() => disposeAll(env, daemons));

/** One order of ours (placed by a daemon, left resting) and two foreign ones: anonymous, and our prefix. */
async function world(path: string): Promise<{ ours: string; foreign: Order[] }> {
  const a = daemon(path);
  await settle(env, a.engine.start());
  const placed = await settle(env, a.engine.place(intent('BTC/USDC:BUY:0', 'BUY', '60000')));
  await settle(env, a.engine.close());
  const foreign = [
    await placeDirect(env, { side: 'SELL', price: '71000', quantity: '0.05' }),
    await placeDirect(env, {
      side: 'SELL',
      price: '72000',
      quantity: '0.05',
      clientOrderId: `${env.prefix}other-1`,
    }),
  ];
  return { ours: placed.key!, foreign };
}

function foreignEvents(d: DaemonProcess): string[] {
  return d.events.flatMap((e) =>
    e.type === 'foreign-order' ? [`${e.source}:${e.action}:${e.order.orderId}`] : [],
  );
}

describe('recovery: unknown resting orders by policy', () => {
  it('adopt (default): tracked as foreign, left resting, and the strategy may cancel them', async () => {
    const path = env.storePath();
    const { ours, foreign } = await world(path);
    const b = daemon(path);
    await settle(env, b.engine.start());
    expect(foreignEvents(b).sort()).toEqual(foreign.map((f) => `recovery:adopted:${f.orderId}`).sort());
    for (const f of foreign) {
      const t = b.engine.orders.byOrderId(f.orderId)!;
      expect(t).toMatchObject({ state: 'OPEN', slot: null, key: `foreign:${f.orderId}` });
      expect(t.flags.foreign).toBe(true);
      expect(env.venue.truth.order(f.orderId)!.status).toBe('OPEN');
    }
    expect(b.engine.orders.get(ours)!.state).toBe('OPEN');
    // Later polls do not flag them again.
    await env.tick(30_000);
    expect(foreignEvents(b)).toHaveLength(2);
    const outcome = await settle(
      env,
      b.engine.cancel(`foreign:${foreign[0]!.orderId}`, { reason: 'strategy' }),
    );
    expect(outcome.kind).toBe('cancelled');
    expect(env.venue.truth.order(foreign[0]!.orderId)!.status).toBe('CANCELLED');
    expectNoDuplicateLive(env);
  });

  it('cancel: adopted and cancelled through the cancel pool; our own order is untouched', async () => {
    const path = env.storePath();
    const { ours, foreign } = await world(path);
    const b = daemon(path, 'cancel');
    const report = await settle(env, b.engine.start());
    expect([...report.cancels].sort()).toEqual(foreign.map((f) => `foreign:${f.orderId}`).sort());
    await until(env, () => foreign.every((f) => b.engine.orders.byOrderId(f.orderId)!.state === 'CANCELLED'));
    for (const f of foreign) expect(env.venue.truth.order(f.orderId)!.status).toBe('CANCELLED');
    expect(truthByCoid(env, ours)!.status).toBe('OPEN');
    expect(b.engine.orders.get(ours)!.state).toBe('OPEN');
    expect(liveOnVenue(env).map((o) => o.clientOrderId)).toEqual([ours]);
  });

  it('ignore: left alone and untracked, but counted (they still take open-order slots) and flagged', async () => {
    const path = env.storePath();
    const { ours, foreign } = await world(path);
    const b = daemon(path, 'ignore');
    await settle(env, b.engine.start());
    expect(foreignEvents(b).sort()).toEqual(foreign.map((f) => `recovery:ignored:${f.orderId}`).sort());
    expect(b.engine.ignoredOrders).toBe(2);
    expect(b.engine.orders.all().map((o) => o.key)).toEqual([ours]);
    await env.tick(30_000);
    expect(b.engine.orders.size).toBe(1);
    expect(foreignEvents(b)).toHaveLength(2);
    for (const f of foreign) expect(env.venue.truth.order(f.orderId)!.status).toBe('OPEN');
    // One goes away (the person cancelled it): it no longer counts.
    env.venue.operator.forceCancel(foreign[0]!.orderId);
    await env.tick(10_000);
    expect(b.engine.ignoredOrders).toBe(1);
  });
});

describe('recovery: the venue moved on while the daemon was down', () => {
  it('resolves fills, venue cancels and expiries by reading each order, and books the fills', async () => {
    const path = env.storePath();
    const a = daemon(path);
    await settle(env, a.engine.start());
    const filled = await settle(env, a.engine.place(intent('BTC/USDC:BUY:0', 'BUY', '60000', '0.5')));
    const partial = await settle(env, a.engine.place(intent('BTC/USDC:BUY:1', 'BUY', '59000', '0.5')));
    const venueCancelled = await settle(
      env,
      a.engine.place(intent('BTC/USDC:SELL:0', 'SELL', '70000', '0.5')),
    );
    await settle(env, a.engine.close());

    takeFrom(env, 'SELL', '0.5', '60000'); // fills `filled` entirely
    takeFrom(env, 'SELL', '0.2', '59000'); // part of `partial`
    env.venue.operator.forceCancel(venueCancelled.orderId!);

    const b = daemon(path);
    const report = await settle(env, b.engine.start());
    expect(report.restored).toBe(3);
    const state = (k: string | null): string => b.engine.orders.get(k!)!.state;
    expect(state(filled.key)).toBe('FILLED');
    expect(state(partial.key)).toBe('PARTIALLY_FILLED');
    expect(state(venueCancelled.key)).toBe('CANCELLED');
    expect(b.engine.orders.get(venueCancelled.key!)!.flags.alarms).toContain('cancelled-by-venue');
    for (const o of [filled, partial, venueCancelled]) {
      const truth = truthByCoid(env, o.clientOrderId!)!;
      const local = b.engine.orders.get(o.key!)!;
      expect(local.state).toBe(truth.status);
      expect(local.filled.eq(dec(truth.filled))).toBe(true);
      expect(local.contractIds.at(-1)).toBe(truth.contractId);
    }
    expect(b.engine.inventory.get('BTC/USDC').base.toFixed()).toBe('0.7');
    expect(b.engine.inventory.get('BTC/USDC').quote.toFixed()).toBe(dec('-30000').minus('11800').toFixed());
  });
});

describe('recovery rebuilds the registry as it was before a crash', () => {
  it('same orders, same states, same fills, contracts and flags; same inventory', async () => {
    const path = env.storePath();
    const a = daemon(path);
    await settle(env, a.engine.start());
    const open = await settle(env, a.engine.place(intent('BTC/USDC:BUY:0', 'BUY', '59000', '0.5')));
    const partial = await settle(env, a.engine.place(intent('BTC/USDC:BUY:1', 'BUY', '60000', '0.5')));
    const cancelled = await settle(env, a.engine.place(intent('BTC/USDC:SELL:0', 'SELL', '70000', '0.2')));
    await settle(env, a.engine.cancel(cancelled.key!, { reason: 'test' }));
    takeFrom(env, 'SELL', '0.1', '60000');
    const direct = await placeDirect(env, { side: 'SELL', price: '73000', quantity: '0.05' });
    await until(
      env,
      () =>
        a.engine.orders.get(partial.key!)!.state === 'PARTIALLY_FILLED' &&
        a.engine.orders.byOrderId(direct.orderId) !== undefined,
    );
    expect(open.kind).toBe('placed');
    const before = a.engine.orders.active().sort((x, y) => x.key.localeCompare(y.key));
    const inventoryBefore = a.engine.inventory.all();
    expect(before.map((o) => o.state).sort()).toEqual(['OPEN', 'OPEN', 'PARTIALLY_FILLED']);
    a.kill();

    const b = daemon(path);
    const report = await settle(env, b.engine.start());
    expect(report.orders.map((o) => o.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    const after = b.engine.orders.active().sort((x, y) => x.key.localeCompare(y.key));
    expect(after).toEqual(before);
    expect(b.engine.inventory.all()).toEqual(inventoryBefore);
    expect(b.engine.orders.slotViolations()).toEqual([]);
    expectNoDuplicateLive(env);
  });
});

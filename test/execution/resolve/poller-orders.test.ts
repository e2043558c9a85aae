import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FillTracker, type OrderObservation } from '../../../src/execution/fills.js';
import { Inventory } from '../../../src/execution/inventory.js';
import {
  IgnoredOrders,
  OrdersPoller,
  UnknownOrders,
  type OrdersPollerEvent,
} from '../../../src/execution/resolve/orders-poller.js';
import type { UnknownOrderPolicy } from '../../../src/config/schema.js';
import { currentContractId } from '../../../src/orders/fsm/index.js';
import { ManualPlacer } from '../support/manual-placer.js';
import {
  expectNoDuplicateLive,
  openStore,
  placeDirect,
  simEnv,
  takeFrom,
  truthByCoid,
  type SimEnv,
  type Store,
} from '../support/sim-env.js';

interface Rig {
  store: Store;
  placer: ManualPlacer;
  poller: OrdersPoller;
  inventory: Inventory;
  events: (OrdersPollerEvent | OrderObservation)[];
  ignored: IgnoredOrders;
  cancels: string[];
}

let env: SimEnv;
let rig: Rig;

function build(policy: UnknownOrderPolicy = 'adopt'): Rig {
  const store = openStore(env, env.storePath());
  const client = env.client();
  const events: Rig['events'] = [];
  const ignored = new IgnoredOrders();
  const cancels: string[] = [];
  const emit = (e: OrdersPollerEvent | OrderObservation): void => void events.push(e);
  const unknown = new UnknownOrders({
    registry: store.registry,
    policy,
    ignored,
    requestCancel: (o) => cancels.push(o.key),
    emit,
  });
  const inventory = new Inventory();
  new FillTracker(store.registry, inventory, emit).attach();
  const poller = new OrdersPoller({
    client,
    registry: store.registry,
    clock: env.clock,
    unknown,
    ignored,
    emit,
  });
  return {
    store,
    placer: new ManualPlacer(env, store.registry, client),
    poller,
    inventory,
    events,
    ignored,
    cancels,
  };
}

beforeEach(() => {
  env = simEnv();
});

afterEach(async () => {
  await rig.poller.close();
  rig.store.journal.close();
  await env.dispose();
});

describe('orders poller', () => {
  it('lists OPEN orders with refreshWallet=false, every page', async () => {
    rig = build();
    for (let i = 0; i < 3; i++)
      await placeDirect(env, { side: 'BUY', price: `${50_000 + i}`, quantity: '0.01' });
    env.requests.length = 0;
    await rig.poller.runNow();
    const lists = env.requests.filter((u) => u.pathname.endsWith('/orders'));
    expect(lists.length).toBeGreaterThan(0);
    for (const u of lists) {
      expect(u.searchParams.get('status')).toBe('OPEN');
      expect(u.searchParams.get('refreshWallet')).toBe('false');
    }
    expect(rig.store.registry.active({ foreign: true })).toHaveLength(3);
  });

  it('turns partial fills into fill events with pair, side, price and quantity, and into inventory', async () => {
    rig = build();
    const key = await rig.placer.place({ side: 'BUY', price: '60000', quantity: '0.5' });
    takeFrom(env, 'SELL', '0.2', '60000');
    await rig.poller.runNow();
    takeFrom(env, 'SELL', '0.1', '60000');
    await rig.poller.runNow();

    const fills = rig.events.flatMap((e) => (e.type === 'fill' ? [e.fill] : []));
    expect(fills.map((f) => [f.pair, f.side, f.price?.toFixed(), f.quantity.toFixed(), f.seq])).toEqual([
      ['BTC/USDC', 'BUY', '60000', '0.2', 1],
      ['BTC/USDC', 'BUY', '60000', '0.1', 2],
    ]);
    const inv = rig.inventory.get('BTC/USDC');
    expect(inv.base.toFixed()).toBe('0.3');
    expect(inv.quote.toFixed()).toBe('-18000');

    // Registry agrees with the venue's ground truth (filled, status, rotated contract).
    const truth = truthByCoid(env, key)!;
    const tracked = rig.store.registry.get(key)!;
    expect(truth.filled).toBe('0.3');
    expect(tracked.filled.toFixed()).toBe('0.3');
    expect(tracked.state).toBe('PARTIALLY_FILLED');
    expect(currentContractId(tracked)).toBe(truth.contractId);
    expect(rig.store.journal.fills(tracked.orderId!).map((f) => f.delta.toFixed())).toEqual(['0.2', '0.1']);

    // A poll with nothing new writes nothing.
    const version = tracked.version;
    await rig.poller.runNow();
    expect(rig.store.registry.get(key)!.version).toBe(version);
    expectNoDuplicateLive(env);
  });

  it('resolves an order that vanished from the OPEN list by GET /orders/{orderId}, never by assumption', async () => {
    rig = build();
    const filledKey = await rig.placer.place({ side: 'BUY', price: '60000', quantity: '0.5' });
    const cancelledKey = await rig.placer.place({ side: 'SELL', price: '70000', quantity: '0.5' });
    takeFrom(env, 'SELL', '0.5', '60000');
    env.venue.operator.forceCancel(rig.store.registry.get(cancelledKey)!.orderId!);
    env.requests.length = 0;
    await rig.poller.runNow();

    const reads = env.requests.filter((u) => /\/orders\/[^/]+$/.test(u.pathname)).map((u) => u.pathname);
    expect(reads.sort()).toEqual(
      [filledKey, cancelledKey].map((k) => `/v1/orders/${rig.store.registry.get(k)!.orderId!}`).sort(),
    );
    expect(rig.store.registry.get(filledKey)!.state).toBe(truthByCoid(env, filledKey)!.status);
    expect(rig.store.registry.get(filledKey)!.state).toBe('FILLED');
    const cancelled = rig.store.registry.get(cancelledKey)!;
    expect(cancelled.state).toBe('CANCELLED');
    expect(cancelled.flags.alarms).toContain('cancelled-by-venue');
    const vanished = rig.events.flatMap((e) => (e.type === 'vanished' ? [[e.key, e.resolved]] : []));
    expect(vanished).toEqual(
      expect.arrayContaining([
        [filledKey, 'FILLED'],
        [cancelledKey, 'CANCELLED'],
      ]),
    );
    expect(rig.inventory.get('BTC/USDC').base.toFixed()).toBe('0.5');
  });

  it('flags an order placed directly on the venue by the same account as foreign', async () => {
    rig = build();
    const direct = await placeDirect(env, { side: 'SELL', price: '71000', quantity: '0.05' });
    await rig.poller.runNow();
    const foreign = rig.events.filter((e) => e.type === 'foreign-order');
    expect(foreign).toHaveLength(1);
    expect(foreign[0]).toMatchObject({ action: 'adopted', source: 'poll', key: `foreign:${direct.orderId}` });
    const tracked = rig.store.registry.byOrderId(direct.orderId)!;
    expect(tracked.flags.foreign).toBe(true);
    expect(tracked.slot).toBeNull();
    expect(rig.store.journal.findByOrderId(direct.orderId)?.foreign).toBe(true);
    // Seen again: not flagged twice.
    await rig.poller.runNow();
    expect(rig.events.filter((e) => e.type === 'foreign-order')).toHaveLength(1);
    // A fill on it is still tracked (inventory is the party's).
    takeFrom(env, 'BUY', '0.02', '71000');
    await rig.poller.runNow();
    expect(rig.inventory.get('BTC/USDC').base.toFixed()).toBe('-0.02');
  });

  it('under `ignore` leaves foreign orders untracked but counted; under `cancel` hands them to the cancel pool', async () => {
    rig = build('ignore');
    const direct = await placeDirect(env, { side: 'SELL', price: '71000', quantity: '0.05' });
    await rig.poller.runNow();
    expect(rig.store.registry.size).toBe(0);
    expect(rig.ignored.size).toBe(1);
    expect(rig.events.filter((e) => e.type === 'foreign-order')[0]).toMatchObject({
      action: 'ignored',
      key: null,
    });
    env.venue.operator.forceCancel(direct.orderId);
    await rig.poller.runNow();
    expect(rig.ignored.size).toBe(0);
    await rig.poller.close();
    rig.store.journal.close();

    rig = build('cancel');
    const other = await placeDirect(env, { side: 'SELL', price: '72000', quantity: '0.05' });
    await rig.poller.runNow();
    const adopted = rig.store.registry.byOrderId(other.orderId)!;
    expect(adopted.state).toBe('CANCEL_REQUESTED');
    expect(rig.cancels).toEqual([adopted.key]);
  });

  it('never makes one of our in-flight orders foreign, and never touches INTENT … SUBMITTED', async () => {
    rig = build();
    const { placer, store } = rig;
    const submitting = placer.intent({ side: 'BUY', price: '60000', quantity: '0.1' });
    await placer.prepare(submitting);
    placer.sign(submitting);
    await placer.submit(submitting, false); // the answer is "lost": still SUBMITTING
    await env.tick(0); // the venue commits it: it is now listed OPEN
    const signed = placer.intent({ side: 'SELL', price: '80000', quantity: '0.1' });
    await placer.prepare(signed);
    placer.sign(signed);
    const before = [store.registry.get(submitting)!.version, store.registry.get(signed)!.version];

    await rig.poller.runNow();
    expect(rig.events.filter((e) => e.type === 'foreign-order')).toEqual([]);
    expect(store.registry.get(submitting)!.state).toBe('SUBMITTING');
    expect(store.registry.get(signed)!.state).toBe('SIGNED');
    expect([store.registry.get(submitting)!.version, store.registry.get(signed)!.version]).toEqual(before);
    expect(store.registry.active({ foreign: true })).toEqual([]);
    expectNoDuplicateLive(env);
  });

  it('polls on its timer and keeps lastSuccessAt', async () => {
    rig = build();
    rig.poller.start();
    await env.tick(12_000);
    expect(rig.poller.poller.runs).toBeGreaterThanOrEqual(3);
    expect(rig.poller.poller.lastSuccessAt).not.toBeNull();
    expect(rig.poller.poller.failures).toBe(0);
  });
});

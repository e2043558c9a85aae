import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { PlacementIntent } from '../../src/execution/placement/placement-intent.js';
import { OrderEngine } from '../../src/execution/order-engine.js';
import { StoreLockedError, openJournal } from '../../src/orders/journal/index.js';
import { TERMINAL_STATES, type TrackedOrder } from '../../src/orders/fsm/index.js';
import { settle, startDaemon, until } from './support/daemon.js';
import {
  expectNoDuplicateLive,
  liveOnVenue,
  simEnv,
  takeFrom,
  truthByCoid,
  type SimEnv,
} from './support/sim-env.js';

function buy(slot: string, price = '60000', quantity = '0.01'): PlacementIntent {
  return { slot, pair: 'BTC/USDC', side: 'BUY', price: dec(price), quantity: dec(quantity) };
}

let env: SimEnv;

beforeEach(() => {
  env = simEnv();
});
afterEach(async () => {
  await env.dispose();
});

describe('OrderEngine', () => {
  it('gates placements on recovery: place() before start() finishes waits, then places', async () => {
    const d = startDaemon(env, env.storePath());
    const started = d.engine.start();
    const placed = d.engine.place(buy('BTC/USDC:BUY:0'));
    const report = await settle(env, started);
    expect(report.restored).toBe(0);
    const outcome = await settle(env, placed);
    expect(outcome.kind).toBe('placed');
    // Recovery's list came before the first prepare.
    const calls = env.venue.truth.calls();
    const firstPrepare = calls.findIndex((c) => c.endpoint === 'prepare');
    const firstList = calls.findIndex((c) => c.endpoint === 'orders');
    expect(firstList).toBeGreaterThanOrEqual(0);
    expect(firstList).toBeLessThan(firstPrepare);
    const truth = truthByCoid(env, outcome.clientOrderId!)!;
    expect(truth.status).toBe('OPEN');
    expect(d.engine.orders.get(outcome.key!)!.state).toBe('OPEN');
    expect(d.engine.state).toBe('ready');
    await settle(env, d.engine.close());
    expect(d.engine.state).toBe('closed');
  });

  it('tracks fills into inventory and fill events, and seeds inventory from the journal on restart', async () => {
    const path = env.storePath();
    const d = startDaemon(env, path, { ordersPoll: { intervalMs: 1_000 } });
    await settle(env, d.engine.start());
    const outcome = await settle(env, d.engine.place(buy('BTC/USDC:BUY:0', '60000', '0.5')));
    takeFrom(env, 'SELL', '0.2', '60000');
    await until(env, () => d.engine.orders.get(outcome.key!)!.filled.eq(dec('0.2')));
    const fills = d.events.flatMap((e) => (e.type === 'fill' ? [e.fill] : []));
    expect(fills.map((f) => [f.pair, f.side, f.price?.toFixed(), f.quantity.toFixed()])).toEqual([
      ['BTC/USDC', 'BUY', '60000', '0.2'],
    ]);
    expect(d.engine.inventory.get('BTC/USDC').base.toFixed()).toBe('0.2');
    expect(d.engine.inventory.get('BTC/USDC').quote.toFixed()).toBe('-12000');
    await settle(env, d.engine.close());

    const again = startDaemon(env, path);
    await settle(env, again.engine.start());
    expect(again.engine.inventory.get('BTC/USDC').base.toFixed()).toBe('0.2');
    expect(again.engine.inventory.get('BTC/USDC').quote.toFixed()).toBe('-12000');
    await settle(env, again.engine.close());
  });

  it('close({cancelAll}) cancels every order held, stops the pollers and releases the store', async () => {
    const path = env.storePath();
    const d = startDaemon(env, path);
    await settle(env, d.engine.start());
    const a = await settle(env, d.engine.place(buy('BTC/USDC:BUY:0', '60000')));
    const b = await settle(env, d.engine.place(buy('BTC/USDC:BUY:1', '59000')));
    expect(liveOnVenue(env)).toHaveLength(2);
    const poller = d.engine.ordersPoller!;
    await settle(env, d.engine.close({ cancelAll: true }));
    expect(liveOnVenue(env)).toHaveLength(0);
    for (const o of [a, b]) expect(truthByCoid(env, o.clientOrderId!)!.status).toBe('CANCELLED');
    expect(poller.poller.isClosed).toBe(true);
    const runs = poller.poller.runs;
    await env.tick(60_000);
    expect(poller.poller.runs).toBe(runs);
    // The lock is released: another process can open the store, and it agrees with the venue.
    const j = openJournal<TrackedOrder>({ path, clock: env.clock });
    expect(j.loadOpenOrders(TERMINAL_STATES)).toEqual([]);
    j.close();
    const outcome = await d.engine.place(buy('BTC/USDC:BUY:2'));
    expect(outcome).toMatchObject({ kind: 'aborted', reason: 'closed' });
  });

  it('close lets an in-flight submission finish; the next start finds the order resting', async () => {
    await env.dispose();
    env = simEnv({ latency: 'fast' });
    const path = env.storePath();
    const d = startDaemon(env, path);
    await settle(env, d.engine.start());
    const placing = d.engine.place(buy('BTC/USDC:BUY:0'));
    await until(env, () => d.engine.orders.all().some((o) => o.state === 'SUBMITTING'), 60_000, 50);
    const closing = d.engine.close();
    const outcome = await settle(env, placing);
    await settle(env, closing);
    expect(['unresolved', 'placed']).toContain(outcome.kind);
    const truth = truthByCoid(env, outcome.clientOrderId!)!;
    expect(truth.submitted).toBe(true);
    await until(env, () => truthByCoid(env, outcome.clientOrderId!)!.status === 'OPEN', 60_000);

    const next = startDaemon(env, path);
    await settle(env, next.engine.start());
    expect(next.engine.orders.get(outcome.key!)!.state).toBe('OPEN');
    expectNoDuplicateLive(env);
    await settle(env, next.engine.close());
  });

  it('a fast orders poller racing placements and cancels never flags our own orders foreign', async () => {
    await env.dispose();
    env = simEnv({ latency: 'fast' });
    const d = startDaemon(env, env.storePath(), { ordersPoll: { intervalMs: 150, jitterRatio: 0.5 } });
    await settle(env, d.engine.start());
    const outcomes = await settle(
      env,
      Promise.all([0, 1, 2, 3].map((i) => d.engine.place(buy(`BTC/USDC:BUY:${i}`, `${60_000 - i * 10}`)))),
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['placed', 'placed', 'placed', 'placed']);
    takeFrom(env, 'SELL', '0.015', '59990');
    await settle(env, d.engine.cancelAll('test'));
    await env.tick(5_000);
    const types = d.events.map((e) => e.type);
    expect(types).not.toContain('foreign-order');
    expect(types).not.toContain('order-error');
    expect(d.events.filter((e) => e.type === 'alarm')).toEqual([]);
    expect(d.engine.ordersPoller!.poller.runs).toBeGreaterThan(10);
    for (const o of outcomes) {
      const truth = truthByCoid(env, o.clientOrderId!)!;
      const local = d.engine.orders.get(o.key!)!;
      expect(local.state).toBe(truth.status);
      expect(local.filled.eq(dec(truth.filled))).toBe(true);
    }
    expect(d.engine.inventory.get('BTC/USDC').base.toFixed()).toBe('0.015');
    expect(liveOnVenue(env)).toEqual([]);
    await settle(env, d.engine.close());
  });

  it('refuses a second engine on the same store while the first holds it (one process per store)', async () => {
    const storePath = env.storePath();
    const make = (): OrderEngine => new OrderEngine({ ...env.engineBasics(), storePath });
    const first = make();
    await settle(env, first.start());
    const second = make();
    await expect(settle(env, second.start())).rejects.toBeInstanceOf(StoreLockedError);
    expect(second.state).toBe('failed');
    const refused = await second.place(buy('BTC/USDC:BUY:0'));
    expect(refused).toMatchObject({ kind: 'aborted', reason: 'invalid' });
    await settle(env, second.close());
    await settle(env, first.close());
    const third = make();
    await settle(env, third.start());
    expect(third.state).toBe('ready');
    await settle(env, third.close());
  });

  it('meta: a value set after start is read back after a restart on the same store; refused before start and after close', async () => {
    const path = env.storePath();
    const d = startDaemon(env, path);
    expect(() => d.engine.meta).toThrow(/not started/);
    await settle(env, d.engine.start());
    const meta = d.engine.meta;
    expect(meta.get('risk.daily_loss')).toBeUndefined();
    meta.set('risk.daily_loss', '{"v":1}');
    meta.set('risk.daily_loss', '{"v":2}'); // replaces
    expect(meta.get('risk.daily_loss')).toBe('{"v":2}');
    // The journal's own keys stay the journal's.
    expect(() => meta.set('client_order_counter', '0')).toThrow(/owned by the journal/);
    await settle(env, d.engine.close());
    expect(() => meta.get('risk.daily_loss')).toThrow(/is closed/);
    expect(() => meta.set('risk.daily_loss', 'x')).toThrow(/is closed/);

    const again = startDaemon(env, path);
    await settle(env, again.engine.start());
    expect(again.engine.meta.get('risk.daily_loss')).toBe('{"v":2}');
    await settle(env, again.engine.close());
  });
});

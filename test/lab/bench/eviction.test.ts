import { executionSettings } from '../../../src/execution/execution-settings.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { OrderEngine, type OrderEngineOptions } from '../../../src/execution/order-engine.js';
import type { PlacementIntent } from '../../../src/execution/placement/placement-intent.js';
import { openJournal, type Journal } from '../../../src/orders/journal/index.js';
import type { TrackedOrder } from '../../../src/orders/fsm/index.js';
import { simEnv, type SimEnv } from '../../execution/support/sim-env.js';

/**
 * Terminal orders leave the registry (the journal keeps them): the engine's periodic sweep, and a
 * long run whose registry stays bounded however many orders it places.
 */

const INSTANT_CONFIRM = { initialMs: 100, factor: 2, maxMs: 1_000 };

let env: SimEnv;
let engine: OrderEngine | undefined;
let journal: Journal<TrackedOrder> | undefined;
const dirs: string[] = [];

afterEach(async () => {
  if (engine !== undefined) await settle(engine.close({ drainMs: 1_000 }));
  engine = undefined;
  journal = undefined;
  await env.dispose();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Ticks fake time until `p` settles. */
async function settle<T>(p: Promise<T>, maxMs = 600_000): Promise<T> {
  let done = false;
  const tracked = p.finally(() => (done = true));
  for (let t = 0; !done && t < maxMs; t += 100) await env.tick(100);
  return tracked;
}

/** An engine on a journal the test holds (the engine closes it). */
function build(options: Partial<OrderEngineOptions> = {}): OrderEngine {
  // The journal on tmpfs when there is one: these tests write thousands of fsync'd transitions.
  const dir = fs.existsSync('/dev/shm') ? fs.mkdtempSync('/dev/shm/ledger-mm-evict-') : env.dir;
  if (dir !== env.dir) dirs.push(dir);
  journal = openJournal<TrackedOrder>({ path: path.join(dir, 'journal.sqlite'), clock: env.clock });
  return new OrderEngine({
    ...env.engineBasics(),
    journal,
    ordersPoll: { intervalMs: 5_000, random: () => 0.5 },
    settings: executionSettings(
      {},
      { placement: { confirmBackoff: INSTANT_CONFIRM }, cancel: { confirmBackoff: INSTANT_CONFIRM } },
    ),
    ...options,
  });
}

function buy(slot: string, price: string): PlacementIntent {
  return { slot, pair: 'BTC/USDC', side: 'BUY', price: dec(price), quantity: dec('0.001') };
}

/** Places and rests an order; returns its key. */
async function rest(e: OrderEngine, slot: string, price: string): Promise<string> {
  const outcome = await settle(e.place(buy(slot, price)));
  if (outcome.kind !== 'placed' || outcome.key === null) throw new Error(`not placed: ${outcome.kind}`);
  return outcome.key;
}

describe('terminal-order eviction', () => {
  it('forgets terminal orders past the retention on its sweep; active and recent ones stay; the journal keeps all', async () => {
    env = simEnv();
    const e = (engine = build({ eviction: { intervalMs: 60_000, retentionMs: 300_000 } }));
    await settle(e.start());
    const kept = await rest(e, 's:0', '50000');
    const first = await rest(e, 's:1', '50001');
    const second = await rest(e, 's:2', '50002');
    expect((await settle(e.cancel(first))).kind).toBe('cancelled');
    expect((await settle(e.cancel(second))).kind).toBe('cancelled');
    expect(e.orders.size).toBe(3);

    // Four minutes on: the sweep has run, but nothing is past the 5-minute retention yet.
    await env.tick(240_000);
    expect(e.orders.size).toBe(3);
    expect(e.evicted).toBe(0);

    // Past the retention: the next sweep drops the two cancelled orders, never the resting one.
    await env.tick(120_000);
    expect(e.evicted).toBe(2);
    expect(e.orders.size).toBe(1);
    expect(e.orders.get(kept)?.state).toBe('OPEN');
    expect(e.orders.get(first)).toBeUndefined();
    expect(e.orders.byClientOrderId(second)).toBeUndefined();
    expect(journal!.get(first)?.order.state).toBe('CANCELLED');
    expect(journal!.get(second)?.order.state).toBe('CANCELLED');
    // A cancel of a forgotten order changes nothing and says so.
    expect((await settle(e.cancel(first))).kind).toBe('unknown-order');
    // The resting order is still cancellable, and polls go on (it is listed and known).
    await env.tick(10_000);
    expect(e.ordersPoller?.poller.consecutiveFailures).toBe(0);
    expect((await settle(e.cancel(kept))).kind).toBe('cancelled');
  });

  it('keeps every order with `eviction: false`, and refuses a bad period or retention', async () => {
    env = simEnv();
    const bad = (eviction: OrderEngineOptions['eviction']): OrderEngine =>
      new OrderEngine({ ...env.engineBasics(), storePath: env.storePath(), eviction });
    expect(() => bad({ intervalMs: 0 })).toThrow(RangeError);
    expect(() => bad({ retentionMs: -1 })).toThrow(RangeError);
    const e = (engine = build({ eviction: false }));
    await settle(e.start());
    const key = await rest(e, 's:0', '50000');
    await settle(e.cancel(key));
    await env.tick(3_600_000);
    expect(e.orders.size).toBe(1);
    expect(e.evicted).toBe(0);
    // By hand, with any retention.
    expect(e.evictTerminal(0)).toBe(1);
    expect(e.orders.size).toBe(0);
  });

  it('keeps the registry bounded through a long run of placements and cancels', async () => {
    env = simEnv();
    const retentionMs = 120_000;
    const intervalMs = 30_000;
    const everyMs = 3_000;
    const e = (engine = build({ eviction: { intervalMs, retentionMs } }));
    await settle(e.start());
    const runMs = 30 * 60_000;
    const start = env.clock.now();
    let placed = 0;
    let peak = 0;
    while (env.clock.now() - start < runMs) {
      const at = env.clock.now();
      const key = await rest(e, `s:${placed % 4}`, String(50_000 + (placed % 50)));
      placed += 1;
      expect((await settle(e.cancel(key))).kind).toBe('cancelled');
      peak = Math.max(peak, e.orders.size);
      await env.tick(Math.max(0, everyMs - (env.clock.now() - at)));
    }
    // Terminal orders live at most retention + one period; one order is placed every 3 s.
    const bound = Math.ceil((retentionMs + intervalMs) / everyMs) + 2;
    expect(placed).toBeGreaterThan(500);
    expect(peak).toBeLessThanOrEqual(bound);
    expect(e.orders.size).toBeLessThanOrEqual(bound);
    expect(e.evicted).toBeGreaterThanOrEqual(placed - bound);
    expect(e.evicted + e.orders.size).toBe(placed);
    expect(journal!.loadAll()).toHaveLength(placed);
  }, 60_000);
});

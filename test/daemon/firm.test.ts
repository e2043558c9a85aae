import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dec, ZERO } from '../../src/core/decimal.js';
import { loadConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import type { DaemonEvent } from '../../src/daemon/daemon-types.js';
import { createLogger } from '../../src/logging/logger.js';
import { signerFromSeed } from '../../src/signing/ed25519-signer.js';
import { fakeClockVenue, registerTestAccount } from '../support/sim-harness.js';
import { baseConfig, T0 } from './support/daemon-env.js';

/**
 * A daemon running two parties as one market maker, in-process on the simulator under fake time:
 * the quote cycle sees the firm (its inventory is both parties' holdings summed, its limits the
 * sum of the parties'), both pipelines place, and the two parties never trade with each other.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function firmDaemon() {
  const half = { USDC: '150000', BTC: '1.25', ETH: '25' };
  const base = fakeClockVenue({
    startAt: T0,
    loopLimit: 1_000_000,
    config: { seed: 11, bookProjectionLagMs: 500, market: { enabled: true } },
    latency: 'fast',
    account: { balances: half, ordersPerMinute: 60, maxOpenOrders: 30 },
  });
  const { fake, clock, venue } = base;
  const signerB = signerFromSeed(randomBytes(32), 'raw');
  const b = registerTestAccount(venue, signerB.publicKey, {
    slug: 'testmm-b',
    balances: half,
    ordersPerMinute: 60,
    maxOpenOrders: 30,
  });
  venue.startMarket();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-firm-'));
  const file = path.join(dir, 'daemon.json');
  const cfg = baseConfig(path.join(dir, 'store.sqlite'));
  fs.writeFileSync(
    file,
    JSON.stringify({
      ...cfg,
      risk: { ...(cfg['risk'] as object), maxOpenOrders: 200 },
      market: { account: { intervalMs: 60_000 } },
    }),
  );
  const load = { configFiles: [file], env: {}, cwd: dir };
  const config = loadConfig(load);
  const daemon = new Daemon({
    config,
    clock,
    signer: base.signer,
    logger: createLogger({ level: 'silent' }),
    transport: venue.createTransport(),
    random: () => 0.5,
    reload: { load, watch: false },
    tuning: { retryMs: 5_000 },
    parties: [
      { name: 'a', signer: base.signer, apiKey: base.apiKey },
      { name: 'b', signer: signerB, apiKey: b.apiKey },
    ],
  });
  const events: DaemonEvent[] = [];
  daemon.subscribe((e) => {
    if (e.type === 'party-state' || e.type === 'party-funding' || e.type === 'foreign-order') events.push(e);
  });
  cleanups.push(async () => {
    let closed = false;
    const closing = daemon.close({ cancelOrders: false, graceMs: 5_000 }).finally(() => (closed = true));
    for (let i = 0; i < 400 && !closed; i++) await fake.tickAsync(500);
    await closing;
    await venue.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const parties = { a: base.partyId, b: b.partyId };
  const run = async (ms: number): Promise<void> => {
    for (let t = 0; t < ms; t += 500) await fake.tickAsync(500);
  };
  return { daemon, venue, parties, run, events, dir, slugs: { a: 'testmm', b: b.slug } };
}

describe('a daemon of two parties', () => {
  it('quotes as one market maker: both pipelines place, the firm position is the sum, no self-trade', async () => {
    const { daemon, venue, parties, run, events, dir } = await firmDaemon();
    void daemon.start();
    await run(15 * 60_000);
    expect(daemon.phase).toBe('running');
    const ids = [parties.a, parties.b];
    const commits = (id: string) =>
      venue.truth.commits().filter((c) => c.partyId === id && c.kind === 'place' && c.ok);
    expect(commits(parties.a).length).toBeGreaterThan(3);
    expect(commits(parties.b).length).toBeGreaterThan(3);
    // Each party has its own journal: the primary store.path, the other named after it.
    expect(fs.existsSync(path.join(dir, 'store.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'store.b.sqlite'))).toBe(true);
    const trades = venue.truth.trades();
    const own = trades.filter(
      (t) => ids.includes(t.maker.partyId ?? '') || ids.includes(t.taker.partyId ?? ''),
    );
    expect(own.length).toBeGreaterThan(0);
    expect(
      own.filter((t) => ids.includes(t.maker.partyId ?? '') && ids.includes(t.taker.partyId ?? '')),
    ).toEqual([]);
    // The firm's position per pair is the sum of both parties' fills on the venue.
    for (const pair of ['BTC/USDC', 'ETH/USDC']) {
      let truth = ZERO;
      for (const t of own.filter((x) => x.pair === pair)) {
        const makerMine = ids.includes(t.maker.partyId ?? '');
        const side = makerMine ? (t.takerSide === 'BUY' ? 'SELL' : 'BUY') : t.takerSide;
        truth = side === 'BUY' ? truth.plus(dec(t.quantity)) : truth.minus(dec(t.quantity));
      }
      expect(daemon.engine!.inventory.get(pair).base.toFixed()).toBe(truth.toFixed());
    }
    // The firm's report names both parties, and no party dropped out.
    expect(daemon.partyReport().map((p) => [p.name, p.active])).toEqual([
      ['a', true],
      ['b', true],
    ]);
    expect(events.filter((e) => e.type === 'party-state' || e.type === 'foreign-order')).toEqual([]);
    // Each party's orders poller runs and is reported: the primary's as `orders`, b's as `orders_b`.
    const orders = daemon.pollerStats().filter((p) => p.name.startsWith('orders'));
    expect(orders.map((p) => p.name)).toEqual(['orders', 'orders_b']);
    expect(orders.every((p) => p.runs > 100 && p.lastSuccessAt !== null)).toBe(true);
    // The account limits the risk gate sees are the parties' summed (30 + 30).
    expect(daemon.lastCycle!.snapshot.account!.maxOpenOrders).toBe(60);
  });

  it("prepares beside every party's cold GET /balances, and signs nothing before the last one answers", async () => {
    const { daemon, venue, run } = await firmDaemon();
    // Each party's first GET /balances (the preflight's) answers 20 s late.
    for (const at of [1, 2])
      venue.addFault({ kind: 'latency-spike', endpoint: 'balances', extraMs: 20_000, at });
    void daemon.start();
    await run(90_000);
    const preflightReads = venue.truth
      .calls()
      .filter((c) => c.endpoint === 'balances')
      .slice(0, 2);
    expect(preflightReads).toHaveLength(2);
    const lastAnswer = Math.max(...preflightReads.map((c) => c.endedAt ?? Number.POSITIVE_INFINITY));
    expect(lastAnswer).toBeGreaterThan(T0 + 20_000);
    const prepares = venue.truth.calls().filter((c) => c.endpoint === 'prepare');
    // The firm's provisional start: the first prepare left well before the balances answered...
    expect(prepares[0]!.startedAt).toBeLessThan(lastAnswer - 10_000);
    // ...and nothing was signed (submitted) before the last of them did.
    const submits = venue.truth.submits();
    expect(submits.length).toBeGreaterThan(1);
    expect(Math.min(...submits.map((x) => x.startedAt))).toBeGreaterThanOrEqual(lastAnswer);
    expect(daemon.phase).toBe('running');
  });

  it('the primary suspended: it drops out at its next account read, the other party carries on, and it comes back', async () => {
    const { daemon, venue, parties, run, events, slugs } = await firmDaemon();
    void daemon.start();
    await run(5 * 60_000);
    const placed = (id: string, after: number) =>
      venue.truth.commits().filter((c) => c.partyId === id && c.kind === 'place' && c.ok && c.at > after)
        .length;
    const suspendedAt = T0 + 5 * 60_000;
    venue.engine.operator.suspend(slugs.a);
    // The next account read (every 60 s here) sees it: a drops out, loudly, b goes on quoting.
    await run(10 * 60_000);
    expect(daemon.partyReport().map((p) => [p.name, p.active, p.reason])).toEqual([
      ['a', false, 'account SUSPENDED'],
      ['b', true, null],
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'party-state', party: 'a', active: false }),
    );
    const quietSince = suspendedAt + 2 * 60_000;
    expect(placed(parties.a, quietSince)).toBe(0);
    expect(placed(parties.b, quietSince)).toBeGreaterThan(3);
    expect(daemon.lastCycle!.snapshot.account!.status).toBe('ACTIVE');
    // Reactivated, a is read ACTIVE again and places again.
    venue.engine.operator.reactivate(slugs.a);
    const back = T0 + 15 * 60_000;
    await run(6 * 60_000);
    expect(daemon.partyReport().map((p) => [p.name, p.active])).toEqual([
      ['a', true],
      ['b', true],
    ]);
    expect(placed(parties.a, back)).toBeGreaterThan(0);
  }, 90_000);
});

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { EngineEvent } from '../../../src/execution/engine-types.js';
import type { PlacementOutcome } from '../../../src/execution/execution-events.js';
import { FirmEngine } from '../../../src/execution/firm/firm-engine.js';
import { PartyWallets } from '../../../src/execution/firm/party-wallets.js';
import type { PlacementIntent } from '../../../src/execution/placement/placement-intent.js';
import { signerFromSeed } from '../../../src/signing/ed25519-signer.js';
import type { OrderTruth } from '../../../src/sim/truth/ground-truth.js';
import { registerTestAccount, type TestAccount } from '../../support/sim-harness.js';
import { settle, startDaemon, type DaemonProcess } from '../support/daemon.js';
import { simEnv, type SimEnv } from '../support/sim-env.js';

/**
 * Two parties of one firm on the simulator (in-process, fake time), each with its own account,
 * key, journal and pipeline, behind one FirmEngine. Every assertion reads the venue's ground truth.
 */

interface Firm {
  readonly env: SimEnv;
  readonly b: TestAccount;
  readonly signerB: ReturnType<typeof signerFromSeed>;
  readonly stores: { readonly a: string; readonly b: string };
  readonly procs: DaemonProcess[];
  readonly events: EngineEvent[];
  firm: FirmEngine;
  build(): FirmEngine;
}

const envs: SimEnv[] = [];

afterEach(async () => {
  for (const env of envs.splice(0)) {
    await env.venue.close();
    fs.rmSync(env.dir, { recursive: true, force: true });
  }
});

function twoParties(latency: 'fast' | 'instant' = 'fast', perMinuteA: number | null = null): Firm {
  const env = simEnv({ latency });
  envs.push(env);
  const signerB = signerFromSeed(randomBytes(32), 'raw');
  const b = registerTestAccount(env.venue, signerB.publicKey, { slug: 'testmm-b' });
  const stores = { a: env.storePath('a.sqlite'), b: env.storePath('b.sqlite') };
  const procs: DaemonProcess[] = [];
  const events: EngineEvent[] = [];
  const wallets = new PartyWallets(['a', 'b']);
  const f: Firm = {
    env,
    b,
    signerB,
    stores,
    procs,
    events,
    firm: null as unknown as FirmEngine,
    build: () => {
      const pa = startDaemon(env, stores.a);
      const pb = startDaemon(env, stores.b, {
        apiKey: b.apiKey,
        signer: signerB,
        partyId: b.partyId,
        clientOrderIdPrefix: `${b.slug}-`,
      });
      procs.push(pa, pb);
      const firm = new FirmEngine({
        parties: [
          {
            name: 'a',
            engine: pa.engine,
            pairs: null,
            sides: null,
            maxOpenOrders: 50,
            ordersPerMinute: perMinuteA,
          },
          {
            name: 'b',
            engine: pb.engine,
            pairs: null,
            sides: null,
            maxOpenOrders: 50,
            ordersPerMinute: null,
          },
        ],
        clock: env.clock,
        policy: 'earliest-free',
        wallets,
        pairOf: (pair) => {
          if (!pair.includes('/')) return undefined; // not listed
          const [base, quote] = pair.split('/') as [string, string];
          return { base, quote };
        },
      });
      firm.subscribe((e) => events.push(e));
      f.firm = firm;
      return firm;
    },
  };
  return f;
}

const intent = (n: number, side: 'BUY' | 'SELL' = 'BUY'): PlacementIntent => ({
  slot: `BTC/USDC:${side}:${n}#0`,
  pair: 'BTC/USDC',
  side,
  price: dec(side === 'BUY' ? String(50_000 - n * 100) : String(80_000 + n * 100)),
  quantity: dec('0.01'),
});

/** Ticks fake time in steps until `done()` or `maxMs`. */
async function until(env: SimEnv, done: () => boolean, maxMs: number, stepMs = 250): Promise<void> {
  for (let t = 0; t < maxMs && !done(); t += stepMs) await env.tick(stepMs);
}

/** Hands `n` placements to the firm at once and waits for every outcome. */
async function placeAll(f: Firm, firm: FirmEngine, n: number): Promise<PlacementOutcome[]> {
  const outcomes: PlacementOutcome[] = [];
  for (let i = 0; i < n; i++) void firm.place(intent(i)).then((o) => outcomes.push(o));
  await until(f.env, () => outcomes.length === n, 300_000);
  return outcomes;
}

const partyOf = (f: Firm, o: OrderTruth): string =>
  o.partyId === f.env.partyId ? 'a' : o.partyId === f.b.partyId ? 'b' : '?';

function liveOf(f: Firm): OrderTruth[] {
  return f.env.venue.truth
    .orders()
    .filter(
      (o) =>
        [f.env.partyId, f.b.partyId].includes(o.partyId) &&
        (o.status === 'OPEN' || o.status === 'PARTIALLY_FILLED'),
    );
}

describe('FirmEngine on the simulator', () => {
  it('spreads placements over both pipelines and cancels each order through the party that holds it', async () => {
    const f = twoParties();
    const firm = f.build();
    await settle(f.env, firm.start());
    const outcomes = await placeAll(f, firm, 4);
    expect(outcomes.map((o) => o.kind)).toEqual(['placed', 'placed', 'placed', 'placed']);
    const live = liveOf(f);
    expect(live.map((o) => partyOf(f, o)).sort()).toEqual(['a', 'a', 'b', 'b']);
    // Two placements in flight at once: one per party, never two of one party.
    const spans = f.env.venue.truth.placementSpans(f.env.partyId);
    const spansB = f.env.venue.truth.placementSpans(f.b.partyId);
    expect(spans[0]!.preparedAt).toBeLessThan(spansB[0]!.settledAt!);
    expect(spansB[0]!.preparedAt).toBeLessThan(spans[0]!.settledAt!);
    const key = firm.orders
      .active()
      .find((o) => o.orderId === live.find((x) => partyOf(f, x) === 'b')!.orderId)!.key;
    expect(firm.partyOf(key)).toBe('b');
    const cancelled = firm.cancel(key);
    await until(f.env, () => liveOf(f).length === 3, 300_000);
    expect((await settle(f.env, cancelled)).kind).toBe('cancelled');
    expect(firm.orders.active()).toHaveLength(3);
    expect(firm.report().map((r) => [r.name, r.placed])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
    await settle(f.env, firm.close());
  });

  it('a placement on a pair it cannot fund against is no-party, sent to no party', async () => {
    const f = twoParties();
    const firm = f.build();
    await settle(f.env, firm.start());
    const out = await firm.place({ ...intent(0), pair: 'XRP', slot: 'XRP:BUY:0#0' });
    expect(out).toMatchObject({ kind: 'no-party', reason: 'no-party-serves', detail: 'XRP is not listed' });
    expect(f.env.venue.truth.calls().filter((c) => c.endpoint === 'prepare')).toEqual([]);
    await settle(f.env, firm.close());
  });

  it('a party out of its own per-minute budget is passed over until its bucket refills', async () => {
    // a's account allows 1 placement a minute; b's states no limit.
    const f = twoParties('fast', 1);
    const firm = f.build();
    await settle(f.env, firm.start());
    const outcomes = await placeAll(f, firm, 4);
    expect(outcomes.map((o) => o.kind)).toEqual(['placed', 'placed', 'placed', 'placed']);
    // Without a's limit the list order would give a two of the four (the first test).
    expect(firm.report().map((r) => [r.name, r.placed])).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
    const preparedAt = f.env.venue.truth.placementSpans(f.env.partyId).map((sp) => sp.preparedAt);
    expect(preparedAt).toHaveLength(1);
    // A minute after a's placement its bucket has a token again: an idle firm hands the next to a.
    await f.env.tick(Math.max(0, preparedAt[0]! + 61_000 - f.env.clock.now()));
    const next = await settle(f.env, firm.place(intent(9)));
    expect(next.kind).toBe('placed');
    expect(firm.report().map((r) => [r.name, r.placed])).toEqual([
      ['a', 2],
      ['b', 3],
    ]);
    await settle(f.env, firm.close());
  });

  it("one party's pipeline held by a placement of unknown outcome: the other places on", async () => {
    const f = twoParties();
    const firm = f.build();
    await settle(f.env, firm.start());
    // The first submission hangs: its outcome stays unknown while the client waits.
    f.env.venue.faults.add({ kind: 'hang', endpoint: 'submit', effect: true, at: 1, hangMs: 600_000 });
    const outcomes: PlacementOutcome[] = [];
    for (let n = 0; n < 3; n++) void firm.place(intent(n)).then((o) => outcomes.push(o));
    const firstSubmit = (): string | undefined =>
      f.env.venue.truth.calls().find((c) => c.endpoint === 'submit')?.partyId ?? undefined;
    await until(f.env, () => firstSubmit() !== undefined, 60_000);
    const held = firstSubmit() === f.env.partyId ? 'a' : 'b';
    const other = held === 'a' ? 'b' : 'a';
    // Two placements pass through the other party's pipeline while the held one waits.
    await until(f.env, () => outcomes.length === 2, 300_000);
    expect(liveOf(f).filter((o) => partyOf(f, o) === other)).toHaveLength(2);
    expect(firm.report().find((r) => r.name === held)!.queued).toBe(1);
    expect(outcomes).toHaveLength(2);
    await settle(f.env, firm.close({ drainMs: 1_000 }));
  });

  it('a revoked key drops that party out, loudly; the other party takes the placements', async () => {
    const f = twoParties();
    const firm = f.build();
    await settle(f.env, firm.start());
    const prefix = f.b.apiKey.slice('mm_ak_'.length).split('.')[0]!;
    f.env.venue.engine.operator.revokeKey(prefix);
    const outcomes: PlacementOutcome[] = [];
    for (let n = 0; n < 2; n++) void firm.place(intent(n)).then((o) => outcomes.push(o));
    await until(f.env, () => outcomes.length === 2, 600_000);
    // b's key is refused at its prepare: b drops out, once, and says why.
    expect(f.events.filter((e) => e.type === 'party-state')).toMatchObject([
      {
        type: 'party-state',
        party: 'b',
        active: false,
        reason: expect.stringMatching(/API key refused/) as unknown,
      },
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['placed', 'refused']);
    // The others carry on: every later placement goes to a.
    for (let n = 2; n < 4; n++) void firm.place(intent(n)).then((o) => outcomes.push(o));
    await until(f.env, () => outcomes.length === 4, 600_000);
    expect(outcomes.slice(2).map((o) => o.kind)).toEqual(['placed', 'placed']);
    expect(liveOf(f).map((o) => partyOf(f, o))).toEqual(['a', 'a', 'a']);
    expect(firm.report().find((r) => r.name === 'b')).toMatchObject({ active: false, refused: 1 });
    await settle(f.env, firm.close({ drainMs: 1_000 }));
  });

  it('both parties killed mid-placement: a new firm recovers every order from both journals, no duplicate, no foreign order', async () => {
    const f = twoParties();
    const first = f.build();
    await settle(f.env, first.start());
    for (let n = 0; n < 4; n++) void first.place(intent(n, n % 2 === 0 ? 'BUY' : 'SELL'));
    // Kill once some orders rest and others are still on their way.
    await until(f.env, () => liveOf(f).length >= 2, 300_000);
    for (const p of f.procs.splice(0)) p.kill();
    const second = f.build();
    await settle(f.env, second.start());
    await until(f.env, () => second.orders.active().every((o) => o.state === 'OPEN'), 600_000, 500);
    const live = liveOf(f);
    expect(live.length).toBeGreaterThanOrEqual(2);
    // Every live order on the venue is known to the firm, under the party that holds it.
    for (const o of live) {
      const mine = second.orders.byOrderId(o.orderId);
      expect(mine?.state).toBe('OPEN');
      expect(second.partyOf(mine!.key)).toBe(partyOf(f, o));
    }
    expect(second.orders.active()).toHaveLength(live.length);
    // No clientOrderId live twice, no slot live twice.
    const coids = live.map((o) => o.clientOrderId);
    expect(new Set(coids).size).toBe(coids.length);
    expect(second.orders.slotViolations()).toEqual([]);
    expect(f.events.filter((e) => e.type === 'foreign-order')).toEqual([]);
    await settle(f.env, second.close({ drainMs: 1_000 }));
  });
});

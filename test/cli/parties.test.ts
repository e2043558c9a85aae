/**
 * The operator commands with `firm.parties`: `check`, `orders`, `status` and `cancel-all` act on
 * every party, or on the one `--party NAME` names, each with its own API key, signing key and
 * journal, against the simulated venue over HTTP (two accounts, each its own key and wallet).
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { TERMINAL_STATES, type TrackedOrder } from '../../src/orders/fsm/index.js';
import { openJournal } from '../../src/orders/journal/index.js';
import { useFirmEnv, type FirmEnv, type FirmParty } from './support/firm-env.js';

let f: FirmEnv;
useFirmEnv('parties', (e) => (f = e));

function resting(party: FirmParty): string[] {
  return f.t.h.venue.truth
    .restingOrders(party.partyId)
    .map((o) => o.orderId)
    .sort();
}

/** Each order's journal state in `party`'s journal. */
function journalStates(party: FirmParty, orderIds: readonly string[]): (string | undefined)[] {
  const j = openJournal<TrackedOrder>({ path: party.storePath });
  try {
    return orderIds.map((id) => j.findByOrderId(id)?.state);
  } finally {
    j.close();
  }
}

describe('check with firm.parties', () => {
  it('runs the preflight of every party with its own keys; --party runs one', async () => {
    const run = await f.cli(['check']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const [headA, headB] = [run.out.indexOf('== party a =='), run.out.indexOf('== party b ==')];
    expect(headA).toBe(0);
    expect(headB).toBeGreaterThan(headA);
    // The signing key check of each party matched its own party id.
    const matched = (id: string): RegExp =>
      new RegExp(`signing key +fingerprint \\S+ matches party ${id}\\n`);
    expect(run.out.slice(0, headB)).toMatch(matched(f.a.partyId));
    expect(run.out.slice(headB)).toMatch(matched(f.b.partyId));

    const one = await f.cli(['check', '--party', 'b', '--json']);
    expect(one.code).toBe(0);
    const doc = JSON.parse(one.out) as {
      parties: { party: string; exitCode: number; ok: boolean; account: { partyId: string } }[];
    };
    expect(doc.parties.map((p) => [p.party, p.exitCode, p.ok, p.account.partyId])).toEqual([
      ['b', 0, true, f.b.partyId],
    ]);
  });

  it('a party whose signing key is not its own fails its check; the other passes', async () => {
    // Party b signs with a's key: its fingerprint is not in b's party id.
    const { writeFileSync, readFileSync } = await import('node:fs');
    writeFileSync(f.b.keyFile, readFileSync(f.a.keyFile));
    const run = await f.cli(['check', '--json']);
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.out) as { parties: { party: string; exitCode: number; ok: boolean }[] };
    expect(doc.parties.map((p) => [p.party, p.exitCode, p.ok])).toEqual([
      ['a', 0, true],
      ['b', 1, false],
    ]);
  });

  it('refuses an unknown --party, and --party without firm.parties, before anything is sent', async () => {
    const calls = f.t.h.venue.truth.calls().length;
    const unknown = await f.cli(['check', '--party', 'zz']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--party zz: not a party of firm.parties (a, b)');
    const single = await f.t.cli(['check', '--party', 'a']);
    expect(single.code).toBe(2);
    expect(single.err).toContain('no parties are configured (firm.parties is empty)');
    expect(f.t.h.venue.truth.calls()).toHaveLength(calls);
  });
});

describe('orders and status with firm.parties', () => {
  it("lists each party's orders against its own journal (nothing FOREIGN); --party lists one", async () => {
    const [oa] = await f.place(f.a, [{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    const [ob] = await f.place(f.b, [{ side: 'SELL', price: '70000', quantity: '0.02' }]);
    const run = await f.cli(['orders']);
    expect(run.code).toBe(0);
    const [partA, partB] = run.out.split('== party b ==');
    expect(partA).toMatch(new RegExp(`${oa!.orderId}\\s.*\\sOPEN\\s.*\\sOPEN\\n`));
    expect(partA).not.toContain(ob!.orderId!);
    expect(partB).toMatch(new RegExp(`${ob!.orderId}\\s.*\\sOPEN\\s.*\\sOPEN\\n`));
    expect(run.out).not.toContain('FOREIGN');

    const one = await f.cli(['orders', '--party', 'b', '--json']);
    const doc = JSON.parse(one.out) as {
      parties: { party: string; orders: { orderId: string; foreign: boolean }[] }[];
    };
    expect(doc.parties.map((p) => [p.party, p.orders.map((o) => [o.orderId, o.foreign])])).toEqual([
      ['b', [[ob!.orderId, false]]],
    ]);

    const local = await f.cli(['orders', '--local']);
    expect(local.code).toBe(0);
    expect(local.out.split('== party b ==')[1]).toMatch(/1 non-terminal order: 1 OPEN/);
  });

  it("without a daemon, status summarises each party's account, orders and journal", async () => {
    await f.place(f.b, [{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    const run = await f.cli(['status', '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.out) as {
      parties: {
        party: string;
        account: { partyId: string };
        openOrders: { total: number };
        journal: { nonTerminal: number };
      }[];
    };
    expect(
      doc.parties.map((p) => [p.party, p.account.partyId, p.openOrders.total, p.journal.nonTerminal]),
    ).toEqual([
      ['a', f.a.partyId, 0, 0],
      ['b', f.b.partyId, 1, 1],
    ]);
  });
});

describe('status next to a running daemon with firm.parties', () => {
  it("prints the daemon's status; --party keeps that party's entry only, without reading any key", async () => {
    const body = {
      state: 'running',
      parties: [
        { name: 'a', active: true },
        { name: 'b', active: false },
      ],
    };
    const server = createServer((req, res) => {
      res
        .writeHead(req.url === '/status' ? 200 : 404, { 'content-type': 'application/json' })
        .end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((server.address() as { port: number }).port);
      const calls = f.t.h.venue.truth.calls().length;
      const all = JSON.parse((await f.cli(['status', '--json'], { LEDGER_MM_METRICS_PORT: port })).out) as {
        daemon: { running: boolean; status: unknown };
      };
      expect(all.daemon).toMatchObject({ running: true, status: body });
      const one = await f.cli(['status', '--party', 'b', '--json'], { LEDGER_MM_METRICS_PORT: port });
      expect(one.code).toBe(0);
      expect((JSON.parse(one.out) as { daemon: { status: unknown } }).daemon.status).toEqual({
        state: 'running',
        parties: [{ name: 'b', active: false }],
      });
      expect(f.t.h.venue.truth.calls()).toHaveLength(calls);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('cancel-all with firm.parties', () => {
  it("--yes cancels every party's orders with its own key, journaled in its own store", async () => {
    const ours = await f.place(f.a, [{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    const theirs = await f.place(f.b, [
      { side: 'SELL', price: '70000', quantity: '0.01' },
      { side: 'BUY', price: '59000', quantity: '0.01' },
    ]);
    const idsA = ours.map((o) => o.orderId!);
    const idsB = theirs.map((o) => o.orderId!);
    expect([resting(f.a), resting(f.b)]).toEqual([idsA.sort(), [...idsB].sort()]);

    const dry = await f.cli(['cancel-all']);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(/== party a ==[^]*1 resting order[^]*== party b ==[^]*2 resting orders/);
    expect([resting(f.a).length, resting(f.b).length]).toEqual([1, 2]);

    const run = await f.cli(['cancel-all', '--yes']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect([resting(f.a), resting(f.b)]).toEqual([[], []]);
    expect(journalStates(f.a, idsA)).toEqual(['CANCELLED']);
    expect(journalStates(f.b, idsB)).toEqual(['CANCELLED', 'CANCELLED']);
    // Each cancel was committed by its own party (signed with its own key).
    const commits = f.t.h.venue.truth.commits().filter((c) => c.kind === 'cancel' && c.ok);
    expect(commits.map((c) => c.orderId).sort()).toEqual([...idsA, ...idsB].sort());
  });

  it("--party b cancels b's orders only; a store held by a daemon refuses that party alone", async () => {
    const [oa] = await f.place(f.a, [{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    const [ob] = await f.place(f.b, [{ side: 'SELL', price: '70000', quantity: '0.01' }]);
    const one = await f.cli(['cancel-all', '--yes', '--party', 'b']);
    expect(one.code).toBe(0);
    expect([resting(f.a), resting(f.b)]).toEqual([[oa!.orderId], []]);
    expect(journalStates(f.b, [ob!.orderId!])).toEqual(['CANCELLED']);

    const [ob2] = await f.place(f.b, [{ side: 'SELL', price: '71000', quantity: '0.01' }]);
    const daemonB = openJournal<TrackedOrder>({ path: f.b.storePath });
    try {
      const run = await f.cli(['cancel-all', '--yes']);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(/^\[party b\] ledger-mm cancel-all: the store .*store\.b\.sqlite is held by/m);
      expect([resting(f.a), resting(f.b)]).toEqual([[], [ob2!.orderId]]);
      expect(daemonB.loadOpenOrders(TERMINAL_STATES).map((o) => o.orderId)).toEqual([ob2!.orderId]);
    } finally {
      daemonB.close();
    }
  });
});

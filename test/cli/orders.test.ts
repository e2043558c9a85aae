import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/orders/journal/index.js';
import type { TrackedOrder } from '../../src/orders/fsm/index.js';
import type { SimHarness } from '../support/sim-harness.js';
import { journalUnknownOrder, useOperatorEnv, type OperatorEnv } from './support/operator-env.js';

let t: OperatorEnv;
let h: SimHarness;
let env: NodeJS.ProcessEnv;
let storePath: string;

useOperatorEnv('orders', (e) => {
  t = e;
  ({ h, env, storePath } = e);
});

interface OrdersJson {
  source: string;
  query: { status: string; pair: string | null };
  journal: { path: string; exists: boolean; error: string | null };
  orders: {
    orderId: string;
    pair: string;
    side: string;
    price: string | null;
    quantity: string;
    filled: string;
    status: string | null;
    contractId: string | null;
    foreign: boolean | null;
    journal: { key: string; state: string; adopted: boolean } | null;
  }[];
}

describe('ledger-mm orders', () => {
  it('lists the venue orders, marking the journal-known one with its state and the foreign one FOREIGN', async () => {
    const [ours] = await t.placeThroughJournal([{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    const foreign = await h.place({ side: 'SELL', price: '70000', quantity: '0.02' });

    const run = await t.cli(['orders']);
    expect(run.code).toBe(0);
    expect(run.err).toBe('');
    const lines = run.out.split('\n');
    const ourLine = lines.find((l) => l.startsWith(ours!.orderId!))!;
    const foreignLine = lines.find((l) => l.startsWith(foreign.orderId))!;
    expect(ourLine).toMatch(/BTC\/USDC\s+BUY\s+60000\s+0\.01\s+0\s+OPEN\s+\S+…?\s+OPEN$/);
    expect(foreignLine).toMatch(/BTC\/USDC\s+SELL\s+70000\s+0\.02\s+0\s+OPEN\s+\S+\s+FOREIGN$/);
    expect(run.out).toMatch(/2 orders, 1 FOREIGN \(not in the journal\)/);

    // --json, checked against the venue's ground truth.
    const json = await t.cli(['orders', '--json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.out) as OrdersJson;
    expect(parsed.source).toBe('venue');
    expect(parsed.query).toEqual({ status: 'OPEN', pair: null });
    expect(parsed.journal).toEqual({ path: storePath, exists: true, error: null });
    const truth = h.venue.truth.restingOrders(h.partyId);
    expect(parsed.orders.map((o) => o.orderId).sort()).toEqual(truth.map((t) => t.orderId).sort());
    for (const o of parsed.orders) {
      const t = h.venue.truth.order(o.orderId)!;
      expect(o).toMatchObject({
        pair: t.pair,
        side: t.side,
        price: t.price,
        quantity: t.quantity,
        filled: t.filled,
      });
      expect(o.status).toBe(t.status);
      expect(o.contractId).toBe(t.contractId);
    }
    const byId = new Map(parsed.orders.map((o) => [o.orderId, o]));
    expect(byId.get(ours!.orderId!)).toMatchObject({
      foreign: false,
      journal: { key: ours!.key, state: 'OPEN', adopted: false },
    });
    expect(byId.get(foreign.orderId)).toMatchObject({ foreign: true, journal: null });
  });

  it('says so when the store does not exist; every order is then FOREIGN', async () => {
    const foreign = await h.place({ side: 'BUY', price: '59000', quantity: '0.01' });
    const run = await t.cli(['orders']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/journal .*store\.sqlite does not exist/);
    expect(run.out).toMatch(new RegExp(`${foreign.orderId}.*FOREIGN`));
    const json = JSON.parse((await t.cli(['orders', '--json'])).out) as OrdersJson;
    expect(json.journal.exists).toBe(false);
    expect(json.orders).toHaveLength(1);
    expect(json.orders[0]!.foreign).toBe(true);
  });

  it('--status ALL includes ended orders; --pair filters', async () => {
    const [btc, eth] = await t.placeThroughJournal([
      { side: 'BUY', price: '60000', quantity: '0.01' },
      { pair: 'ETH/USDC', side: 'BUY', price: '3000', quantity: '0.1' },
    ]);
    const gone = await h.place({ side: 'BUY', price: '58000', quantity: '0.01' });
    await h.cancel(gone.contractId!);

    const open = JSON.parse((await t.cli(['orders', '--json'])).out) as OrdersJson;
    expect(open.orders.map((o) => o.orderId).sort()).toEqual([btc!.orderId, eth!.orderId].sort());
    const all = JSON.parse((await t.cli(['orders', '--status', 'all', '--json'])).out) as OrdersJson;
    expect(all.query.status).toBe('ALL');
    expect(all.orders.find((o) => o.orderId === gone.orderId)).toMatchObject({
      status: 'CANCELLED',
      foreign: true,
    });
    const cancelled = JSON.parse(
      (await t.cli(['orders', '--status', 'CANCELLED', '--json'])).out,
    ) as OrdersJson;
    expect(cancelled.orders.map((o) => o.orderId)).toEqual([gone.orderId]);
    const ethOnly = JSON.parse((await t.cli(['orders', '--pair', 'ETH/USDC', '--json'])).out) as OrdersJson;
    expect(ethOnly.orders.map((o) => o.orderId)).toEqual([eth!.orderId]);
    expect(ethOnly.orders[0]!.journal?.state).toBe('OPEN');
  });

  it('--local lists the journal non-terminal orders with local states, next to a running daemon', async () => {
    const [ours] = await t.placeThroughJournal([{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    const callsBefore = h.venue.truth.calls().length;
    // A "daemon" holds the store (read-write, locked) while the operator looks.
    const daemon = openJournal<TrackedOrder>({ path: storePath });
    try {
      const lostKey = journalUnknownOrder(daemon, h.prefix);
      const run = await t.cli(['orders', '--local'], { ...env, LEDGER_MM_API_KEY: '' });
      expect(run.code).toBe(0);
      expect(run.out).toMatch(/2 non-terminal orders: 1 OPEN, 1 UNKNOWN/);
      expect(run.out).toMatch(
        new RegExp(`^OPEN\\s+BTC/USDC\\s+BUY\\s+60000\\s+0\\.01\\s+0\\s+${ours!.orderId}`, 'm'),
      );
      expect(run.out).toMatch(/^!! UNKNOWN\s+BTC\/USDC\s+BUY\s+61000\s+0\.01\s+0\s+lost-order-1/m);
      expect(run.out).toMatch(/!! 1 order UNKNOWN or STRANDED/);

      const json = await t.cli(['orders', '--local', '--json']);
      expect(json.code).toBe(0);
      const parsed = JSON.parse(json.out) as {
        source: string;
        counts: Record<string, number>;
        orders: {
          key: string;
          state: string;
          attention: boolean;
          orderId: string | null;
          price: string | null;
        }[];
      };
      expect(parsed.source).toBe('journal');
      expect(parsed.counts).toEqual({ OPEN: 1, UNKNOWN: 1 });
      expect(parsed.orders).toEqual([
        expect.objectContaining({ key: ours!.key, state: 'OPEN', attention: false, orderId: ours!.orderId }),
        expect.objectContaining({
          key: lostKey,
          state: 'UNKNOWN',
          attention: true,
          orderId: 'lost-order-1',
          price: '61000',
        }),
      ]);
    } finally {
      daemon.close();
    }
    // --local never asks the venue.
    expect(h.venue.truth.calls()).toHaveLength(callsBefore);
  });

  it('refuses bad usage and invalid configuration with exit 2 before any venue call', async () => {
    expect((await t.cli(['orders', '--status', 'open; drop'])).code).toBe(2);
    expect((await t.cli(['orders', '--local', '--status', 'ALL'])).code).toBe(2);
    expect((await t.cli(['orders', '--bogus'])).code).toBe(2);
    expect((await t.cli(['orders'], { ...env, LEDGER_MM_BASE_URL: 'ftp://x' })).code).toBe(2);
    expect((await t.cli(['orders'], { ...env, LEDGER_MM_API_KEY: '' })).code).toBe(2);
    expect(h.venue.truth.calls()).toHaveLength(0);
  });

  it('--help prints the usage', async () => {
    const run = await t.cli(['orders', '--help']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Usage: ledger-mm orders/);
    expect(run.out).toMatch(/--local/);
  });
});

describe('an unreachable venue', () => {
  it('orders and status name the socket cause (ECONNREFUSED) as check does', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const unreachable = {
      ...env,
      LEDGER_MM_BASE_URL: `http://127.0.0.1:${closed}/v1`,
      LEDGER_MM_SUBMIT_URL: `http://127.0.0.1:${closed}/submit`,
      LEDGER_MM_METRICS_PORT: String(closed),
    };
    const orders = await t.cli(['orders'], unreachable);
    expect(orders.code).not.toBe(0);
    expect(orders.err).toMatch(/CLIENT_NETWORK: .*\(ECONNREFUSED\)/);
    const status = await t.cli(['status'], unreachable);
    expect(status.out + status.err).toMatch(/CLIENT_NETWORK: .*\(ECONNREFUSED\)/);
  });
});

import { createServer as createHttpServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonStatusUrl, renderTree } from '../../src/cli/support/daemon-status.js';
import { openJournal } from '../../src/orders/journal/index.js';
import type { TrackedOrder } from '../../src/orders/fsm/index.js';
import type { SimHarness } from '../support/sim-harness.js';
import { journalUnknownOrder, useOperatorEnv, type OperatorEnv } from './support/operator-env.js';

let t: OperatorEnv;
let h: SimHarness;
let env: NodeJS.ProcessEnv;
let storePath: string;
let statusServer: Server | undefined;

useOperatorEnv('status', (e) => {
  t = e;
  ({ h, env, storePath } = e);
});
afterEach(async () => {
  if (statusServer !== undefined) {
    const s = statusServer;
    statusServer = undefined;
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

/** Journals an order whose submission answer was lost, in the operator env's store. */
function journalLostOrder(): void {
  const journal = openJournal<TrackedOrder>({ path: storePath });
  try {
    journalUnknownOrder(journal, h.prefix);
  } finally {
    journal.close();
  }
}

/** A stand-in for the daemon's status endpoint on port 0. */
async function fakeDaemon(body: unknown, status = 200): Promise<number> {
  const server = createHttpServer((req, res) => {
    if (req.url !== '/status') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  statusServer = server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

interface StatusJson {
  daemon: { running: boolean; url: string; reason?: string; status?: unknown };
  venue: { baseUrl: string; apiKey: string };
  account: { partyId: string; status: string; feeExempt: boolean } | null;
  openOrders: {
    total: number;
    byPairSide: { pair: string; side: string; orders: number; remaining: string; notional: string }[];
  } | null;
  balances: { instrument: string; available: string; locked: string }[] | null;
  journal: {
    path: string;
    exists: boolean;
    nonTerminal: number;
    byState: Record<string, number>;
    attention: { state: string; orderId: string | null }[];
    pauses: { scope: string; by: string }[];
  };
  errors: { read: string; error: string }[];
}

describe('ledger-mm status', () => {
  it('without a daemon: summarises account, open orders per pair/side, balances and the journal', async () => {
    await t.placeThroughJournal([
      { side: 'BUY', price: '60000', quantity: '0.01' },
      { pair: 'ETH/USDC', side: 'SELL', price: '3000', quantity: '0.5' },
    ]);
    await h.place({ side: 'BUY', price: '59000', quantity: '0.02' }); // foreign
    journalLostOrder();

    const run = await t.cli(['status']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      /the daemon is not running \(nothing answered at http:\/\/127\.0\.0\.1:\d+\/status: connection refused\)/,
    );
    expect(run.out).toMatch(/status ACTIVE; fee exempt/);
    expect(run.out).toMatch(/open orders: 3 resting on the venue/);
    expect(run.out).toMatch(/BTC\/USDC\s+BUY\s+2\s+0\.03\s+1780/);
    expect(run.out).toMatch(/ETH\/USDC\s+SELL\s+1\s+0\.5\s+1500/);
    expect(run.out).toMatch(/USDC\s+\d/);
    expect(run.out).toMatch(/3 non-terminal orders/);
    expect(run.out).toMatch(/^ {2}!! UNKNOWN\s+1$/m);
    expect(run.out).toMatch(/!! 1 order needs attention/);
    expect(run.out).toMatch(/lost-order-1/);
    expect(run.out).not.toMatch(/paused:/);

    // --json, checked against the venue's ground truth.
    const json = await t.cli(['status', '--json']);
    expect(json.code).toBe(0);
    const s = JSON.parse(json.out) as StatusJson;
    expect(s.daemon.running).toBe(false);
    expect(s.account).toMatchObject({ partyId: h.partyId, status: 'ACTIVE', feeExempt: true });
    const truthResting = h.venue.truth.restingOrders(h.partyId);
    expect(s.openOrders!.total).toBe(truthResting.length);
    expect(s.openOrders!.byPairSide).toEqual([
      { pair: 'BTC/USDC', side: 'BUY', orders: 2, remaining: '0.03', notional: '1780' },
      { pair: 'ETH/USDC', side: 'SELL', orders: 1, remaining: '0.5', notional: '1500' },
    ]);
    const truthBalances = h.venue.truth.balances(h.partyId).at(-1)!.balances;
    expect(s.balances).not.toBeNull();
    expect(s.balances!.map((b) => b.instrument).sort()).toEqual(Object.keys(truthBalances).sort());
    for (const b of s.balances!) {
      expect(truthBalances[b.instrument]).toEqual({ available: b.available, locked: b.locked });
    }
    expect(s.journal).toMatchObject({
      path: storePath,
      exists: true,
      nonTerminal: 3,
      byState: { OPEN: 2, UNKNOWN: 1 },
    });
    expect(s.journal.attention).toEqual([
      expect.objectContaining({ state: 'UNKNOWN', orderId: 'lost-order-1' }),
    ]);
    expect(s.errors).toEqual([]);
    expect(s.daemon).toMatchObject({ storeHolder: null });
    expect(s.journal.pauses).toEqual([]);

    // A pause the control log keeps: what a daemon started on this store will not quote.
    const log = openJournal<TrackedOrder>({ path: storePath });
    try {
      log.recordControlChange({
        action: 'pause',
        pair: 'BTC/USDC',
        side: null,
        reason: 'operator',
        by: 'loopback 127.0.0.1',
        detail: '',
        at: Date.parse('2026-11-28T09:00:00Z'),
      });
    } finally {
      log.close();
    }
    const paused = await t.cli(['status']);
    expect(paused.out).toContain(
      'paused: BTC/USDC (operator, by loopback 127.0.0.1, since 2026-11-28T09:00:00.000Z)',
    );
    const pausedJson = JSON.parse((await t.cli(['status', '--json'])).out) as StatusJson;
    expect(pausedJson.journal.pauses.map((p) => p.scope)).toEqual(['BTC/USDC']);

    // A process holds the store but nothing answers on the metrics port: said, not hidden.
    const daemon = openJournal<TrackedOrder>({ path: storePath });
    try {
      const held = await t.cli(['status']);
      expect(held.out).toMatch(new RegExp(`!! but pid ${process.pid} on \\S+ holds the store`));
      const heldJson = JSON.parse((await t.cli(['status', '--json'])).out) as StatusJson;
      expect(heldJson.daemon).toMatchObject({ running: false, storeHolder: { pid: process.pid } });
    } finally {
      daemon.close();
    }
  });

  it('says when there is no journal, and exits 1 listing the venue reads that failed', async () => {
    const run = await t.cli(['status']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/journal .*store\.sqlite does not exist/);
    expect(run.out).toMatch(/open orders: none resting/);

    const wrongKey = h.apiKey.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
    const bad = await t.cli(['status', '--json'], { ...env, LEDGER_MM_API_KEY: wrongKey });
    expect(bad.code).toBe(1);
    const s = JSON.parse(bad.out) as StatusJson;
    expect(s.account).toBeNull();
    expect(s.errors.map((e) => e.read)).toEqual(['GET /account', 'GET /orders', 'GET /balances']);
    expect(s.errors[0]!.error).toMatch(/^INVALID_API_KEY/);
    expect(bad.out).not.toContain(wrongKey);
  });

  it('prints what the daemon says when its status endpoint answers, and asks the venue nothing', async () => {
    // The shape of the daemon's /status document (src/observability/status-report.ts).
    const body = {
      at: '2026-01-01T00:00:00.000Z',
      pairs: [
        {
          pair: 'BTC/USDC',
          riskState: 'quoting',
          twoSided: true,
          reference: { price: '60000', ageSeconds: 1.2 },
          bestBid: '59990',
          bestAsk: '60010',
          spreadBps: '3.33',
          quotes: [
            { side: 'BUY', level: 0, price: '59940', remaining: '0.01', referenceAgeSeconds: 1.2, key: 'k1' },
          ],
          inventory: { base: '0.5', quote: '-30000' },
          pnl: null,
        },
      ],
      balances: { BTC: { available: '9.5', locked: '0' } },
      orders: { OPEN: 2, UNKNOWN: 1 },
      pipeline: null,
      queues: null,
      rateBudget: null,
      lastFills: [],
      pollers: [{ poller: 'orders', pair: null, lastSuccessAt: '2026-01-01T00:00:00.000Z', ageSeconds: 2 }],
    };
    const port = await fakeDaemon(body);
    const e = { ...env, LEDGER_MM_METRICS_PORT: String(port) };
    const callsBefore = h.venue.truth.calls().length;

    const run = await t.cli(['status'], e);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/the daemon is running; its status from http:\/\/127\.0\.0\.1:\d+\/status:/);
    expect(run.out).toMatch(/^ {2}pairs:\n {4}- pair: BTC\/USDC\n {6}riskState: quoting$/m);
    expect(run.out).toMatch(/^ {8}- side: BUY\n {10}level: 0$/m);
    expect(run.out).toMatch(/^ {4}UNKNOWN: 1$/m);
    expect(run.out).toMatch(/^!! 1 UNKNOWN: /m);

    const json = JSON.parse((await t.cli(['status', '--json'], e)).out) as StatusJson;
    expect(json.daemon).toMatchObject({ running: true, status: body });
    expect(h.venue.truth.calls()).toHaveLength(callsBefore);
  });

  it('renders a status tree and builds the URL of a wildcard or IPv6 bind address', () => {
    expect(renderTree({ a: 1, b: { c: 'x', d: [] }, e: [{ f: null, g: 2 }, 3], h: {} })).toBe(
      'a: 1\nb:\n  c: x\n  d: []\ne:\n  - f: -\n    g: 2\n  - 3\nh: {}\n',
    );
    expect(daemonStatusUrl({ host: '0.0.0.0', port: 9464 })).toBe('http://127.0.0.1:9464/status');
    expect(daemonStatusUrl({ host: '::', port: 9464 })).toBe('http://[::1]:9464/status');
    expect(daemonStatusUrl({ host: 'fd00::1', port: 1 })).toBe('http://[fd00::1]:1/status');
  });

  it('ends with exit 2 on invalid configuration, before anything is asked', async () => {
    const run = await t.cli(['status'], { ...env, LEDGER_MM_METRICS_PORT: 'not-a-port' });
    expect(run.code).toBe(2);
    expect(h.venue.truth.calls()).toHaveLength(0);
  });

  it('--help prints the usage', async () => {
    const run = await t.cli(['status', '--help']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Usage: ledger-mm status/);
  });
});

/**
 * The watchdog over a firm of parties: `ledger-mm watchdog` with `firm.parties` cancels every
 * party's resting orders, each with that party's key and a journal of the watchdog's own per
 * party, against the simulated venue over HTTP (two accounts); and how {@link FirmSweeper} adds
 * the parties' sweeps up, as a table.
 */
import { writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/command.js';
import { runWatchdog } from '../../src/cli/watchdog.js';
import { openJournal } from '../../src/orders/journal/index.js';
import type { TrackedOrder } from '../../src/orders/fsm/index.js';
import type { SweepReport } from '../../src/watchdog/cancel-sweep.js';
import { FirmSweeper } from '../../src/watchdog/firm-sweep.js';
import type { Watchdog } from '../../src/watchdog/watchdog.js';
import { useFirmEnv, type FirmEnv, type FirmParty } from '../cli/support/firm-env.js';
import { freePort } from '../cli/support/operator-env.js';
import { FakeProcess } from '../support/fake-process.js';

let f: FirmEnv;
useFirmEnv('watchdog-firm', (e) => (f = e));

const resting = (p: FirmParty): string[] => f.t.h.venue.truth.restingOrders(p.partyId).map((o) => o.orderId);

describe('ledger-mm watchdog with firm.parties', () => {
  it("a silent daemon: every party's orders are cancelled with its own key, journaled per party", async () => {
    const [oa] = await f.place(f.a, [{ side: 'BUY', price: '60000', quantity: '0.01' }]);
    const [ob] = await f.place(f.b, [{ side: 'SELL', price: '70000', quantity: '0.01' }]);
    expect([resting(f.a), resting(f.b)]).toEqual([[oa!.orderId], [ob!.orderId]]);

    const store = join(f.t.dir, 'watchdog.sqlite');
    const env: NodeJS.ProcessEnv = {
      ...f.env,
      LEDGER_MM_WATCHDOG_HEALTH_URL: `http://127.0.0.1:${await freePort()}/healthz`,
      LEDGER_MM_WATCHDOG_DEAD_AFTER_MS: '1000',
      LEDGER_MM_WATCHDOG_STORE_PATH: store,
      LEDGER_MM_WATCHDOG_METRICS_PORT: '0',
      LEDGER_MM_LOG_LEVEL: 'silent',
    };
    let err = '';
    const io: CommandIo = { stdout: () => undefined, stderr: (t) => (err += t), env, cwd: f.t.dir };
    const proc = new FakeProcess();
    let started: Watchdog | undefined;
    const timing = { watchdog: { probeTimeoutMs: 200, pollMs: 100, sweepMs: 200 } };
    writeFileSync(join(f.t.dir, 'wd.json'), JSON.stringify(timing));
    const running = runWatchdog(['--config', 'firm.json', '--config', 'wd.json'], io, {
      proc,
      onStarted: (w) => (started = w),
    });
    // Bounded: the silence (1 s) plus the sweeps, on the instant venue.
    for (let i = 0; i < 200 && (resting(f.a).length > 0 || resting(f.b).length > 0); i++) await delay(25);
    proc.emit('SIGTERM');
    const code = await running;
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(started?.status()['triggers']).toEqual([
      expect.objectContaining({ cancelled: expect.arrayContaining([oa!.orderId, ob!.orderId]) as unknown }),
    ]);
    expect([resting(f.a), resting(f.b)]).toEqual([[], []]);
    // Each party's cancel committed, and each is journaled in the watchdog's journal of its party.
    const commits = f.t.h.venue.truth.commits().filter((c) => c.kind === 'cancel' && c.ok);
    expect(commits.map((c) => c.orderId).sort()).toEqual([oa!.orderId, ob!.orderId].sort());
    for (const [path, id, other] of [
      [store, oa!.orderId!, ob!.orderId!],
      [join(f.t.dir, 'watchdog.b.sqlite'), ob!.orderId!, oa!.orderId!],
    ] as const) {
      const j = openJournal<TrackedOrder>({ path });
      try {
        expect([j.findByOrderId(id)?.state, j.findByOrderId(other)]).toEqual(['CANCELLED', undefined]);
      } finally {
        j.close();
      }
    }
  });
});

const report = (r: Partial<SweepReport>): SweepReport => ({
  cancelled: [],
  failures: [],
  gone: 0,
  left: 0,
  ...r,
});
type Outcome = SweepReport | Error;
const sweeperOf = (o: Outcome): { sweep: () => Promise<SweepReport> } => ({
  sweep: () => (o instanceof Error ? Promise.reject(o) : Promise.resolve(o)),
});

describe('FirmSweeper adds the parties up', () => {
  const cases: { name: string; a: Outcome; b: Outcome; want: SweepReport | 'rejects' }[] = [
    {
      name: 'both swept',
      a: report({ cancelled: ['o1'], gone: 1, left: 0 }),
      b: report({ cancelled: ['o2', 'o3'], left: 2 }),
      want: report({ cancelled: ['o1', 'o2', 'o3'], gone: 1, left: 2 }),
    },
    {
      name: 'a failure is tagged with its party',
      a: report({ failures: [{ orderId: 'o1', reason: 'stranded', detail: 'funds withdrawn' }], left: 1 }),
      b: report({}),
      want: report({
        failures: [{ orderId: 'o1', reason: 'stranded', detail: 'party a: funds withdrawn' }],
        left: 1,
      }),
    },
    {
      name: 'one party unread: the other is swept, left not known',
      a: new Error('GET /account failed'),
      b: report({ cancelled: ['o2'], left: 0 }),
      want: report({
        cancelled: ['o2'],
        failures: [{ orderId: null, reason: 'sweep_failed', detail: 'party a: GET /account failed' }],
        left: -1,
      }),
    },
    {
      name: 'an aborted re-list of one party: left not known',
      a: report({ left: 3 }),
      b: report({ left: -1 }),
      want: report({ left: -1 }),
    },
    { name: 'every party failed: the sweep fails', a: new Error('x'), b: new Error('y'), want: 'rejects' },
  ];
  it.each(cases)('$name', async ({ a, b, want }) => {
    const firm = new FirmSweeper([
      { name: 'a', sweeper: sweeperOf(a) },
      { name: 'b', sweeper: sweeperOf(b) },
    ]);
    const got = firm.sweep(new AbortController().signal);
    if (want === 'rejects') await expect(got).rejects.toThrow('party a: x; party b: y');
    else expect(await got).toEqual(want);
  });
});

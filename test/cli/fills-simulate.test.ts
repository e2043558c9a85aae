import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { dec, ZERO, type Dec } from '../../src/core/decimal.js';
import { fillsCommand } from '../../src/cli/fills.js';
import { loadScenario } from '../../src/lab/simulate/run/scenario.js';
import { runSimulation } from '../../src/lab/simulate/run/sim-run.js';
import { simulatorTuning } from '../../src/lab/rig/paper-tuning.js';
import { runCaptured } from '../support/captured-io.js';
import { tempDirPerFile } from '../support/temp-dir.js';
import { csvRows, perOrder } from './support/fills-csv.js';

const dir = tempDirPerFile('ledger-mm-fills-sim-');

/** A realistic-latency `simulate` run of the default scenario, its journals kept at `storePath`. */
async function simulated(o: { hours: number; seed: number; storePath: string; parties?: number }) {
  const sc = loadScenario({
    hours: o.hours,
    seed: o.seed,
    latency: 'realistic',
    configFiles: [],
    market: null,
    cwd: dir,
    env: {},
  });
  return runSimulation({
    config: sc.config,
    sim: sc.sim,
    latency: sc.latency,
    seed: sc.seed,
    durationMs: sc.durationMs,
    tuning: { engine: simulatorTuning(sc.latency), summaryMs: 600_000 },
    storePath: o.storePath,
    ...(o.parties === undefined ? {} : { parties: o.parties }),
  });
}

/**
 * `ledger-mm fills --format csv` after a 2-hour `simulate` run (in process, fake clock) reads the
 * daemon's journal, and gives the fills the simulated venue's ground truth has: per order of the
 * party, the same pair, side, price and quantity. The journal learns of a fill when it reads the
 * order, so an order whose last fill came in the run's last minute may not be complete in it
 * (the run ends without a last read): such orders are only checked not to exceed the truth.
 */
it('fills --format csv after a 2-hour simulate gives the ground truth fills, prices and quantities', async () => {
  const storePath = path.join(dir, 'journal.sqlite');
  const capture = await simulated({ hours: 2, seed: 1, storePath });

  const run = await runCaptured(
    (io) => fillsCommand.run(['--format', 'csv'], io),
    { LEDGER_MM_STORE_PATH: storePath },
    dir,
  );
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const rows = csvRows(run.stdout);
  expect(rows.header).toEqual([
    'time',
    'pair',
    'side',
    'price',
    'quantity',
    'fee',
    'orderId',
    'clientOrderId',
    'reference',
    'spreadBps',
    'markout5s',
    'markout30s',
    'markout60s',
    'markout300s',
    'party',
  ]);
  const journal = perOrder(rows.records);

  // The ground truth: every fill of every order of the party, summed per order.
  const truth = new Map<
    string,
    { pair: string; side: string; prices: Set<string>; qty: Dec; last: number }
  >();
  for (const o of capture.orders) {
    for (const f of o.fills) {
      const t = truth.get(o.orderId) ?? { pair: o.pair, side: o.side, prices: new Set(), qty: ZERO, last: 0 };
      t.prices.add(dec(f.price).toFixed());
      t.qty = t.qty.plus(dec(f.quantity));
      t.last = Math.max(t.last, f.at);
      truth.set(o.orderId, t);
    }
  }
  expect(truth.size).toBeGreaterThan(20);
  let complete = 0;
  for (const [orderId, t] of truth) {
    const j = journal.get(orderId);
    if (t.last > capture.end - 60_000) {
      if (j !== undefined) expect(j.qty.lte(t.qty)).toBe(true);
      continue;
    }
    expect({ orderId, pair: j?.pair, side: j?.side, qty: j?.qty.toFixed() }).toEqual({
      orderId,
      pair: t.pair,
      side: t.side,
      qty: t.qty.toFixed(),
    });
    expect([...(j?.prices ?? [])]).toEqual([...t.prices]);
    complete += 1;
  }
  expect(complete).toBeGreaterThan(20);
  // Nothing in the journal that the venue did not fill.
  expect([...journal.keys()].filter((id) => !truth.has(id))).toEqual([]);

  // Every fill carries its clientOrderId, a fee (fee-exempt: 0) and the reference it was quoted
  // around; markouts are known for all but the fills of the last five minutes.
  const times = rows.records.map((r) => Date.parse(r.time!));
  expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
  expect(rows.records.filter((r) => r.clientOrderId === '' || r.fee !== '0' || r.reference === '')).toEqual(
    [],
  );
  const old = rows.records.filter((r) => Date.parse(r.time!) < capture.end - 360_000);
  expect(old.length).toBeGreaterThan(20);
  const measured = old.filter((r) => r.markout300s !== '' && r.markout5s !== '');
  expect(measured.length / old.length).toBeGreaterThan(0.9);
  expect(rows.records.every((r) => r.spreadBps !== '' && Number.isFinite(Number(r.spreadBps)))).toBe(true);
}, 120_000);

it('fills with two parties reads both journals: every fill labelled with its party, merged by time; --party keeps one', async () => {
  const storePath = path.join(dir, 'firm', 'journal.sqlite');
  const capture = await simulated({ hours: 1, seed: 3, storePath, parties: 2 });
  const configFile = path.join(dir, 'firm.json');
  const party = (name: string) => ({ name, apiKeyFile: `${name}.key`, signingKeyFile: `${name}.ed25519` });
  fs.writeFileSync(
    configFile,
    JSON.stringify({ store: { path: storePath }, firm: { parties: [party('p1'), party('p2')] } }),
  );
  const fills = (extra: string[]) =>
    runCaptured((io) => fillsCommand.run(['--config', configFile, '--format', 'csv', ...extra], io), {}, dir);
  const all = await fills([]);
  expect(all.stderr).toBe('');
  expect(all.code).toBe(0);
  const rows = csvRows(all.stdout).records;
  // The party of each order on the venue, by name.
  const nameOf = new Map(capture.partyIds.map((id, i) => [id, `p${i + 1}`]));
  const partyOfOrder = new Map(capture.orders.map((o) => [o.orderId, nameOf.get(o.partyId)]));
  expect(rows.length).toBeGreaterThan(10);
  expect(new Set(rows.map((r) => r.party))).toEqual(new Set(['p1', 'p2']));
  expect(rows.filter((r) => r.party !== partyOfOrder.get(r.orderId!))).toEqual([]);
  const times = rows.map((r) => Date.parse(r.time!));
  expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
  const onlyP2 = csvRows((await fills(['--party', 'p2'])).stdout).records;
  expect(onlyP2.length).toBe(rows.filter((r) => r.party === 'p2').length);
  expect(onlyP2.every((r) => r.party === 'p2')).toBe(true);
}, 120_000);

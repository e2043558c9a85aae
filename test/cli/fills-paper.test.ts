import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { fillsCommand } from '../../src/cli/fills.js';
import { runPaper } from '../../src/cli/paper.js';
import { dec, ZERO, type Dec } from '../../src/core/decimal.js';
import type { PaperVenue } from '../../src/lab/rig/paper-venue.js';
import { DEFAULT_SIM_CONFIG_PATH } from '../../src/sim/sim-config.js';
import { runCaptured } from '../support/captured-io.js';
import { FakeProcess } from '../daemon/support/daemon-env.js';
import { csvRows, perOrder } from './support/fills-csv.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * After paper trading (the simulated venue on loopback over HTTP, the daemon against it on the
 * real clock), `ledger-mm fills --format csv` reading the store at LEDGER_MM_STORE_PATH gives the
 * fills the venue's ground truth has, per order: pair, side, price and quantity. The daemon runs
 * until the party has a few fills (at most 25 s), then stops on SIGTERM, which cancels its quotes
 * and reads them back, so every fill reaches the journal before it closes.
 */
it('fills --format csv after paper trading gives the ground truth fills, prices and quantities', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-fills-paper-'));
  const storePath = path.join(dir, 'store', 'paper.sqlite');
  // A busier market than the default (takers arrive about once a second at δ = 0, and reach a
  // few bps further), so that a session of seconds sees fills.
  const sim = JSON.parse(fs.readFileSync(DEFAULT_SIM_CONFIG_PATH, 'utf8')) as Record<string, unknown>;
  const takers = { A: 1.5, k: 0.01 };
  sim.market = {
    pairs: {
      'BTC/USDC': {
        initialPrice: '60000',
        quantityDecimals: 5,
        background: { sizeBase: '0.25' },
        takers: { ...takers, meanSizeBase: '0.05' },
      },
      'ETH/USDC': {
        initialPrice: '3000',
        quantityDecimals: 4,
        background: { sizeBase: '5' },
        takers: { ...takers, meanSizeBase: '1' },
      },
    },
  };
  const simConfig = path.join(dir, 'sim.json');
  fs.writeFileSync(simConfig, JSON.stringify(sim));
  const env = { LEDGER_MM_STORE_PATH: storePath };
  const proc = new FakeProcess();
  let venue: PaperVenue | undefined;
  const ourFills = (): number =>
    venue?.venue.truth
      .orders()
      .filter((o) => o.partyId === venue?.partyId)
      .reduce((n, o) => n + o.fills.length, 0) ?? 0;
  const watch = setInterval(() => ourFills() >= 4 && proc.emit('SIGTERM'), 100);
  const stop = setTimeout(() => proc.emit('SIGTERM'), 25_000);
  let code: number;
  try {
    code = await runPaper(
      ['--latency', 'instant', '--sim-config', simConfig],
      { stdout: () => {}, stderr: () => {}, env, cwd: dir },
      {
        proc,
        attachments: [],
        logDestination: { write: () => {} },
        onDaemon: (_d, v) => {
          venue = v;
        },
      },
    );
  } finally {
    clearInterval(watch);
    clearTimeout(stop);
  }
  expect(code).toBe(0);
  const truth = new Map<string, { pair: string; side: string; prices: Set<string>; qty: Dec }>();
  for (const o of venue!.venue.truth.orders().filter((x) => x.partyId === venue!.partyId)) {
    for (const f of o.fills) {
      const t = truth.get(o.orderId) ?? { pair: o.pair, side: o.side, prices: new Set<string>(), qty: ZERO };
      t.prices.add(dec(f.price).toFixed());
      t.qty = t.qty.plus(dec(f.quantity));
      truth.set(o.orderId, t);
    }
  }
  expect(truth.size).toBeGreaterThan(0);

  const run = await runCaptured((io) => fillsCommand.run(['--format', 'csv'], io), env, dir);
  expect(run.code).toBe(0);
  const journal = perOrder(csvRows(run.stdout).records);
  const asPlain = (m: Map<string, { pair: string; side: string; prices: Set<string>; qty: Dec }>) =>
    Object.fromEntries(
      [...m].map(([id, o]) => [
        id,
        { pair: o.pair, side: o.side, prices: [...o.prices], qty: o.qty.toFixed() },
      ]),
    );
  expect(asPlain(journal)).toEqual(asPlain(truth));
}, 40_000);

/**
 * The daemon, unchanged, hedging on the simulated hedge venue under `simulate`
 * (`config/examples/hedged-every-fill.json`): every fill on this venue is laid off, the hedge orders are
 * journaled before they reach the venue, none is sent twice, and the firm's net position stays
 * near flat while this venue's alone moves.
 */
import path from 'node:path';
import { expect, it } from 'vitest';

import { Dec } from '../../../src/core/decimal.js';
import { runFigures } from '../../../src/lab/simulate/figures/figures.js';
import { loadScenario } from '../../../src/lab/simulate/run/scenario.js';
import { runSimulation } from '../../../src/lab/simulate/run/sim-run.js';
import { simulatorTuning } from '../../../src/lab/rig/paper-tuning.js';
import type { Daemon } from '../../../src/daemon/daemon.js';

it('hedges every fill: net position near flat, each hedge order sent once, its cost in the figures', async () => {
  const sc = loadScenario({
    hours: 0.25,
    seed: 2,
    latency: 'fast',
    configFiles: [path.resolve('config/examples/hedged-every-fill.json')],
    market: null,
    cwd: process.cwd(),
    env: {},
  });
  let daemon: Daemon | null = null;
  const capture = await runSimulation({
    config: sc.config,
    sim: sc.sim,
    latency: sc.latency,
    seed: sc.seed,
    durationMs: sc.durationMs,
    tuning: { engine: simulatorTuning(sc.latency), summaryMs: 20_000 },
    onDaemon: (d) => (daemon = d),
  });
  const { figures } = runFigures('daemon', capture, 8);
  const trades = Object.values(capture.hedgeTrades ?? {}).flat();
  expect(figures.fills).toBeGreaterThan(3);
  expect(trades.length).toBeGreaterThan(0);
  // Each hedge fill has a distinct order: none was doubled.
  expect(figures.net.hedgeFills).toBe(trades.length);
  // The firm's net inventory value moves far less than this venue's.
  expect(new Dec(figures.net.netInventoryValueStd).lt(new Dec(figures.inventoryValueStd).div(4))).toBe(true);
  // The hedge costs its fee (5 bps) and its half-spread (1 bps) on its volume.
  const volume = new Dec(figures.net.hedgeVolumeQuote);
  expect(new Dec(figures.net.hedgeFees).div(volume).times(10_000).toDecimalPlaces(2).toFixed()).toBe('5');
  expect(new Dec(figures.net.hedgeCost).gt(new Dec(figures.net.hedgeFees))).toBe(true);
  expect(new Dec(figures.pnl).minus(new Dec(figures.net.pnlNet)).isZero()).toBe(false);
  // The daemon reports both hedged pairs, neither failing at the end.
  const positions = (daemon as Daemon | null)?.hedgeReport() ?? [];
  expect(positions.map((p) => p.pair).sort()).toEqual(['BTC/USDC', 'ETH/USDC']);
  expect(positions.every((p) => p.state?.failing === false)).toBe(true);
}, 120_000);

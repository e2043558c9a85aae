/**
 * Simulation speed: the daemon of paper trading (config/paper.json) against the simulated venue
 * of config/sim.json, market running, at REALISTIC latency, in-process under fake timers —
 * through `runSimulation`, the runner of `ledger-mm simulate` — for `simulatedMs`; reported as
 * simulated hours per second of wall clock (and of CPU).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { PAPER_CONFIG_FILE, simulatorDaemonTuning } from '../rig/paper-tuning.js';
import { loadConfig } from '../../config/load.js';
import { loadSimConfig } from '../../sim/sim-config.js';
import { runSimulation } from '../simulate/run/sim-run.js';

/** Options of {@link runSimSpeed}. */
export interface SimSpeedOptions {
  /** Default 2 simulated hours. */
  readonly simulatedMs?: number;
  readonly seed?: number;
}

/** What {@link runSimSpeed} reports. */
export interface SimSpeedResult {
  readonly simulatedHours: number;
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
  /** Simulated hours per wall-clock second. */
  readonly hoursPerWallSecond: number;
  /** Simulated time / wall time. */
  readonly speedup: number;
  readonly cycles: number;
  /** The daemon's orders the venue saw. */
  readonly orders: number;
  readonly trades: number;
}

/** Runs the measurement; see the module doc. */
export async function runSimSpeed(o: SimSpeedOptions = {}): Promise<SimSpeedResult> {
  const simulatedMs = o.simulatedMs ?? 2 * 3_600_000;
  const cwd = os.tmpdir();
  const config = loadConfig({ configFiles: [PAPER_CONFIG_FILE], env: {}, cwd });
  const sim = loadSimConfig();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const capture = await runSimulation({
    config,
    sim,
    latency: 'realistic',
    seed: o.seed ?? 1,
    durationMs: simulatedMs,
    // What `ledger-mm simulate` passes (strategy-runner.ts).
    tuning: simulatorDaemonTuning('realistic'),
  });
  const wallSeconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const simulatedHours = simulatedMs / 3_600_000;
  return {
    simulatedHours,
    wallSeconds,
    cpuSeconds: (c.user + c.system) / 1e6,
    hoursPerWallSecond: simulatedHours / wallSeconds,
    speedup: simulatedMs / 1000 / wallSeconds,
    cycles: capture.cycles,
    orders: capture.orders.length,
    trades: capture.trades.length,
  };
}

/**
 * The daemon's settings on the simulator, shared by paper mode, `ledger-mm simulate` and the
 * benches: the paper config file layered over `config/default.json`, and the timings (confirmation
 * pacing per latency profile, summary interval) the simulator's pace calls for.
 */
import { fileURLToPath } from 'node:url';
import type { DaemonTuning } from '../../daemon/daemon-types.js';
import type { ExecutionTuning } from '../../execution/execution-settings.js';
import type { LatencyProfile } from '../../sim/latency.js';

/** The package's paper trading config, layered over `config/default.json`. */
export const PAPER_CONFIG_FILE = fileURLToPath(new URL('../../../config/paper.json', import.meta.url));

/**
 * Confirmation reads paced for the simulator's profile: the engine's defaults wait 2 s before
 * the first read, made for the venue's ~12 s from submission to OPEN; the fast profile commits
 * in well under a second.
 */
export function simulatorTuning(latency: LatencyProfile): { readonly execution?: ExecutionTuning } {
  if (latency === 'realistic') return {};
  const confirmBackoff =
    latency === 'fast'
      ? { initialMs: 700, factor: 1.5, maxMs: 3_000 }
      : { initialMs: 100, factor: 2, maxMs: 1_000 };
  return { execution: { placement: { confirmBackoff }, cancel: { confirmBackoff } } };
}

/** How often the daemon on the simulator logs its summary (the live default is a minute). */
export const SIMULATOR_SUMMARY_MS = 20_000;

/**
 * The daemon's timings on the simulator, as paper mode, `ledger-mm simulate` and the benches
 * that mirror them run it: {@link simulatorTuning}'s confirmation pacing and
 * {@link SIMULATOR_SUMMARY_MS}.
 */
export function simulatorDaemonTuning(latency: LatencyProfile): Partial<DaemonTuning> {
  return { engine: simulatorTuning(latency), summaryMs: SIMULATOR_SUMMARY_MS };
}

import { fileURLToPath } from 'node:url';
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

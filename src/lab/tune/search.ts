/**
 * The candidates of a search: every combination of the parameters' values (a grid), or `count`
 * of them drawn without replacement from that grid by a seeded generator (a random search, the
 * same draw for the same seed). The grid may be large; only the chosen combinations are built.
 */
import { Rng } from '../../sim/rng.js';
import type { Candidate, TuneParam } from './tune-params.js';

/** The number of combinations of `params`. */
export function gridSize(params: readonly TuneParam[]): number {
  return params.reduce((n, p) => n * p.values.length, 1);
}

/** The combination at `index` of the grid (the last parameter varies fastest). */
export function gridAt(params: readonly TuneParam[], index: number): Candidate {
  const out: Record<string, unknown> = {};
  let rest = index;
  for (let i = params.length - 1; i >= 0; i--) {
    const p = params[i]!;
    out[p.key] = p.values[rest % p.values.length];
    rest = Math.floor(rest / p.values.length);
  }
  // Keys in the order the parameters were given.
  return Object.fromEntries(params.map((p) => [p.key, out[p.key]]));
}

/** Every combination, or `random` of them drawn with `seed` (all when `random` ≥ the grid). */
export function candidates(
  params: readonly TuneParam[],
  random: number | null,
  seed: number | string = 1,
): Candidate[] {
  const size = gridSize(params);
  if (random === null || random >= size) return Array.from({ length: size }, (_, i) => gridAt(params, i));
  const rng = new Rng(seed).fork('tune/random-search');
  const chosen = new Set<number>();
  while (chosen.size < random) chosen.add(rng.int(0, size - 1));
  return [...chosen].sort((a, b) => a - b).map((i) => gridAt(params, i));
}

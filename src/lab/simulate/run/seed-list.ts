/**
 * `--seeds`: a list of integer seeds as ranges and single values, `1-8`, `1,3,5` or `1-4,9`, in
 * the order given, each once. At most {@link MAX_SEEDS}: every seed is a whole run per strategy.
 */

/** The most seeds one command runs. */
export const MAX_SEEDS = 64;

/** The seeds of `spec`, or a message saying what is wrong with it. */
export function parseSeedList(spec: string): number[] | { error: string } {
  const out: number[] = [];
  for (const part of spec.split(',')) {
    const m = /^\s*(\d{1,9})\s*(?:-\s*(\d{1,9})\s*)?$/.exec(part);
    if (m === null) return { error: `"${part}" is not a seed or a range of seeds (e.g. 1-8 or 1,3,5)` };
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) return { error: `the range "${part.trim()}" runs backwards` };
    if (to - from + 1 > MAX_SEEDS) return { error: `at most ${MAX_SEEDS} seeds` };
    for (let s = from; s <= to; s++) if (!out.includes(s)) out.push(s);
    if (out.length > MAX_SEEDS) return { error: `at most ${MAX_SEEDS} seeds` };
  }
  return out;
}

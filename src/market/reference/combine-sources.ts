/**
 * The reference price of one pair from several exchanges: the weighted median of the fresh
 * sources, with outliers left out. Pure: no IO, no clock (the caller passes `now`), no logs.
 *
 * A source is fresh while its price, and its conversion leg's price when it has one, are younger
 * than `maxAgeMs`. Its price in the pair's quote currency is its own price times (or divided by)
 * the leg's. Outliers are removed one at a time, the worst first: the source furthest from the
 * weighted median of the OTHER fresh sources goes while that distance is over `maxDeviationBps`.
 * Two sources that disagree are both left out (nothing says which is right). With fewer than
 * `minSources` sources left there is no reference, and the reason names every source that is
 * not used and why. Never a guess: no last-good price, no fallback to fewer sources.
 *
 * Money stays `Dec`; the deviations in bps are floats (statistics, for the outlier rule and
 * metrics).
 */
import type { Dec } from '../../core/decimal.js';

/** The last price of one book, as a stream reports it. */
export interface BookPrice {
  /** Last price (quote per base); null until the first one. */
  readonly price: Dec | null;
  /** When it was received, clock ms; null until the first one. */
  readonly at: number | null;
}

/** One source of a pair: its book, its weight and, maybe, its conversion leg. */
export interface SourceReading extends BookPrice {
  /** `exchange:symbol`, for logs and metric labels. */
  readonly id: string;
  readonly weight: number;
  /** The leg converting the source's quote currency into the pair's. */
  readonly conversion?: BookPrice & {
    readonly id: string;
    /** True: divide by the leg's price (leg `PAIRQUOTE/SOURCEQUOTE`); false: multiply. */
    readonly divide: boolean;
  };
}

/** The rules of the `exchanges` section that the median needs. */
export interface CombineRules {
  readonly minSources: number;
  readonly maxAgeMs: number;
  readonly maxDeviationBps: number;
}

/** What became of a source in one combination. */
export type SourceState = 'used' | 'outlier' | 'stale' | 'no-price';

/** The verdict on one source. */
export interface SourceVerdict {
  readonly id: string;
  readonly state: SourceState;
  /** Its price in the pair's quote currency; null without a price (or leg price). */
  readonly price: Dec | null;
  /** Age of its oldest part (price or leg), ms; null without a price. */
  readonly ageMs: number | null;
  /**
   * Distance in bps: from the reference for a used or stale source (null without one), from the
   * others' median for an outlier at the moment it was left out.
   */
  readonly deviationBps: number | null;
}

/** The reference, or why there is none; with a verdict on every source either way. */
export type Combination =
  | {
      readonly ok: true;
      readonly price: Dec;
      /** The oldest receipt among the used sources (the reference is as old as that). */
      readonly at: number;
      readonly verdicts: readonly SourceVerdict[];
    }
  | { readonly ok: false; readonly reason: string; readonly verdicts: readonly SourceVerdict[] };

interface Candidate {
  readonly id: string;
  readonly weight: number;
  readonly price: Dec;
  readonly at: number;
}

/** The weighted median: the price where half the weight lies on either side (mean of two on a tie). */
export function weightedMedian(items: readonly { readonly price: Dec; readonly weight: number }[]): Dec {
  if (items.length === 0) throw new RangeError('weightedMedian of nothing');
  const sorted = [...items].sort((a, b) => a.price.comparedTo(b.price));
  const total = sorted.reduce((s, x) => s + x.weight, 0);
  let cum = 0;
  for (let i = 0; i < sorted.length; i++) {
    cum += sorted[i]!.weight;
    const half = total / 2;
    if (Math.abs(cum - half) <= 1e-12 * total && i + 1 < sorted.length) {
      return sorted[i]!.price.plus(sorted[i + 1]!.price).div(2);
    }
    if (cum > half) return sorted[i]!.price;
  }
  return sorted[sorted.length - 1]!.price;
}

/** `(a - b) / b` in bps, signed. */
export function deviationBps(a: Dec, b: Dec): number {
  return a.minus(b).div(b).times(10_000).toNumber();
}

/** A reading's price in the pair's quote currency and the time of its oldest part, or null. */
function converted(r: SourceReading): { price: Dec; at: number } | null {
  if (r.price === null || r.at === null || !r.price.gt(0)) return null;
  const c = r.conversion;
  if (c === undefined) return { price: r.price, at: r.at };
  if (c.price === null || c.at === null || !c.price.gt(0)) return null;
  return { price: c.divide ? r.price.div(c.price) : r.price.times(c.price), at: Math.min(r.at, c.at) };
}

/** Removes outliers worst first; returns the kept candidates and the left-out ones with their bps. */
function removeOutliers(
  fresh: readonly Candidate[],
  maxBps: number,
): { kept: Candidate[]; outliers: Map<string, number> } {
  const kept = [...fresh];
  const outliers = new Map<string, number>();
  while (kept.length >= 2) {
    let worst = -1;
    let worstBps = 0;
    let worstSigned = 0;
    for (let i = 0; i < kept.length; i++) {
      const others = kept.filter((_, j) => j !== i);
      const bps = deviationBps(kept[i]!.price, weightedMedian(others));
      if (Math.abs(bps) > worstBps) {
        worst = i;
        worstBps = Math.abs(bps);
        worstSigned = bps;
      }
    }
    if (worst < 0 || worstBps <= maxBps) break;
    if (kept.length === 2) {
      // Two that disagree: neither can be told right.
      outliers.set(kept[0]!.id, deviationBps(kept[0]!.price, kept[1]!.price));
      outliers.set(kept[1]!.id, deviationBps(kept[1]!.price, kept[0]!.price));
      kept.length = 0;
      break;
    }
    outliers.set(kept[worst]!.id, worstSigned);
    kept.splice(worst, 1);
  }
  return { kept, outliers };
}

function describe(v: SourceVerdict): string {
  switch (v.state) {
    case 'no-price':
      return `${v.id} has no price yet`;
    case 'stale':
      return `${v.id} is stale (${((v.ageMs ?? 0) / 1000).toFixed(1)} s old)`;
    case 'outlier':
      return `${v.id} is an outlier (${(v.deviationBps ?? 0) >= 0 ? '+' : ''}${(v.deviationBps ?? 0).toFixed(1)} bps from the others)`;
    case 'used':
      return `${v.id} is used`;
  }
}

/** The reference of one pair from its sources at `now`. */
export function combineSources(
  readings: readonly SourceReading[],
  rules: CombineRules,
  now: number,
): Combination {
  const fresh: Candidate[] = [];
  const parts = new Map<string, { price: Dec; at: number } | null>();
  for (const r of readings) {
    const c = converted(r);
    parts.set(r.id, c);
    if (c !== null && now - c.at < rules.maxAgeMs) fresh.push({ id: r.id, weight: r.weight, ...c });
  }
  const { kept, outliers } = removeOutliers(fresh, rules.maxDeviationBps);
  const keptIds = new Set(kept.map((k) => k.id));
  const ok = kept.length >= rules.minSources && kept.length > 0;
  const price = ok ? weightedMedian(kept) : null;
  const verdicts = readings.map((r): SourceVerdict => {
    const c = parts.get(r.id) ?? null;
    const ageMs = c === null ? null : now - c.at;
    const vsRef = c !== null && price !== null ? deviationBps(c.price, price) : null;
    if (c === null) return { id: r.id, state: 'no-price', price: null, ageMs: null, deviationBps: null };
    if (keptIds.has(r.id)) return { id: r.id, state: 'used', price: c.price, ageMs, deviationBps: vsRef };
    const out = outliers.get(r.id);
    if (out !== undefined) return { id: r.id, state: 'outlier', price: c.price, ageMs, deviationBps: out };
    return { id: r.id, state: 'stale', price: c.price, ageMs, deviationBps: vsRef };
  });
  if (price === null) {
    const missing = verdicts.filter((v) => v.state !== 'used').map(describe);
    const reason =
      `${kept.length} of ${readings.length} reference sources usable, need ${rules.minSources}` +
      (missing.length > 0 ? `: ${missing.join('; ')}` : '');
    return { ok: false, reason, verdicts };
  }
  return { ok: true, price, at: Math.min(...kept.map((k) => k.at)), verdicts };
}

/**
 * Whether a conversion leg divides or multiplies: source `B/X` to a pair quoted in `Q` takes a
 * leg `X/Q` (multiply) or `Q/X` (divide). Null when the leg links neither way.
 */
export function conversionDivides(
  sourceSymbol: string,
  legSymbol: string,
  pairQuote: string,
): boolean | null {
  const quoteOf = (s: string): string => (s.split(':')[0] ?? '').split('/')[1] ?? '';
  const baseOf = (s: string): string => s.split('/')[0] ?? '';
  const x = quoteOf(sourceSymbol);
  if (baseOf(legSymbol) === x && quoteOf(legSymbol) === pairQuote) return false;
  if (baseOf(legSymbol) === pairQuote && quoteOf(legSymbol) === x) return true;
  return null;
}

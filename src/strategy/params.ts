import { Dec } from '../core/decimal.js';
import { ConfigError, type ConfigIssue, renderValue } from '../config/errors.js';
import type {
  PairStrategyConfig,
  PairStrategyOverride,
  ReconcileConfig,
  ReferenceSourceName,
  SizeUnit,
  StrategyConfig,
} from '../config/sections/strategy.js';

export type { ReferenceSourceName, SizeUnit } from '../config/sections/strategy.js';

/**
 * The quoting parameters of one pair, resolved: defaults merged with the pair's override,
 * decimals parsed. Units are in the names: `Bps` basis points (1 bp = 0.01 %), `Ms`
 * milliseconds, `Sec` seconds, shares in [0, 1]. Prices and sizes are `Dec`; `null` = none.
 */
export interface PairStrategyParams {
  readonly enabled: boolean;
  readonly reference: {
    readonly source: ReferenceSourceName;
    /** Oldest book (mid, microprice). */
    readonly bookMaxAgeMs: number;
    /** Oldest last trade. */
    readonly lastMaxAgeMs: number;
    /** Oldest external feed price. */
    readonly externalMaxAgeMs: number;
    readonly staticPrice: Dec | null;
  };
  readonly spread: {
    readonly bidBps: number;
    readonly askBps: number;
    /** Clamp of each best quote's distance from the reference. */
    readonly minBps: number;
    readonly maxBps: number;
  };
  readonly levels: {
    readonly count: number;
    readonly spacingBps: number;
    readonly sizeUnit: SizeUnit;
    /** Level 0 size, in `sizeUnit`. */
    readonly size: Dec;
    /** Added per level, in `sizeUnit`. */
    readonly sizeIncrement: Dec;
  };
  readonly inventory: {
    readonly targetBaseShare: number;
    readonly rangeShare: number;
    readonly maxSkewBps: number;
    /** Base units. */
    readonly maxBase: Dec | null;
    readonly maxBaseShare: number;
    readonly minBaseShare: number;
  };
  readonly avellanedaStoikov: {
    readonly enabled: boolean;
    readonly gamma: number;
    readonly k: number;
    readonly horizonSec: number;
  };
  readonly volatility: {
    readonly windowMs: number;
    readonly halfLifeMs: number;
    readonly minSamples: number;
    /** σ of log returns per √second; 0 = estimate from the snapshot. */
    readonly fixedSigma: number;
  };
  readonly guards: {
    readonly priceFloor: Dec | null;
    readonly priceCeiling: Dec | null;
    /** Price tick; null = 10 decimal places. */
    readonly tick: Dec | null;
    /** Quantity step, base units. */
    readonly quantityStep: Dec;
  };
}

/** The strategy's parameters: one entry per pair to quote. */
export interface StrategyParams {
  readonly pairs: Readonly<Record<string, PairStrategyParams>>;
}

/** The reconciler's tolerances (bps, percent, ms). */
export type ReconcileParams = ReconcileConfig;

const optDec = (s: string): Dec | null => (s === '' ? null : new Dec(s));

/** Parses a merged pair config (already format-checked) into {@link PairStrategyParams}. */
export function toPairParams(c: PairStrategyConfig): PairStrategyParams {
  return {
    enabled: c.enabled,
    reference: {
      source: c.reference.source,
      bookMaxAgeMs: c.reference.bookMaxAgeMs,
      lastMaxAgeMs: c.reference.lastMaxAgeMs,
      externalMaxAgeMs: c.external.maxAgeMs,
      staticPrice: optDec(c.reference.staticPrice),
    },
    spread: { ...c.spread },
    levels: {
      count: c.levels.count,
      spacingBps: c.levels.spacingBps,
      sizeUnit: c.levels.sizeUnit,
      size: new Dec(c.levels.size),
      sizeIncrement: new Dec(c.levels.sizeIncrement),
    },
    inventory: { ...c.inventory, maxBase: optDec(c.inventory.maxBase) },
    avellanedaStoikov: { ...c.avellanedaStoikov },
    volatility: { ...c.volatility },
    guards: {
      priceFloor: optDec(c.guards.priceFloor),
      priceCeiling: optDec(c.guards.priceCeiling),
      tick: optDec(c.guards.tick),
      quantityStep: new Dec(c.guards.quantityStep),
    },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = base[k];
    out[k] = isObject(b) && isObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

/** The defaults merged with the override of `pair` (when there is one). */
export function pairConfig(config: StrategyConfig, pair: string): PairStrategyConfig {
  const override = config.pairs.find((o) => o.pair === pair);
  if (override === undefined) return config.defaults;
  const { pair: _pair, ...rest } = override;
  return deepMerge(
    config.defaults as unknown as Record<string, unknown>,
    rest,
  ) as unknown as PairStrategyConfig;
}

/** The rules between keys of one pair's config; `[dotted key within the pair, value, reason]`. */
function pairProblems(c: PairStrategyConfig): Array<[string, unknown, string]> {
  const out: Array<[string, unknown, string]> = [];
  if (!(c.spread.minBps > 0)) {
    out.push(['spread.minBps', c.spread.minBps, 'must be > 0 (a zero distance lets a bid meet our own ask)']);
  }
  if (c.spread.maxBps < c.spread.minBps) {
    out.push(['spread.maxBps', c.spread.maxBps, `must be at least spread.minBps (${c.spread.minBps})`]);
  }
  if (c.reference.source === 'static' && c.reference.staticPrice === '') {
    out.push(['reference.staticPrice', '', 'must be set when reference.source is "static"']);
  }
  if (c.reference.source === 'external' && c.external.url === '') {
    out.push(['external.url', '', 'must be set when reference.source is "external"']);
  }
  const floor = optDec(c.guards.priceFloor);
  const ceiling = optDec(c.guards.priceCeiling);
  if (floor !== null && ceiling !== null && !floor.lt(ceiling)) {
    out.push([
      'guards.priceCeiling',
      c.guards.priceCeiling,
      `must be above guards.priceFloor (${c.guards.priceFloor})`,
    ]);
  }
  if (c.inventory.minBaseShare >= c.inventory.maxBaseShare) {
    out.push(['inventory.maxBaseShare', c.inventory.maxBaseShare, 'must be above inventory.minBaseShare']);
  }
  if (c.inventory.maxSkewBps > 0 && !(c.inventory.rangeShare > 0)) {
    out.push([
      'inventory.rangeShare',
      c.inventory.rangeShare,
      'must be > 0 when inventory.maxSkewBps is > 0',
    ]);
  }
  return out;
}

/** Every problem of the `strategy` section against the configured pair list (empty when valid). */
export function strategyConfigIssues(config: StrategyConfig, pairs: readonly string[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const fromDefaults = new Set<string>();
  for (const [key, value, reason] of pairProblems(config.defaults)) {
    fromDefaults.add(key);
    issues.push({ key: `strategy.defaults.${key}`, value: renderValue(value), reason });
  }
  config.pairs.forEach((o: PairStrategyOverride, i) => {
    if (!pairs.includes(o.pair)) {
      issues.push({
        key: `strategy.pairs[${i}].pair`,
        value: renderValue(o.pair),
        reason: `is not one of the configured pairs (${pairs.join(', ') || 'none'})`,
      });
    }
    for (const [key, value, reason] of pairProblems(pairConfig(config, o.pair))) {
      if (fromDefaults.has(key)) continue;
      issues.push({ key: `strategy.pairs[${i}] (${o.pair}).${key}`, value: renderValue(value), reason });
    }
  });
  return issues;
}

/**
 * The parameters of every configured pair.
 *
 * @throws ConfigError listing every rule between keys that the configuration breaks.
 */
export function resolveStrategyParams(config: StrategyConfig, pairs: readonly string[]): StrategyParams {
  const issues = strategyConfigIssues(config, pairs);
  if (issues.length > 0) throw new ConfigError(issues);
  const out: Record<string, PairStrategyParams> = {};
  for (const pair of pairs) out[pair] = toPairParams(pairConfig(config, pair));
  return { pairs: out };
}

/** What the external price poller of one pair needs (`src/market/external-feed.ts`). */
export interface ExternalFeedSettings {
  readonly pair: string;
  readonly url: string;
  readonly jsonPath: string;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly maxAgeMs: number;
}

/** The feeds to run: one per configured pair whose `external.url` is set, whatever its source. */
export function externalFeedSettings(
  config: StrategyConfig,
  pairs: readonly string[],
): ExternalFeedSettings[] {
  return pairs.flatMap((pair) => {
    const { external: e } = pairConfig(config, pair);
    return e.url === '' ? [] : [{ pair, ...e }];
  });
}

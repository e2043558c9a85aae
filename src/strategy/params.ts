import { ConfigError, type ConfigIssue, renderValue } from '../config/errors.js';
import { latencyParamSpecs } from './models/latency-params.js';
import { MODEL_NAMES } from './models/registry.js';
import {
  BPS,
  type ConfigOf,
  JSON_PATH,
  NON_NEG_DEC,
  NON_NEG_NUM,
  OPT_DEC,
  OPT_TICK,
  OPT_URL,
  PCT,
  POS_DEC,
  POS_NUM,
  type ParamSpec,
  type ParamsOf,
  SHARE,
  boolParam,
  enumParam,
  intParam,
  param,
  resolveParams,
} from './param-spec.js';

/** Where the reference price of a pair comes from. */
export const REFERENCE_SOURCES = ['mid', 'microprice', 'last', 'static', 'external'] as const;
export type ReferenceSourceName = (typeof REFERENCE_SOURCES)[number];
/** The unit of `levels.size` and `levels.sizeIncrement`. */
export const SIZE_UNITS = ['base', 'quote'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

const MS = (doc: string, def: number): ParamSpec<number> => intParam(doc, 1, 86_400_000, def);

/**
 * The quoting parameters of one pair: the single source of each parameter's name, doc, default
 * and bounds. The `strategy.defaults` config section and the per-pair overrides
 * (`src/config/sections/strategy.ts`) are built from this table, and so are the types
 * {@link PairStrategyConfig} and {@link PairStrategyParams}. Units are in the names: `Bps` basis
 * points (1 bp = 0.01 %), `Ms` milliseconds, `Sec` seconds, shares in [0, 1]. Rules between
 * parameters are {@link strategyConfigIssues}.
 */
export const pairParamSpecs = {
  enabled: boolParam('Quote this pair. False: no quotes, and its orders are cancelled.', true),
  reference: {
    source: enumParam(
      'Reference price: "mid" or "microprice" of the book without our own orders, "last" trade, "static" (reference.staticPrice) or "external" (the HTTP feed of strategy.*.external).',
      REFERENCE_SOURCES,
      'mid',
    ),
    bookMaxAgeMs: MS(
      'Oldest book poll, ms, that mid and microprice may use; older: the pair is not quoted.',
      5_000,
    ),
    lastMaxAgeMs: MS(
      'Oldest last trade, ms, the "last" source may use; older: the pair is not quoted.',
      300_000,
    ),
    staticPrice: param('The price of the "static" source, quote per base. "" = none.', OPT_DEC, ''),
  },
  external: {
    url: param(
      'The HTTP JSON feed of the "external" source (GET). https, or http to loopback. "" = none.',
      OPT_URL,
      '',
    ),
    jsonPath: param(
      'Where the price is in the feed\'s JSON: a dotted path, e.g. "data.price" or "$.result[0].last". The value may be a decimal string or a number.',
      JSON_PATH,
      'price',
    ),
    intervalMs: intParam('How often the feed is polled, ms (runs never overlap).', 100, 3_600_000, 2_000),
    timeoutMs: intParam('Client timeout of one feed request, ms.', 100, 120_000, 5_000),
    maxAgeMs: MS('Oldest feed price, ms since it was fetched, the strategy may use.', 15_000),
  },
  spread: {
    bidBps: param('Distance of the best bid below the reference, basis points (before skew).', BPS, 10),
    askBps: param('Distance of the best ask above the reference, basis points (before skew).', BPS, 10),
    minBps: param('Smallest distance of a best quote from the reference, bps; must be > 0.', BPS, 2),
    maxBps: param(
      'Largest distance of a best quote from the reference, bps; at least spread.minBps.',
      BPS,
      500,
    ),
  },
  levels: {
    count: intParam('Quote levels per side (level 0 is the best).', 1, 20, 1),
    spacingBps: param('Distance between consecutive levels of a side, bps of the level-0 price.', BPS, 10),
    sizeUnit: enumParam(
      'Unit of levels.size and levels.sizeIncrement: "base" units or "quote" notional.',
      SIZE_UNITS,
      'base',
    ),
    size: param('Size of level 0, in levels.sizeUnit.', POS_DEC, '0.01'),
    sizeIncrement: param('Added to the size per level further out, in levels.sizeUnit.', NON_NEG_DEC, '0'),
  },
  inventory: {
    targetBaseShare: param(
      "Target share of the pair's value held in base, 0 to 1, valued at the reference.",
      SHARE,
      0.5,
    ),
    rangeShare: param(
      'Share deviation from the target at which the skew reaches inventory.maxSkewBps.',
      SHARE,
      0.25,
    ),
    maxSkewBps: param('Largest shift of both quotes, bps: down when long base, up when short.', BPS, 10),
    targetBase: param(
      'Target base holdings, base units: when set (with inventory.rangeBase), the skew follows the distance from it instead of the base share. "" = use the share.',
      OPT_DEC,
      '',
    ),
    rangeBase: param(
      'Distance from inventory.targetBase, base units, at which the skew reaches inventory.maxSkewBps. "" = none.',
      OPT_DEC,
      '',
    ),
    sizeSkew: param(
      'Share by which the side that adds to the position shrinks at the edge of the range (inventory.rangeBase, else inventory.rangeShare), linearly from the target: 0.5 quotes half the size there. 0 = off.',
      SHARE,
      0,
    ),
    maxBase: param(
      'Hard maximum of base held, base units; above it only the SELL side is quoted. "" = none.',
      OPT_DEC,
      '',
    ),
    maxBaseShare: param(
      'Hard maximum base share; above it only the SELL side is quoted (1 = none).',
      SHARE,
      1,
    ),
    minBaseShare: param(
      'Hard minimum base share; below it only the BUY side is quoted (0 = none).',
      SHARE,
      0,
    ),
  },
  model: enumParam(
    'Quoting model: "spread" (fixed distances and a linear skew), "avellaneda-stoikov", or "latency-aware" (distances, tolerance and toxic-quote cancels in units of the price move over the pipeline\'s measured latency).',
    MODEL_NAMES,
    'spread',
  ),
  avellanedaStoikov: {
    gamma: param("A–S risk aversion γ, per unit of quote value (the paper's units).", POS_NUM, 0.1),
    k: param('A–S order-arrival decay k, per unit of price.', POS_NUM, 1.5),
    horizonSec: param('A–S horizon τ = T − t, seconds (a rolling horizon).', POS_NUM, 60),
  },
  latency: latencyParamSpecs,
  fillReaction: {
    widenBps: param(
      'After a side fills, quote it this many bps further out for fillReaction.forMs (0 = off).',
      BPS,
      0,
    ),
    forMs: intParam('How long, ms, a side stays widened after it filled (0 = off).', 0, 86_400_000, 0),
  },
  volatility: {
    windowMs: MS('Mids (or trades) older than this, ms, are not used for σ.', 600_000),
    halfLifeMs: MS('Half-life of the EWMA weight of a return, ms.', 120_000),
    minSamples: intParam(
      'Fewest returns needed for a σ estimate; fewer: A–S pairs are not quoted.',
      2,
      10_000,
      10,
    ),
    fixedSigma: param(
      'A fixed σ of log returns per √second instead of the estimate (0 = estimate).',
      NON_NEG_NUM,
      0,
    ),
  },
  guards: {
    priceFloor: param(
      'No quote below this price; a reference below it stops the pair. "" = none.',
      OPT_DEC,
      '',
    ),
    priceCeiling: param(
      'No quote above this price; a reference above it stops the pair. "" = none.',
      OPT_DEC,
      '',
    ),
    tick: param(
      'Price tick (at most 10 decimal places). "" = the venue\'s tick, else 10 decimal places.',
      OPT_TICK,
      '',
    ),
    quantityStep: param('Quantities are multiples of this, base units.', POS_DEC, '0.00000001'),
  },
};

/** The reconciler's tolerances: the single source of their docs, defaults and bounds. */
export const reconcileParamSpecs = {
  priceToleranceBps: param(
    'Keep a resting order while its price is within this many bps of the desired price.',
    BPS,
    5,
  ),
  sizeTolerancePct: param(
    'Keep a resting order while its remaining size is within this percentage of the desired size.',
    PCT,
    20,
  ),
  maxOrderAgeMs: MS('Replace an order older than this, ms, even when it is within tolerance.', 3_600_000),
};

/** The quoting parameters of one pair, as configured (decimals as strings, `''` = none). */
export type PairStrategyConfig = ConfigOf<typeof pairParamSpecs>;

/**
 * The quoting parameters of one pair, resolved: defaults merged with the pair's override,
 * decimals parsed. Prices and sizes are `Dec`; `null` = none (`tick`: 10 decimal places).
 */
export type PairStrategyParams = ParamsOf<typeof pairParamSpecs>;

/** Recursively optional, for the per-pair overrides. */
export type DeepPartial<T> = { readonly [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** One per-pair override: the pair, and any subset of {@link PairStrategyConfig}. */
export type PairStrategyOverride = DeepPartial<PairStrategyConfig> & { readonly pair: string };

/** The reconciler's tolerances, as configured. */
export type ReconcileConfig = ConfigOf<typeof reconcileParamSpecs>;

/** The reconciler's tolerances (bps, percent, ms). */
export type ReconcileParams = ParamsOf<typeof reconcileParamSpecs>;

/** The `strategy` config section. */
export interface StrategyConfig {
  readonly defaults: PairStrategyConfig;
  readonly pairs: readonly PairStrategyOverride[];
  readonly reconcile: ReconcileConfig;
}

/** The strategy's parameters: one entry per pair to quote. */
export interface StrategyParams {
  readonly pairs: Readonly<Record<string, PairStrategyParams>>;
}

/** Parses a merged pair config (already format-checked) into {@link PairStrategyParams}. */
export function toPairParams(c: PairStrategyConfig): PairStrategyParams {
  return resolveParams(pairParamSpecs, c);
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
  return deepMerge(config.defaults, rest) as unknown as PairStrategyConfig;
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
  if ((c.inventory.targetBase === '') !== (c.inventory.rangeBase === '')) {
    out.push([
      c.inventory.targetBase === '' ? 'inventory.targetBase' : 'inventory.rangeBase',
      '',
      'inventory.targetBase and inventory.rangeBase are set together',
    ]);
  }
  if (c.reference.source === 'static' && c.reference.staticPrice === '') {
    out.push(['reference.staticPrice', '', 'must be set when reference.source is "static"']);
  }
  if (c.reference.source === 'external' && c.external.url === '') {
    out.push(['external.url', '', 'must be set when reference.source is "external"']);
  }
  const floor = OPT_DEC.resolve(c.guards.priceFloor);
  const ceiling = OPT_DEC.resolve(c.guards.priceCeiling);
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

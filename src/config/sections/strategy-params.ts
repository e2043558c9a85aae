/**
 * The strategy's parameter tables, in the `param-spec` style: {@link pairParamSpecs} (one pair's
 * quoting parameters: reference source, spread, levels, inventory and skew, model, volatility,
 * guards) and {@link reconcileParamSpecs} (the reconciler's tolerances). Each row is the single
 * source of a key's doc, default and bounds; the `strategy` config section, the config types and
 * the resolved params of the pure strategy and reconciler (`src/strategy/params.ts`) all derive
 * from them. It also names the reference sources and the quoting models.
 */
import { latencyParamSpecs } from './latency-params.js';
import { exchangesParamSpecs } from './reference-sources.js';
import {
  BPS,
  type ConfigOf,
  JSON_PATH,
  LADDER,
  NON_NEG_DEC,
  NON_NEG_NUM,
  OPT_DEC,
  OPT_TICK,
  OPT_URL,
  PCT,
  POS_DEC,
  POS_NUM,
  type ParamSpec,
  SHARE,
  boolParam,
  enumParam,
  intParam,
  param,
} from '../param-spec.js';

/** Where the reference price of a pair comes from. */
export const REFERENCE_SOURCES = ['mid', 'microprice', 'last', 'static', 'external', 'exchanges'] as const;
export type ReferenceSourceName = (typeof REFERENCE_SOURCES)[number];
/** The unit of `levels.size` and `levels.sizeIncrement`. */
export const SIZE_UNITS = ['base', 'quote'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];
/**
 * The quoting models `strategy.*.model` chooses from. The strategy's registry
 * (`src/strategy/models/registry.ts`) holds one model under each of these names, and the compiler
 * checks it holds no other.
 */
export const QUOTING_MODEL_NAMES = ['spread', 'avellaneda-stoikov', 'latency-aware'] as const;
/** A quoting model's name. */
export type ModelName = (typeof QUOTING_MODEL_NAMES)[number];

const MS = (doc: string, def: number): ParamSpec<number> => intParam(doc, 1, 86_400_000, def);

/**
 * The quoting parameters of one pair: the single source of each parameter's name, doc, default
 * and bounds. The `strategy.defaults` config section and the per-pair overrides
 * (`src/config/sections/strategy.ts`) are built from this table, and so are the types
 * {@link PairStrategyConfig} and the strategy's `PairStrategyParams` (`src/strategy/params.ts`).
 * Units are in the names: `Bps` basis points (1 bp = 0.01 %), `Ms` milliseconds, `Sec` seconds,
 * shares in [0, 1]. Rules between parameters are `strategyConfigIssues` (`strategy-rules.ts`).
 */
export const pairParamSpecs = {
  enabled: boolParam('Quote this pair. False: no quotes, and its orders are cancelled.', true),
  reference: {
    source: enumParam(
      'Reference price: "mid" or "microprice" of the book without our own orders, "last" trade, "static" (reference.staticPrice), "external" (the HTTP feed of strategy.*.external) or "exchanges" (the median of strategy.*.exchanges.sources).',
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
  exchanges: exchangesParamSpecs,
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
    ladder: param(
      'A free-form ladder instead of levels.count, spacingBps, size and sizeIncrement: [] (off), [{"spreadBps": 10, "size": "0.01"}, ...] for both sides, or {"buy": [...], "sell": [...]}. Rungs innermost first; each is a level at spreadBps from the reference (it takes the place of spread.bidBps/askBps for that level: skew, the model\'s own floor and spread.minBps/maxBps apply) with size in levels.sizeUnit. With a ladder, levels.count must be 1 and levels.sizeIncrement 0.',
      LADDER,
      [],
    ),
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
    shedOuterAt: param(
      'Pressure (distance from the target as a share of the range, as inventory.sizeSkew reads it) at or above which the side that adds to the position quotes only its first level; its deeper levels are cancelled through the cancel pool, which costs no placement. 0 = off.',
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
    costFloorBps: param(
      "The side that reduces the position (from the fills) is not quoted through the position's average entry price by more than this, bps: long, asks stay at or above average x (1 - bps/10000); short, bids at or below average x (1 + bps/10000). Not applied while a hard inventory limit (inventory.maxBase, maxBaseShare, minBaseShare, or the risk gate's inventory guard) says the position must shrink. 0 = off.",
      BPS,
      0,
    ),
  },
  model: enumParam(
    'Quoting model: "spread" (fixed distances and a linear skew), "avellaneda-stoikov", or "latency-aware" (distances, tolerance and toxic-quote cancels in units of the price move over the pipeline\'s measured latency).',
    QUOTING_MODEL_NAMES,
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
    sampleMs: intParam(
      'σ from the mids over returns at least this long, ms, one ending at every mid (a realised variance that book-mid noise does not inflate); 0 = returns between consecutive mids.',
      0,
      600_000,
      0,
    ),
    fastHalfLifeMs: intParam(
      'A second, shorter EWMA half-life, ms: σ is the larger of the two estimates, so a volatility burst widens the quotes within this time (0 = off).',
      0,
      86_400_000,
      0,
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
  oversizeMultiple: param(
    "Cancel a resting order at once, without waiting for its replacement (break before make), when its remaining size is more than this many times the desired quote's and outside sizeTolerancePct: a quote the strategy shrank (latency.jumpSizeShare after a price jump) then stops resting at its old size for the pipeline cycles its replacement takes. 0 = never: such an order is replaced as any off-size one, make before break.",
    NON_NEG_NUM,
    0,
  ),
  maxOrderAgeMs: MS('Replace an order older than this, ms, even when it is within tolerance.', 3_600_000),
  ordersPerSlot: intParam(
    "Most orders one quote slot may hold at once: resting, being placed or being cancelled. 2 (make before break): a replacement is placed while the slot's order rests, and the next one waits until the replaced order's cancel has landed (about 35 s on this venue). 3: the next replacement may start while that cancel is still landing, so a slot is repriced about once a placement instead of once a placement and a cancel; it locks a third order's funds and counts toward risk.maxOpenOrders, so it pays with several parties (firm.parties) whose pipelines would otherwise idle.",
    2,
    4,
    2,
  ),
};

/** The quoting parameters of one pair, as configured (decimals as strings, `''` = none). */
export type PairStrategyConfig = ConfigOf<typeof pairParamSpecs>;

/** Recursively optional, for the per-pair overrides. */
export type DeepPartial<T> = { readonly [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** One per-pair override: the pair, and any subset of {@link PairStrategyConfig}. */
export type PairStrategyOverride = DeepPartial<PairStrategyConfig> & { readonly pair: string };

/** The reconciler's tolerances, as configured. */
export type ReconcileConfig = ConfigOf<typeof reconcileParamSpecs>;

/** The `strategy` config section. */
export interface StrategyConfig {
  readonly defaults: PairStrategyConfig;
  readonly pairs: readonly PairStrategyOverride[];
  readonly reconcile: ReconcileConfig;
}

import { z } from 'zod';

import {
  BPS,
  JSON_PATH,
  NON_NEG_DEC,
  NON_NEG_NUM,
  OPT_DEC,
  OPT_TICK,
  OPT_URL,
  PCT,
  POS_DEC,
  POS_NUM,
  SHARE,
  boolLeaf,
  describePairListIssues,
  enumLeaf,
  intLeaf,
  leaf,
  partialOf,
  zodFormat,
} from '../../strategy/config-formats.js';
import type { Leaf, SchemaOf } from '../define.js';
import { PAIR_NAME } from '../formats.js';

/**
 * The `strategy` section: quoting parameters with defaults for every pair
 * (`strategy.defaults`), per-pair overrides (`strategy.pairs`) and the reconciler's tolerances
 * (`strategy.reconcile`).
 *
 * Every leaf's format is a zod schema (`src/strategy/config-formats.ts`) registered as a named
 * convict format, so a bad value is reported with its key and the zod reason. The same zod
 * schemas validate the per-pair overrides, which are a list (`[{"pair": "BTC/USDC", "spread": {"bidBps": 8}}]`) rather than a map keyed by
 * pair: the loader accepts only sections and non-object leaves, and a pair name is not a key.
 * Rules between keys (min ≤ max, a static source needs a price…) are checked by
 * `resolveStrategyParams` in `src/strategy/params.ts`, which the daemon calls after loading.
 */

/** Where the reference price of a pair comes from. */
export const REFERENCE_SOURCES = ['mid', 'microprice', 'last', 'static', 'external'] as const;
export type ReferenceSourceName = (typeof REFERENCE_SOURCES)[number];
/** The unit of `levels.size` and `levels.sizeIncrement`. */
export const SIZE_UNITS = ['base', 'quote'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

/** The quoting parameters of one pair, as configured (decimals as strings, `''` = none). */
export interface PairStrategyConfig {
  readonly enabled: boolean;
  readonly reference: {
    readonly source: ReferenceSourceName;
    readonly bookMaxAgeMs: number;
    readonly lastMaxAgeMs: number;
    readonly staticPrice: string;
  };
  readonly external: {
    readonly url: string;
    readonly jsonPath: string;
    readonly intervalMs: number;
    readonly timeoutMs: number;
    readonly maxAgeMs: number;
  };
  readonly spread: {
    readonly bidBps: number;
    readonly askBps: number;
    readonly minBps: number;
    readonly maxBps: number;
  };
  readonly levels: {
    readonly count: number;
    readonly spacingBps: number;
    readonly sizeUnit: SizeUnit;
    readonly size: string;
    readonly sizeIncrement: string;
  };
  readonly inventory: {
    readonly targetBaseShare: number;
    readonly rangeShare: number;
    readonly maxSkewBps: number;
    readonly maxBase: string;
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
    readonly fixedSigma: number;
  };
  readonly guards: {
    readonly priceFloor: string;
    readonly priceCeiling: string;
    readonly tick: string;
    readonly quantityStep: string;
  };
}

/** Recursively optional, for the per-pair overrides. */
export type DeepPartial<T> = { readonly [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** One per-pair override: the pair, and any subset of {@link PairStrategyConfig}. */
export type PairStrategyOverride = DeepPartial<PairStrategyConfig> & { readonly pair: string };

/** The reconciler's tolerances. */
export interface ReconcileConfig {
  readonly priceToleranceBps: number;
  readonly sizeTolerancePct: number;
  readonly maxOrderAgeMs: number;
}

export interface StrategyConfig {
  readonly defaults: PairStrategyConfig;
  readonly pairs: readonly PairStrategyOverride[];
  readonly reconcile: ReconcileConfig;
}

const MS = (doc: string, def: number): Leaf<number> => intLeaf(doc, 1, 86_400_000, def);

/** The schema of one pair's parameters (the defaults section; overrides use the same rules). */
export const pairStrategySchema: SchemaOf<PairStrategyConfig> = {
  enabled: boolLeaf('Quote this pair. False: no quotes, and its orders are cancelled.', true),
  reference: {
    source: enumLeaf(
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
    staticPrice: leaf('The price of the "static" source, quote per base. "" = none.', OPT_DEC, ''),
  },
  external: {
    url: leaf(
      'The HTTP JSON feed of the "external" source (GET). https, or http to loopback. "" = none.',
      OPT_URL,
      '',
    ),
    jsonPath: leaf(
      'Where the price is in the feed\'s JSON: a dotted path, e.g. "data.price" or "$.result[0].last". The value may be a decimal string or a number.',
      JSON_PATH,
      'price',
    ),
    intervalMs: intLeaf('How often the feed is polled, ms (runs never overlap).', 100, 3_600_000, 2_000),
    timeoutMs: intLeaf('Client timeout of one feed request, ms.', 100, 120_000, 5_000),
    maxAgeMs: MS('Oldest feed price, ms since it was fetched, the strategy may use.', 15_000),
  },
  spread: {
    bidBps: leaf('Distance of the best bid below the reference, basis points (before skew).', BPS, 10),
    askBps: leaf('Distance of the best ask above the reference, basis points (before skew).', BPS, 10),
    minBps: leaf('Smallest distance of a best quote from the reference, bps; must be > 0.', BPS, 2),
    maxBps: leaf(
      'Largest distance of a best quote from the reference, bps; at least spread.minBps.',
      BPS,
      500,
    ),
  },
  levels: {
    count: intLeaf('Quote levels per side (level 0 is the best).', 1, 20, 1),
    spacingBps: leaf('Distance between consecutive levels of a side, bps of the level-0 price.', BPS, 10),
    sizeUnit: enumLeaf(
      'Unit of levels.size and levels.sizeIncrement: "base" units or "quote" notional.',
      SIZE_UNITS,
      'base',
    ),
    size: leaf('Size of level 0, in levels.sizeUnit.', POS_DEC, '0.01'),
    sizeIncrement: leaf('Added to the size per level further out, in levels.sizeUnit.', NON_NEG_DEC, '0'),
  },
  inventory: {
    targetBaseShare: leaf(
      "Target share of the pair's value held in base, 0 to 1, valued at the reference.",
      SHARE,
      0.5,
    ),
    rangeShare: leaf(
      'Share deviation from the target at which the skew reaches inventory.maxSkewBps.',
      SHARE,
      0.25,
    ),
    maxSkewBps: leaf('Largest shift of both quotes, bps: down when long base, up when short.', BPS, 10),
    maxBase: leaf(
      'Hard maximum of base held, base units; above it only the SELL side is quoted. "" = none.',
      OPT_DEC,
      '',
    ),
    maxBaseShare: leaf(
      'Hard maximum base share; above it only the SELL side is quoted (1 = none).',
      SHARE,
      1,
    ),
    minBaseShare: leaf('Hard minimum base share; below it only the BUY side is quoted (0 = none).', SHARE, 0),
  },
  avellanedaStoikov: {
    enabled: boolLeaf(
      'Use Avellaneda–Stoikov for the centre and spread (replaces spread.bidBps/askBps and the linear skew).',
      false,
    ),
    gamma: leaf("A–S risk aversion γ, per unit of quote value (the paper's units).", POS_NUM, 0.1),
    k: leaf('A–S order-arrival decay k, per unit of price.', POS_NUM, 1.5),
    horizonSec: leaf('A–S horizon τ = T − t, seconds (a rolling horizon).', POS_NUM, 60),
  },
  volatility: {
    windowMs: MS('Mids (or trades) older than this, ms, are not used for σ.', 600_000),
    halfLifeMs: MS('Half-life of the EWMA weight of a return, ms.', 120_000),
    minSamples: intLeaf(
      'Fewest returns needed for a σ estimate; fewer: A–S pairs are not quoted.',
      2,
      10_000,
      10,
    ),
    fixedSigma: leaf(
      'A fixed σ of log returns per √second instead of the estimate (0 = estimate).',
      NON_NEG_NUM,
      0,
    ),
  },
  guards: {
    priceFloor: leaf(
      'No quote below this price; a reference below it stops the pair. "" = none.',
      OPT_DEC,
      '',
    ),
    priceCeiling: leaf(
      'No quote above this price; a reference above it stops the pair. "" = none.',
      OPT_DEC,
      '',
    ),
    tick: leaf(
      'Price tick (at most 10 decimal places). "" = the venue\'s tick, else 10 decimal places.',
      OPT_TICK,
      '',
    ),
    quantityStep: leaf('Quantities are multiples of this, base units.', POS_DEC, '0.00000001'),
  },
};

const OVERRIDE = z
  .strictObject({
    pair: z
      .string({ error: 'must be a pair name' })
      .regex(PAIR_NAME, { error: 'must be a pair name like "BTC/USDC"' }),
  })
  .extend((partialOf(pairStrategySchema) as z.ZodObject<Record<string, z.ZodType>>).shape);

const OVERRIDES = zodFormat(
  'mm-strategy-overrides',
  z
    .array(OVERRIDE, { error: 'must be a list of {"pair": "BASE/QUOTE", ...overrides}' })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((o, i) => {
        const pair = (o as { pair: string }).pair;
        if (seen.has(pair))
          ctx.addIssue({ code: 'custom', path: [i, 'pair'], message: `${pair} is listed twice` });
        seen.add(pair);
      });
    }),
  describePairListIssues,
);

export const strategySchema: SchemaOf<StrategyConfig> = {
  defaults: pairStrategySchema,
  pairs: leaf(
    'Per-pair overrides of strategy.defaults: a list of objects, each with "pair" and any subset of the defaults\' keys, e.g. [{"pair": "BTC/USDC", "spread": {"bidBps": 8}}].',
    OVERRIDES,
    [] as readonly PairStrategyOverride[],
  ),
  reconcile: {
    priceToleranceBps: leaf(
      'Keep a resting order while its price is within this many bps of the desired price.',
      BPS,
      5,
    ),
    sizeTolerancePct: leaf(
      'Keep a resting order while its remaining size is within this percentage of the desired size.',
      PCT,
      20,
    ),
    maxOrderAgeMs: MS('Replace an order older than this, ms, even when it is within tolerance.', 3_600_000),
  },
};

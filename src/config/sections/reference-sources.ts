/**
 * The `exchanges` section of a pair's strategy parameters: the liquid exchanges the
 * `reference.source: "exchanges"` reference is the median of (`docs/reference-prices.md`).
 *
 * Every source is an exchange id as ccxt names it (`binance`, `coinbase`, `kraken`…) and a ccxt
 * unified symbol (`BTC/USDT`, or `BTC/USDT:USDT` for a perpetual). A source quoted in another
 * currency than the pair carries a conversion leg: a second book on an exchange that links the
 * two quote currencies (`USDC/USDT` or `USDT/USDC`; the direction is read from the symbols).
 * No key here is a credential: prices are public.
 */
import { z } from 'zod';

import { type ParamSpec, type ValueFormat, boolParam, intParam, param } from '../param-spec.js';

/** `BASE/QUOTE`, optionally `:SETTLE` for a derivative, as ccxt spells unified symbols. */
const SYMBOL = /^[A-Z0-9]{1,20}\/[A-Z0-9]{1,20}(?::[A-Z0-9]{1,20})?$/;
/** A ccxt exchange id (lower case). */
const EXCHANGE_ID = /^[a-z][a-z0-9_]{1,40}$/;

const leg = z.strictObject({
  exchange: z.string().regex(EXCHANGE_ID, { error: 'must be a ccxt exchange id like "binance"' }),
  symbol: z.string().regex(SYMBOL, { error: 'must be a ccxt unified symbol like "BTC/USDT"' }),
});

/** One configured source. */
export interface ReferenceSourceConfig {
  readonly exchange: string;
  readonly symbol: string;
  /** Weight in the weighted median; default 1. */
  readonly weight?: number;
  /** The book that converts the source's quote currency into the pair's. */
  readonly convert?: { readonly exchange: string; readonly symbol: string };
}

const SOURCE = leg.extend({
  weight: z
    .number({ error: 'must be a positive number' })
    .refine((n) => Number.isFinite(n) && n > 0 && n <= 1000, { error: 'must be a number in (0, 1000]' })
    .optional(),
  convert: leg.optional(),
});

/** A list of sources; no source twice. */
export const REFERENCE_SOURCE_LIST: ValueFormat<readonly ReferenceSourceConfig[]> = {
  name: 'mm-reference-sources',
  schema: z
    .array(SOURCE, { error: 'must be a list of {"exchange", "symbol", "weight"?, "convert"?}' })
    .max(20, { error: 'at most 20 sources' })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((s, i) => {
        const id = sourceId(s);
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `${id} is listed twice` });
        seen.add(id);
      });
    }),
  resolve: (v) => v,
};

/** The name of a source in logs and metric labels: `binance:BTC/USDT`. */
export function sourceId(s: { readonly exchange: string; readonly symbol: string }): string {
  return `${s.exchange}:${s.symbol}`;
}

const MS = (doc: string, min: number, def: number): ParamSpec<number> => intParam(doc, min, 86_400_000, def);

/** The parameters of the "exchanges" reference of one pair. */
export const exchangesParamSpecs = {
  sources: param(
    'The exchanges whose median is the "exchanges" reference: a list of {"exchange": ccxt id, "symbol": ccxt symbol, "weight"?: number (default 1), "convert"?: {"exchange", "symbol"} (a book linking the source\'s quote currency to the pair\'s)}. [] = none.',
    REFERENCE_SOURCE_LIST,
    [] as readonly ReferenceSourceConfig[],
  ),
  minSources: intParam(
    'Fewest fresh, non-outlier sources the reference needs; fewer: no reference, the pair is not quoted.',
    1,
    20,
    2,
  ),
  maxAgeMs: MS(
    'A source (and its conversion leg) is fresh while its last price is younger than this, ms.',
    100,
    10_000,
  ),
  maxDeviationBps: param(
    'A source further than this from the median of the others, bps, is left out as an outlier.',
    {
      name: 'mm-reference-deviation-bps',
      schema: z
        .number({ error: 'must be a number of basis points from 0.1 to 10000' })
        .refine((n) => Number.isFinite(n) && n >= 0.1 && n <= 10_000, {
          error: 'must be a number of basis points from 0.1 to 10000',
        }),
      resolve: (n: number) => n,
    },
    50,
  ),
  pollIntervalMs: MS(
    'How often a source without WebSocket (or whose WebSocket failed) is polled by REST, ms.',
    200,
    2_000,
  ),
  timeoutMs: MS('Timeout of one REST request or WebSocket wait for a price, ms.', 100, 10_000),
  websocket: boolParam(
    'Take prices by WebSocket where ccxt has it for the exchange (REST polling otherwise).',
    true,
  ),
};

/**
 * The `risk` config section as a table of parameter specs (`src/config/param-spec.ts`): each
 * limit's doc, default, bounds and the risk gate's form of its value, written once. The convict
 * section, the {@link RiskConfig} type and the gate's `RiskParams` (`src/risk/risk-types.ts`) come
 * from the table. A new limit is one row here and its use in the gate.
 */
import { z } from 'zod';
import { DECIMAL_STRING, dec, type Dec } from '../../core/decimal.js';
import { PAIR_NAME } from '../formats.js';
import { sectionOf } from '../param-leaves.js';
import { OPT_DEC, enumParam, intParam, param, type ConfigOf, type ValueFormat } from '../param-spec.js';

/** A per-pair override of the notional and inventory limits. Amounts are decimal strings. */
export interface PairLimitConfig {
  readonly pair: string;
  /** Largest absolute net position, in base units. */
  readonly maxInventory?: string;
  /** Largest price × quantity of one placement, in quote units. */
  readonly maxOrderNotional?: string;
}

/** Per-pair overrides of the limits, as the risk gate reads them. */
export interface PairLimits {
  /** Largest absolute net position, base units. */
  readonly maxInventory?: Dec;
  /** Largest price × quantity of one placement, quote units. */
  readonly maxOrderNotional?: Dec;
}

function isPositiveDecimal(value: unknown): value is string {
  return (
    typeof value === 'string' && DECIMAL_STRING.test(value) && !value.startsWith('-') && /[1-9]/.test(value)
  );
}

const POSITIVE_DECIMAL_REASON = 'must be a positive decimal string such as "1000" or "0.5"';

/** A strictly positive plain decimal string (`"1000"`, `"0.5"`); money never travels as a number. */
const MONEY: ValueFormat<string, Dec> = {
  name: 'mm-positive-decimal',
  schema: z
    .string({ error: POSITIVE_DECIMAL_REASON })
    .refine(isPositiveDecimal, { error: POSITIVE_DECIMAL_REASON }),
  resolve: dec,
};

/** The name of the positive decimal format (for `checkFormat`). */
export const POSITIVE_DECIMAL = MONEY.name;

const PAIR_LIMIT_KEYS = new Set(['pair', 'maxInventory', 'maxOrderNotional']);

/** Throws the reason a list of pair limits is refused. */
function checkPairLimits(value: unknown): void {
  const shape = 'must be a list of {"pair": "BTC/USDC", "maxInventory"?: "2", "maxOrderNotional"?: "500"}';
  if (!Array.isArray(value)) throw new Error(shape);
  const seen = new Set<string>();
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new Error(shape);
    const entry = item as Record<string, unknown>;
    const pair = entry['pair'];
    if (typeof pair !== 'string' || !PAIR_NAME.test(pair))
      throw new Error(`${shape}; a pair name is missing`);
    if (seen.has(pair)) throw new Error(`lists ${JSON.stringify(pair)} twice`);
    seen.add(pair);
    for (const [k, v] of Object.entries(entry)) {
      if (!PAIR_LIMIT_KEYS.has(k)) throw new Error(`${pair}: unknown key ${JSON.stringify(k)}`);
      if (k !== 'pair' && !isPositiveDecimal(v))
        throw new Error(`${pair}: ${k} must be a positive decimal string`);
    }
  }
}

/** A list of `{pair, maxInventory?, maxOrderNotional?}`, each pair at most once; a lookup by pair. */
const PAIR_LIMIT_LIST: ValueFormat<readonly PairLimitConfig[], Readonly<Record<string, PairLimits>>> = {
  name: 'mm-risk-pair-limits',
  schema: z.custom<readonly PairLimitConfig[]>().superRefine((value, ctx) => {
    try {
      checkPairLimits(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  }),
  resolve: (list) => {
    const out: Record<string, PairLimits> = {};
    for (const l of list) {
      out[l.pair] = {
        ...(l.maxInventory === undefined ? {} : { maxInventory: dec(l.maxInventory) }),
        ...(l.maxOrderNotional === undefined ? {} : { maxOrderNotional: dec(l.maxOrderNotional) }),
      };
    }
    return out;
  },
};

/** The name of the pair limits format (for `checkFormat`). */
export const PAIR_LIMITS = PAIR_LIMIT_LIST.name;

const DAY_MS = 86_400_000;

/** The table of the `risk` section. */
export const riskParamSpecs = {
  maxOrderNotional: param(
    'Largest price x quantity of one placement, in the quote instrument (decimal string). Larger placements are denied.',
    MONEY,
    '1000',
  ),
  maxInventoryNotional: param(
    'Largest absolute net position of a pair valued at the mid, in the quote instrument (decimal string). At or beyond it the pair only places orders that reduce the position.',
    MONEY,
    '10000',
  ),
  pairLimits: param(
    'Per-pair overrides: [{"pair": "BTC/USDC", "maxInventory": "2" (base units), "maxOrderNotional": "500" (quote units)}]. maxInventory applies in addition to maxInventoryNotional.',
    PAIR_LIMIT_LIST,
    [],
  ),
  maxOpenOrders: intParam(
    "Most orders of the daemon resting or in flight at once, across pairs; the account's limits.maxOpenOrders applies too when lower.",
    1,
    10_000,
    20,
  ),
  ordersPerMinute: intParam(
    "Most placements in any 60 s window, client-side (token bucket); the account's limits.ordersPerMinute applies too when lower. Cancels are never limited.",
    1,
    10_000,
    30,
  ),
  rateBurst: intParam(
    'Placements the token bucket allows back to back; it refills at (ordersPerMinute - burst) per minute so no 60 s window exceeds ordersPerMinute. Capped at half the effective per-minute limit.',
    1,
    10_000,
    5,
  ),
  staleBookMs: intParam(
    "When a pair's last good book poll is older than this, in ms, the pair places nothing and its quotes are cancelled. Keep it well above market.book.intervalMs.",
    1_000,
    3_600_000,
    5_000,
  ),
  priceJump: {
    maxMovePct: param(
      'A reference-price move larger than this percentage within priceJump.windowMs pauses the pair and cancels its quotes (decimal string, e.g. "2" for 2 %).',
      MONEY,
      '2',
    ),
    windowMs: intParam('The window of the price-jump guard, in ms.', 1_000, DAY_MS, 30_000),
    cooldownMs: intParam(
      'How long a pair stays paused after a price jump, in ms; a further jump during the pause extends it.',
      0,
      DAY_MS,
      60_000,
    ),
  },
  dailyLoss: {
    perPair: param(
      "Largest loss of one pair since the UTC day began, marked to mid, in the pair's quote instrument (decimal string). Beyond it the pair halts and its quotes are cancelled until the next UTC day.",
      MONEY,
      '500',
    ),
    total: param(
      'Largest loss since the UTC day began summed over the pairs that share a quote instrument (decimal string). Beyond it all those pairs halt until the next UTC day.',
      MONEY,
      '1000',
    ),
  },
  killSwitch: {
    drawdown: param(
      'Kill switch: pause when the day\'s marked-to-mid PnL falls this far below its peak of the UTC day, in the quote instrument (decimal string). "" (default): off. Quotes in the paused scope are cancelled and nothing is placed there until `ledger-mm resume`.',
      OPT_DEC,
      '',
    ),
    profitLock: param(
      'Kill switch: pause when the day\'s marked-to-mid PnL reaches this profit, locking it in, in the quote instrument (decimal string). "" (default): off. After a resume it trips again at this much more.',
      OPT_DEC,
      '',
    ),
    scope: enumParam(
      'What the kill switch pauses: "daemon" (every pair, judged on the day\'s PnL summed over the pairs of one quote instrument) or "pair" (the pair whose own PnL tripped it).',
      ['daemon', 'pair'],
      'daemon',
    ),
  },
  breaker: {
    failures: intParam(
      'Consecutive placement-pipeline failures that trip the error-rate breaker: placements pause and quotes are cancelled.',
      1,
      1_000,
      5,
    ),
    baseBackoffMs: intParam(
      'The first pause of the breaker, in ms; each further trip without a success in between doubles it.',
      1_000,
      DAY_MS,
      10_000,
    ),
    maxBackoffMs: intParam(
      'Cap on one pause of the breaker, in ms (raised to breaker.baseBackoffMs when lower).',
      1_000,
      DAY_MS,
      600_000,
    ),
  },
};

/** The configured `risk` section. Money is a decimal string here and a `Dec` in `RiskParams`. */
export type RiskConfig = ConfigOf<typeof riskParamSpecs>;

/** The convict section of the table. */
export const riskSchema = sectionOf(riskParamSpecs);

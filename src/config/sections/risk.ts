import convict from 'convict';
import { DECIMAL_STRING } from '../../core/decimal.js';
import type { SchemaOf } from '../define.js';
import { FORMATS, PAIR_NAME, intFormat, type FormatDef } from '../formats.js';

/** A per-pair override of the notional and inventory limits. Amounts are decimal strings. */
export interface PairLimitConfig {
  readonly pair: string;
  /** Largest absolute net position, in base units. */
  readonly maxInventory?: string;
  /** Largest price × quantity of one placement, in quote units. */
  readonly maxOrderNotional?: string;
}

/** The risk gate's limits. Money is a decimal string here and a `Dec` in `RiskParams`. */
export interface RiskConfig {
  readonly maxOrderNotional: string;
  readonly maxInventoryNotional: string;
  readonly pairLimits: readonly PairLimitConfig[];
  readonly maxOpenOrders: number;
  readonly ordersPerMinute: number;
  readonly rateBurst: number;
  readonly staleBookMs: number;
  readonly priceJump: {
    readonly maxMovePct: string;
    readonly windowMs: number;
    readonly cooldownMs: number;
  };
  readonly dailyLoss: {
    readonly perPair: string;
    readonly total: string;
  };
  readonly breaker: {
    readonly failures: number;
    readonly baseBackoffMs: number;
    readonly maxBackoffMs: number;
  };
}

function defineFormat(def: FormatDef): string {
  FORMATS.set(def.name, def);
  // Registering the same name again replaces it with an identical definition: idempotent.
  convict.addFormat({ name: def.name, validate: def.validate, coerce: def.coerce });
  return def.name;
}

function isPositiveDecimal(value: unknown): value is string {
  return (
    typeof value === 'string' && DECIMAL_STRING.test(value) && !value.startsWith('-') && /[1-9]/.test(value)
  );
}

/** A strictly positive plain decimal string (`"1000"`, `"0.5"`); money never travels as a number. */
export const POSITIVE_DECIMAL = defineFormat({
  name: 'mm-positive-decimal',
  validate(value) {
    if (!isPositiveDecimal(value))
      throw new Error('must be a positive decimal string such as "1000" or "0.5"');
  },
});

const PAIR_LIMIT_KEYS = new Set(['pair', 'maxInventory', 'maxOrderNotional']);

/** A list of `{pair, maxInventory?, maxOrderNotional?}`, each pair at most once. */
export const PAIR_LIMITS = defineFormat({
  name: 'mm-risk-pair-limits',
  validate(value) {
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
  },
});

const DAY_MS = 86_400_000;

export const riskSchema: SchemaOf<RiskConfig> = {
  maxOrderNotional: {
    doc: 'Largest price x quantity of one placement, in the quote instrument (decimal string). Larger placements are denied.',
    format: POSITIVE_DECIMAL,
    default: '1000',
  },
  maxInventoryNotional: {
    doc: 'Largest absolute net position of a pair valued at the mid, in the quote instrument (decimal string). At or beyond it the pair only places orders that reduce the position.',
    format: POSITIVE_DECIMAL,
    default: '10000',
  },
  pairLimits: {
    doc: 'Per-pair overrides: [{"pair": "BTC/USDC", "maxInventory": "2" (base units), "maxOrderNotional": "500" (quote units)}]. maxInventory applies in addition to maxInventoryNotional.',
    format: PAIR_LIMITS,
    default: [],
  },
  maxOpenOrders: {
    doc: "Most orders of the daemon resting or in flight at once, across pairs; the account's limits.maxOpenOrders applies too when lower.",
    format: intFormat(1, 10_000),
    default: 20,
  },
  ordersPerMinute: {
    doc: "Most placements in any 60 s window, client-side (token bucket); the account's limits.ordersPerMinute applies too when lower. Cancels are never limited.",
    format: intFormat(1, 10_000),
    default: 30,
  },
  rateBurst: {
    doc: 'Placements the token bucket allows back to back; it refills at (ordersPerMinute - burst) per minute so no 60 s window exceeds ordersPerMinute. Capped at half the effective per-minute limit.',
    format: intFormat(1, 10_000),
    default: 5,
  },
  staleBookMs: {
    doc: "When a pair's last good book poll is older than this, in ms, the pair places nothing and its quotes are cancelled. Keep it well above market.book.intervalMs.",
    format: intFormat(1_000, 3_600_000),
    default: 5_000,
  },
  priceJump: {
    maxMovePct: {
      doc: 'A reference-price move larger than this percentage within priceJump.windowMs pauses the pair and cancels its quotes (decimal string, e.g. "2" for 2 %).',
      format: POSITIVE_DECIMAL,
      default: '2',
    },
    windowMs: {
      doc: 'The window of the price-jump guard, in ms.',
      format: intFormat(1_000, DAY_MS),
      default: 30_000,
    },
    cooldownMs: {
      doc: 'How long a pair stays paused after a price jump, in ms; a further jump during the pause extends it.',
      format: intFormat(0, DAY_MS),
      default: 60_000,
    },
  },
  dailyLoss: {
    perPair: {
      doc: "Largest loss of one pair since the UTC day began, marked to mid, in the pair's quote instrument (decimal string). Beyond it the pair halts and its quotes are cancelled until the next UTC day.",
      format: POSITIVE_DECIMAL,
      default: '500',
    },
    total: {
      doc: 'Largest loss since the UTC day began summed over the pairs that share a quote instrument (decimal string). Beyond it all those pairs halt until the next UTC day.',
      format: POSITIVE_DECIMAL,
      default: '1000',
    },
  },
  breaker: {
    failures: {
      doc: 'Consecutive placement-pipeline failures that trip the error-rate breaker: placements pause and quotes are cancelled.',
      format: intFormat(1, 1_000),
      default: 5,
    },
    baseBackoffMs: {
      doc: 'The first pause of the breaker, in ms; each further trip without a success in between doubles it.',
      format: intFormat(1_000, DAY_MS),
      default: 10_000,
    },
    maxBackoffMs: {
      doc: 'Cap on one pause of the breaker, in ms (raised to breaker.baseBackoffMs when lower).',
      format: intFormat(1_000, DAY_MS),
      default: 600_000,
    },
  },
};

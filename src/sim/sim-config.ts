/**
 * The simulated venue's configuration (`config/sim.json`), validated with zod: seed, latency
 * profile, faults, listed pairs, the accounts onboarded at start with their balances and limits,
 * the book projection's lag, the contract's lifetimes and the market model. {@link loadSimConfig}
 * reads and checks a file; `SimVenue` applies the defaults to what it is given.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DECIMAL_STRING } from '../core/decimal.js';
import { FaultSpecSchema } from './faults.js';
import { LatencyConfigSchema } from './latency.js';
import { MarketConfigSchema } from './market/market-config.js';

const DecimalString = z.string().regex(DECIMAL_STRING, 'a plain decimal string');
const NonNegativeDecimal = DecimalString.refine((s) => !s.startsWith('-'), 'must not be negative');
const PositiveDecimal = NonNegativeDecimal.refine((s) => /[1-9]/.test(s), 'must be > 0');

/** A listed pair. */
export const SimPairSchema = z.strictObject({
  /** `<base>/<quote>`. */
  pair: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'a pair is BASE/QUOTE'),
  base: z.string().min(1),
  quote: z.string().min(1),
  /** Minimum notional in quote; null = none. */
  minQuoteAmount: PositiveDecimal.nullable().default(null),
  feeSymbol: z.string().nullable().default(null),
  /** Optional price tick; prices off it are refused. */
  tick: PositiveDecimal.optional(),
});
export type SimPairConfig = z.output<typeof SimPairSchema>;

/** A registered market-maker account (onboarding is outside the API, so it is config here). */
export const SimAccountSchema = z.strictObject({
  name: z.string().min(1),
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a lowercase slug'),
  /** Generated (`<slug>-mm::1220<hex>`) when absent. */
  partyId: z.string().min(1).optional(),
  /** A fixed key `mm_ak_<prefix>.<secret>`; generated (seeded) when absent. */
  apiKey: z
    .string()
    .regex(/^mm_ak_[A-Za-z0-9]+\.[A-Za-z0-9_-]+$/)
    .optional(),
  /** Ed25519 public key, base64 raw or SPKI. Submissions fail until one is registered. */
  publicKey: z.string().min(1).optional(),
  status: z.enum(['ACTIVE', 'SUSPENDED', 'DISABLED']).default('ACTIVE'),
  feeExempt: z.boolean().default(true),
  allowedPairs: z.union([z.array(z.string()), z.literal('all')]).default('all'),
  /** Null: uncapped. */
  maxOpenOrders: z.number().int().min(0).nullable().default(50),
  /** Null: uncapped. */
  ordersPerMinute: z.number().int().min(0).nullable().default(30),
  /** Starting available balances per token. */
  balances: z.record(z.string(), NonNegativeDecimal).default({}),
  /** Tokens with a transfer preapproval. Default: every token of the account's pairs. */
  preapprovals: z.array(z.string()).optional(),
});
export type SimAccountConfig = z.output<typeof SimAccountSchema>;

/** Contract lifetimes, overridable for tests. */
export const SimTimingSchema = z.strictObject({
  preparedTtlMs: z.number().int().min(1).default(300_000),
  submitTokenTtlMs: z.number().int().min(1).default(1_200_000),
  balanceCacheTtlMs: z.number().int().min(0).default(600_000),
});

/** The whole simulated venue. */
export const SimConfigSchema = z.strictObject({
  /** Same seed, same config, same calls ⇒ same run. */
  seed: z.union([z.number().int(), z.string().min(1)]).default(1),
  latency: LatencyConfigSchema.prefault({}),
  faults: z.array(FaultSpecSchema).default([]),
  pairs: z.array(SimPairSchema).min(1),
  accounts: z.array(SimAccountSchema).default([]),
  /** Refresh period of the order-book projection GET /orderbook serves. */
  bookProjectionLagMs: z.number().int().min(0).default(500),
  timing: SimTimingSchema.prefault({}),
  market: MarketConfigSchema.prefault({}),
});
/** A sim config after defaults. */
export type SimConfig = z.output<typeof SimConfigSchema>;
/** A sim config as written. */
export type SimConfigInput = z.input<typeof SimConfigSchema>;

/** `config/sim.json` of the package. */
export const DEFAULT_SIM_CONFIG_PATH = fileURLToPath(new URL('../../config/sim.json', import.meta.url));

/** Reads and validates a sim config file. Throws a readable error naming the file. */
export function loadSimConfig(path: string = DEFAULT_SIM_CONFIG_PATH): SimConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read sim config ${path}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  const parsed = SimConfigSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`invalid sim config ${path}:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

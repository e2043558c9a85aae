/**
 * The `hedge` section: the inventory that fills leave on this venue laid off on a liquid exchange
 * through ccxt (`docs/hedging.md`). Off by default: with no pair `enabled`, nothing is hedged and
 * nothing here is read.
 *
 * Each pair's settings are one table of parameter specs (`src/config/param-spec.ts`):
 * `hedge.defaults` for every pair and `hedge.pairs` as per-pair overrides
 * (`[{"pair": "BTC/USDC", "enabled": true, "symbol": "BTC/USDT"}]`), the shape of `strategy`.
 * Rules between keys (an enabled pair needs an exchange and a symbol, min ≤ max ≤ cap) are
 * {@link hedgeConfigIssues}. The API key and secret are read from files (`apiKeyFile`,
 * `apiSecretFile`) or the environment only: `hedge.apiKey` and `hedge.apiSecret` are secrets, and
 * a config file that sets them is refused with the reason.
 */
import { z } from 'zod';

import { Dec } from '../../core/decimal.js';
import type { SchemaOf } from '../define.js';
import { renderValue, type ConfigIssue } from '../errors.js';
import { OPTIONAL_PATH, PAIR_NAME, SECRET_STRING } from '../formats.js';
import { sectionOf, zodFormat } from '../param-leaves.js';
import {
  BPS,
  type ConfigOf,
  NON_NEG_DEC,
  POS_DEC,
  type ValueFormat,
  boolParam,
  enumParam,
  intParam,
  param,
  partialSchemaOf,
} from '../param-spec.js';

/** A ccxt exchange id (`binance`), or `sim` for the lab's simulated hedge venue; `""` for none. */
const EXCHANGE: ValueFormat<string> = {
  name: 'mm-hedge-exchange',
  schema: z
    .string({ error: 'must be "" or a ccxt exchange id like "binance"' })
    .regex(/^$|^[a-z][a-z0-9_]{1,40}$/, { error: 'must be "" or a ccxt exchange id like "binance"' }),
  resolve: (v) => v,
};
/** A ccxt unified symbol (`BTC/USDT`, `BTC/USDT:USDT` for a perpetual); `""` for none. */
const SYMBOL: ValueFormat<string> = {
  name: 'mm-hedge-symbol',
  schema: z
    .string({ error: 'must be "" or a ccxt unified symbol like "BTC/USDT"' })
    .regex(/^$|^[A-Z0-9]{1,20}\/[A-Z0-9]{1,20}(?::[A-Z0-9]{1,20})?$/, {
      error: 'must be "" or a ccxt unified symbol like "BTC/USDT" or "BTC/USDT:USDT"',
    }),
  resolve: (v) => v,
};

/** The hedge settings of one pair. */
export const hedgeParamSpecs = {
  enabled: boolParam('Hedge this pair: lay off its inventory on the hedge exchange.', false),
  exchange: param(
    'The hedge exchange as ccxt names it ("binance", "bybit"…); "sim" is the simulated one of simulate and paper.',
    EXCHANGE,
    '',
  ),
  symbol: param(
    'The hedge market as a ccxt unified symbol: "BTC/USDT" (spot) or "BTC/USDT:USDT" (a perpetual).',
    SYMBOL,
    '',
  ),
  market: enumParam(
    'The hedge market\'s kind: "spot" or "perp" (a perpetual swap).',
    ['spot', 'perp'],
    'spot',
  ),
  mode: enumParam(
    'When to hedge: "every-fill" (the whole unhedged position as soon as it reaches minOrderBase) or "threshold" (once it reaches thresholdBase, back down to keepBase).',
    ['every-fill', 'threshold'],
    'every-fill',
  ),
  thresholdBase: param(
    'Mode "threshold": the unhedged position, base units, at or beyond which a hedge is sent.',
    NON_NEG_DEC,
    '0',
  ),
  keepBase: param(
    'Mode "threshold": the unhedged position, base units, a hedge leaves on its side (≤ thresholdBase); 0 hedges back to zero, thresholdBase hedges only the part beyond the band.',
    NON_NEG_DEC,
    '0',
  ),
  maxSlippageBps: param(
    'The IOC limit of a hedge order: a buy at ask × (1 + bps), a sell at bid × (1 − bps).',
    BPS,
    10,
  ),
  minOrderBase: param('Smallest hedge order, base units (smaller positions wait).', NON_NEG_DEC, '0'),
  maxOrderBase: param('Largest hedge order, base units (a larger position takes several).', POS_DEC, '1'),
  maxPositionBase: param(
    'Cap on the absolute hedge position, base units; at the cap the rest stays unhedged (and the gate applies).',
    POS_DEC,
    '10',
  ),
  stepBase: param(
    "The hedge market's quantity step, base units; 0: the exchange's own (ccxt truncates to it).",
    NON_NEG_DEC,
    '0',
  ),
  spotBaselineBase: param(
    'Spot: the base balance on the hedge exchange that counts as flat (the hedge position is the balance minus it).',
    NON_NEG_DEC,
    '0',
  ),
  onFailure: enumParam(
    'While the hedge venue fails or the cap is reached: "stop" quoting the side that adds to the unhedged position, or "widen" it by widenBps.',
    ['stop', 'widen'],
    'stop',
  ),
  widenBps: param('onFailure "widen": how much further out the adding side is quoted, bps.', BPS, 20),
  dryRun: boolParam(
    'Journal and report hedge orders, never send them (the position is read, nothing is traded).',
    false,
  ),
  intervalMs: intParam('How often the hedger reads its venue and decides, ms.', 100, 3_600_000, 1_000),
  timeoutMs: intParam(
    'Timeout of one call to the hedge venue, ms (then its outcome is unknown).',
    100,
    120_000,
    5_000,
  ),
};

/** One pair's hedge settings as configured. */
export type PairHedgeConfig = ConfigOf<typeof hedgeParamSpecs>;
/** A per-pair override: the pair and any subset of the settings. */
export type PairHedgeOverride = { readonly pair: string } & Partial<PairHedgeConfig>;

/** The `hedge` section. */
export interface HedgeConfig {
  /** Secret: LEDGER_MM_HEDGE_API_KEY only. Takes precedence over apiKeyFile. */
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly apiKeyFile: string;
  readonly apiSecretFile: string;
  readonly defaults: PairHedgeConfig;
  readonly pairs: readonly PairHedgeOverride[];
}

/** Keys that look like a credential: refused with the reason, not as a mere unknown key. */
const CREDENTIAL_KEY = /^(api[_-]?)?(key|secret|password|passphrase|token|uid)$/i;
export const CREDENTIAL_REASON =
  'hedge credentials are never read from a config file: set hedge.apiKeyFile and hedge.apiSecretFile, or LEDGER_MM_HEDGE_API_KEY and LEDGER_MM_HEDGE_API_SECRET';

/**
 * The reason a file's key under `hedge` is refused when it looks like a credential
 * (`hedge.defaults.secret`, `hedge.apiKey` is a secret leaf already), else null.
 */
export function hedgeCredentialKeyReason(key: string): string | null {
  const name = key.split('.').at(-1) ?? '';
  return key.startsWith('hedge.') && CREDENTIAL_KEY.test(name) ? CREDENTIAL_REASON : null;
}

/**
 * `value` of the key `key` from a file with any credential-looking key of a `hedge.pairs` entry
 * taken out (`kept`), and the dotted keys taken out (`refused`): they are reported, masked.
 */
export function withoutHedgeCredentials(
  key: string,
  value: unknown,
): { readonly kept: unknown; readonly refused: readonly string[] } {
  if (key !== 'hedge.pairs' || !Array.isArray(value)) return { kept: value, refused: [] };
  const refused: string[] = [];
  const kept = (value as unknown[]).map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const entries = Object.entries(item as Record<string, unknown>);
    for (const [k] of entries) if (CREDENTIAL_KEY.test(k)) refused.push(`${key}[${i}].${k}`);
    return Object.fromEntries(entries.filter(([k]) => !CREDENTIAL_KEY.test(k)));
  });
  return { kept, refused };
}

const OVERRIDE = z
  .strictObject({
    pair: z
      .string({ error: 'must be a pair name' })
      .regex(PAIR_NAME, { error: 'must be a pair name like "BTC/USDC"' }),
  })
  .extend(partialSchemaOf(hedgeParamSpecs).shape);

const OVERRIDES = zodFormat(
  'mm-hedge-overrides',
  z
    .array(z.unknown(), { error: 'must be a list of {"pair": "BASE/QUOTE", ...hedge settings}' })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((item, i) => {
        if (typeof item === 'object' && item !== null) {
          const secret = Object.keys(item).find((k) => CREDENTIAL_KEY.test(k));
          if (secret !== undefined) {
            ctx.addIssue({ code: 'custom', path: [i, secret], message: CREDENTIAL_REASON });
            return;
          }
        }
        const r = OVERRIDE.safeParse(item);
        if (!r.success) {
          for (const issue of r.error.issues)
            ctx.addIssue({ code: 'custom', path: [i, ...issue.path], message: issue.message });
          return;
        }
        const pair = (r.data as { readonly pair: string }).pair;
        if (seen.has(pair))
          ctx.addIssue({ code: 'custom', path: [i, 'pair'], message: `${pair} is listed twice` });
        seen.add(pair);
      });
    }),
);

export const hedgeSchema: SchemaOf<HedgeConfig> = {
  apiKey: {
    doc: 'The hedge exchange API key. Secret: only from the environment (or hedge.apiKeyFile), never from a config file.',
    format: SECRET_STRING,
    default: '',
    env: 'LEDGER_MM_HEDGE_API_KEY',
    sensitive: true,
  },
  apiSecret: {
    doc: 'The hedge exchange API secret. Secret: only from the environment (or hedge.apiSecretFile), never from a config file.',
    format: SECRET_STRING,
    default: '',
    env: 'LEDGER_MM_HEDGE_API_SECRET',
    sensitive: true,
  },
  apiKeyFile: {
    doc: 'A file holding the hedge API key (not readable by group or others); used when LEDGER_MM_HEDGE_API_KEY is not set. Empty: none.',
    format: OPTIONAL_PATH,
    default: '',
  },
  apiSecretFile: {
    doc: 'A file holding the hedge API secret (not readable by group or others); used when LEDGER_MM_HEDGE_API_SECRET is not set. Empty: none.',
    format: OPTIONAL_PATH,
    default: '',
  },
  defaults: sectionOf(hedgeParamSpecs),
  pairs: {
    doc: 'Per-pair overrides of hedge.defaults: a list of objects, each with "pair" and any subset of the defaults\' keys, e.g. [{"pair": "BTC/USDC", "enabled": true, "exchange": "binance", "symbol": "BTC/USDT"}].',
    format: OVERRIDES,
    default: [] as readonly PairHedgeOverride[],
  },
};

/** The settings of `pair`: the defaults with its override on top. */
export function pairHedgeConfig(config: HedgeConfig, pair: string): PairHedgeConfig {
  const o = config.pairs.find((p) => p.pair === pair);
  if (o === undefined) return config.defaults;
  const { pair: _pair, ...rest } = o;
  return { ...config.defaults, ...rest };
}

/** The rules between keys: overrides of configured pairs only; an enabled pair is complete and ordered. */
export function hedgeConfigIssues(config: HedgeConfig, pairs: readonly string[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  config.pairs.forEach((o, i) => {
    if (!pairs.includes(o.pair))
      issues.push({
        key: `hedge.pairs[${i}].pair`,
        value: renderValue(o.pair),
        reason: `is not one of the configured pairs (${pairs.join(', ') || 'none'})`,
      });
  });
  for (const pair of pairs) {
    const c = pairHedgeConfig(config, pair);
    if (!c.enabled) continue;
    const at = (key: string): string => `hedge (${pair}).${key}`;
    if (c.exchange === '') issues.push({ key: at('exchange'), reason: 'a hedged pair needs an exchange' });
    if (c.symbol === '') issues.push({ key: at('symbol'), reason: 'a hedged pair needs a symbol' });
    if (c.market === 'perp' && !c.symbol.includes(':'))
      issues.push({
        key: at('symbol'),
        value: renderValue(c.symbol),
        reason: 'a perpetual is a ccxt symbol with its settle currency, like "BTC/USDT:USDT"',
      });
    const [min, max, cap] = [c.minOrderBase, c.maxOrderBase, c.maxPositionBase].map((v) => new Dec(v));
    if (min!.gt(max!))
      issues.push({
        key: at('minOrderBase'),
        value: renderValue(c.minOrderBase),
        reason: 'must be ≤ maxOrderBase',
      });
    if (new Dec(c.keepBase).gt(new Dec(c.thresholdBase)))
      issues.push({
        key: at('keepBase'),
        value: renderValue(c.keepBase),
        reason: 'must be ≤ thresholdBase',
      });
    if (max!.gt(cap!))
      issues.push({
        key: at('maxOrderBase'),
        value: renderValue(c.maxOrderBase),
        reason: 'must be ≤ maxPositionBase',
      });
  }
  return issues;
}

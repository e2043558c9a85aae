/**
 * The `strategy` section: quoting parameters with defaults for every pair
 * (`strategy.defaults`), per-pair overrides (`strategy.pairs`) and the reconciler's tolerances
 * (`strategy.reconcile`).
 *
 * The parameters (doc, default, bounds) are the strategy's tables in `strategy-params.ts`;
 * this section is built from them (`src/config/param-leaves.ts`), so a bad value is reported with
 * its key and the reason. The same tables validate the per-pair overrides, which are a list
 * (`[{"pair": "BTC/USDC", "spread": {"bidBps": 8}}]`) rather than a map keyed by pair: the loader
 * accepts only sections and non-object leaves, and a pair name is not a key. Rules between keys
 * (min ≤ max, a static source needs a price…) are `strategy-rules.ts`: the loader reports them,
 * and `resolveStrategyParams` (`src/strategy/params.ts`), which the daemon calls, refuses them.
 */
import { z } from 'zod';

import { partialSchemaOf } from '../param-spec.js';
import {
  type PairStrategyConfig,
  type PairStrategyOverride,
  type StrategyConfig,
  pairParamSpecs,
  reconcileParamSpecs,
} from './strategy-params.js';
import type { SchemaOf } from '../define.js';
import { PAIR_NAME } from '../formats.js';
import { sectionOf, zodFormat } from '../param-leaves.js';

export type {
  DeepPartial,
  PairStrategyConfig,
  PairStrategyOverride,
  ReconcileConfig,
  StrategyConfig,
} from './strategy-params.js';

/** The schema of one pair's parameters (the defaults section; overrides use the same rules). */
export const pairStrategySchema: SchemaOf<PairStrategyConfig> = sectionOf(pairParamSpecs);

const OVERRIDE = z
  .strictObject({
    pair: z
      .string({ error: 'must be a pair name' })
      .regex(PAIR_NAME, { error: 'must be a pair name like "BTC/USDC"' }),
  })
  .extend(partialSchemaOf(pairParamSpecs).shape);

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
  pairs: {
    doc: 'Per-pair overrides of strategy.defaults: a list of objects, each with "pair" and any subset of the defaults\' keys, e.g. [{"pair": "BTC/USDC", "spread": {"bidBps": 8}}].',
    format: OVERRIDES,
    default: [] as readonly PairStrategyOverride[],
  },
  reconcile: sectionOf(reconcileParamSpecs),
};

/** Issues of a list of `{pair, …}` objects as `[0] (BTC/USDC).spread.bidBps: reason`. */
function describePairListIssues(issues: readonly z.core.$ZodIssue[], value: unknown): string {
  const list = Array.isArray(value) ? (value as unknown[]) : [];
  return issues
    .map((i) => {
      const [index, ...rest] = i.path;
      if (typeof index !== 'number') return i.message;
      const pair = (list[index] as { pair?: unknown } | undefined)?.pair;
      const head = typeof pair === 'string' ? `[${index}] (${pair})` : `[${index}]`;
      return `${[head, ...rest.map(String)].join('.')}: ${i.message}`;
    })
    .join('; ');
}

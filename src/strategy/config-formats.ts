import convict from 'convict';
import { z } from 'zod';

import { DECIMAL_STRING } from '../core/decimal.js';
import type { Leaf } from '../config/define.js';
import { BOOLEAN, FORMATS, intFormat, isLoopbackHost } from '../config/formats.js';

/**
 * The value formats of the `strategy` config section (`src/config/sections/strategy.ts`).
 *
 * Each format is a zod schema registered as a named convict format (and in the loader's
 * `FORMATS` table), so a bad value is reported with its key and the zod reason. Each leaf built
 * here remembers its zod schema, so the per-pair overrides (`strategy.pairs`) are validated by
 * exactly the same rules as `strategy.defaults` ({@link partialOf}).
 */

const ZOD = new WeakMap<object, z.ZodType>();

/**
 * Registers `schema` as the named format `name` (convict and the loader's table). `describe`
 * renders the issues of a refused value (default: {@link describeIssues}).
 */
export function zodFormat(
  name: string,
  schema: z.ZodType,
  describe: (issues: readonly z.core.$ZodIssue[], value: unknown) => string = describeIssues,
): { readonly name: string; readonly schema: z.ZodType } {
  const validate = (value: unknown): void => {
    const r = schema.safeParse(value);
    if (!r.success) throw new Error(describe(r.error.issues, value));
  };
  FORMATS.set(name, { name, validate });
  convict.addFormat({ name, validate });
  return { name, schema };
}

/** One line from zod issues: `path: reason; path: reason`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((i) => (i.path.length === 0 ? i.message : `${i.path.map(String).join('.')}: ${i.message}`))
    .join('; ');
}

/** Issues of a list of `{pair, …}` objects as `[0] (BTC/USDC).spread.bidBps: reason`. */
export function describePairListIssues(issues: readonly z.core.$ZodIssue[], value: unknown): string {
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

/** A leaf whose format is the registered zod format `format`. */
export function leaf<T>(doc: string, format: { name: string; schema: z.ZodType }, def: T): Leaf<T> {
  const l: Leaf<T> = { doc, format: format.name, default: def };
  ZOD.set(l, format.schema);
  return l;
}

/** A leaf that takes one of `values`. */
export function enumLeaf<T extends string>(doc: string, values: readonly [T, ...T[]], def: T): Leaf<T> {
  const l: Leaf<T> = { doc, format: values, default: def };
  ZOD.set(l, z.enum(values, { error: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}` }));
  return l;
}

/** A leaf holding an integer in `[min, max]`. */
export function intLeaf(doc: string, min: number, max: number, def: number): Leaf<number> {
  const l: Leaf<number> = { doc, format: intFormat(min, max), default: def };
  ZOD.set(
    l,
    z
      .number({ error: `must be an integer from ${min} to ${max}` })
      .int()
      .min(min)
      .max(max),
  );
  return l;
}

/** A boolean leaf. */
export function boolLeaf(doc: string, def: boolean): Leaf<boolean> {
  const l: Leaf<boolean> = { doc, format: BOOLEAN, default: def };
  ZOD.set(l, z.boolean({ error: 'must be a boolean (true or false)' }));
  return l;
}

const num = (min: number, max: number, what: string): z.ZodType =>
  z
    .number({ error: `must be ${what}` })
    .refine((n) => Number.isFinite(n) && n >= min && n <= max, { error: `must be ${what}` });
const pos = (max: number, what: string): z.ZodType =>
  z.number({ error: `must be ${what}` }).refine((n) => Number.isFinite(n) && n > 0 && n <= max, {
    error: `must be ${what}`,
  });
const decimal = (positive: boolean, maxDp: number | null, orEmpty: boolean): z.ZodType => {
  const what = `${orEmpty ? '"" or ' : ''}a ${positive ? 'positive' : 'non-negative'} decimal string${
    maxDp === null ? '' : ` with at most ${maxDp} decimal places`
  }`;
  return z.string({ error: `must be ${what}` }).refine(
    (s) => {
      if (orEmpty && s === '') return true;
      if (!DECIMAL_STRING.test(s) || s.startsWith('-')) return false;
      if (positive && !/[1-9]/.test(s)) return false;
      return maxDp === null || (s.split('.')[1] ?? '').length <= maxDp;
    },
    { error: `must be ${what}` },
  );
};

/** Basis points, 0 to 10 000 (fractions allowed). */
export const BPS = zodFormat('mm-strategy-bps', num(0, 10_000, 'a number of basis points from 0 to 10000'));
/** A share, 0 to 1. */
export const SHARE = zodFormat('mm-strategy-share', num(0, 1, 'a share from 0 to 1'));
/** A positive finite number (model parameters). */
export const POS_NUM = zodFormat('mm-strategy-positive', pos(1e12, 'a positive finite number'));
/** A non-negative finite number. */
export const NON_NEG_NUM = zodFormat(
  'mm-strategy-non-negative',
  num(0, 1e12, 'a non-negative finite number'),
);
/** A positive decimal string. */
export const POS_DEC = zodFormat('mm-strategy-pos-decimal', decimal(true, null, false));
/** A non-negative decimal string. */
export const NON_NEG_DEC = zodFormat('mm-strategy-non-neg-decimal', decimal(false, null, false));
/** `''` or a positive decimal string. */
export const OPT_DEC = zodFormat('mm-strategy-opt-decimal', decimal(true, null, true));
/** `''` or a positive decimal string with at most 10 decimal places. */
export const OPT_TICK = zodFormat('mm-strategy-opt-tick', decimal(true, 10, true));
/** `''` or an http(s) URL of a price feed (https unless loopback; a query is allowed). */
export const OPT_URL = zodFormat(
  'mm-strategy-opt-url',
  z.string({ error: 'must be "" or an absolute http(s) URL' }).superRefine((s, ctx) => {
    const reason = feedUrlProblem(s);
    if (reason !== null) ctx.addIssue({ code: 'custom', message: reason });
  }),
);
/** A dotted JSON path: `data.price`, `$.result[0].last`. */
export const JSON_PATH = zodFormat(
  'mm-strategy-json-path',
  z
    .string({ error: 'must be a JSON path like "data.price" or "$.result[0].last"' })
    .regex(/^(?:\$\.?)?(?:[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])(?:\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])*$|^$/, {
      error: 'must be a JSON path like "data.price" or "$.result[0].last"',
    }),
);

function feedUrlProblem(s: string): string | null {
  if (s === '') return null;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return 'must be "" or an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be "" or an absolute http(s) URL';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'plain http is allowed only to a loopback host; use https';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  return null;
}

/** A percentage, 0 to 100. */
export const PCT = zodFormat('mm-strategy-pct', num(0, 100, 'a percentage from 0 to 100'));

/** The zod schema of a schema section built with these leaves: every key optional, no unknown keys. */
export function partialOf(section: object): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, node] of Object.entries(section)) {
    const known = ZOD.get(node as object);
    shape[name] = (known ?? partialOf(node as object)).optional();
  }
  return z.strictObject(shape);
}

/**
 * Parameter specs: each strategy parameter's doc, default and rule, written once.
 *
 * A table of specs (sections of {@link ParamSpec}s, `src/config/sections/strategy-params.ts`) is the single
 * source of the strategy's parameters. From it come the types of the configured and the resolved
 * values ({@link ConfigOf}, {@link ParamsOf}), the resolved values ({@link resolveParams}), the
 * zod schema of a partial configuration such as a per-pair override ({@link partialSchemaOf}) and,
 * in the config layer, the convict section (`src/config/param-leaves.ts`). Nothing here knows
 * about convict.
 */
import { z } from 'zod';

import { DECIMAL_STRING, Dec } from '../core/decimal.js';
import { isLoopbackHost } from '../venue/url-policy.js';

/**
 * How a config layer checks a value: a named format (registered under `name` and validated by the
 * spec's zod schema), or a kind the config layer has a format of its own for (an integer in a
 * range, one of a list of values, a boolean), with the same rule as the spec's zod schema.
 */
export type ParamFormat =
  | { readonly kind: 'named'; readonly name: string }
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'boolean' };

/** One parameter. `C` is its configured value (decimals as strings), `P` the strategy's (`Dec`). */
export interface ParamSpec<C, P = C> {
  /** One sentence for the operator: what the parameter does, its unit and its bounds. */
  readonly doc: string;
  readonly default: C;
  readonly format: ParamFormat;
  /** Accepts exactly the valid values; its messages are the reasons a value is refused. */
  readonly schema: z.ZodType<C>;
  /** The strategy's form of a valid value. */
  readonly resolve: (value: C) => P;
}

/** The configured values of a table of specs: a section per section, a value per spec. */
export type ConfigOf<S> = {
  readonly [K in keyof S]: S[K] extends ParamSpec<infer C, infer _P> ? C : ConfigOf<S[K]>;
};

/** The strategy's values of a table of specs (decimal strings parsed). */
export type ParamsOf<S> = {
  readonly [K in keyof S]: S[K] extends ParamSpec<infer _C, infer P> ? P : ParamsOf<S[K]>;
};

/** True for a spec, false for a section of a table (a spec has a `default`, as in convict). */
export function isParamSpec(node: unknown): node is ParamSpec<unknown, unknown> {
  return typeof node === 'object' && node !== null && 'default' in node;
}

/** The strategy's values of `config`, a valid configuration of the table `specs`. */
export function resolveParams<S extends object>(specs: S, config: ConfigOf<S>): ParamsOf<S> {
  const values = config as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, node] of Object.entries(specs as Record<string, unknown>)) {
    out[name] = isParamSpec(node)
      ? node.resolve(values[name])
      : resolveParams(node as object, values[name] as ConfigOf<object>);
  }
  return out as ParamsOf<S>;
}

/** The zod schema of a partial configuration of `specs`: every key optional, no unknown keys. */
export function partialSchemaOf(specs: object): z.ZodObject<Record<string, z.ZodOptional<z.ZodType>>> {
  const shape: Record<string, z.ZodOptional<z.ZodType>> = {};
  for (const [name, node] of Object.entries(specs as Record<string, unknown>)) {
    shape[name] = (isParamSpec(node) ? node.schema : partialSchemaOf(node as object)).optional();
  }
  return z.strictObject(shape);
}

// ---------------------------------------------------------------------------------------------
// Value formats

/**
 * A rule for values of one kind (basis points, a share, a decimal string…): the name a config
 * layer registers it under, its zod schema and the strategy's form of a value.
 */
export interface ValueFormat<C, P = C> {
  readonly name: string;
  readonly schema: z.ZodType<C>;
  readonly resolve: (value: C) => P;
}

const same = <T>(value: T): T => value;

const num = (min: number, max: number, what: string): z.ZodType<number> =>
  z
    .number({ error: `must be ${what}` })
    .refine((n) => Number.isFinite(n) && n >= min && n <= max, { error: `must be ${what}` });
const pos = (max: number, what: string): z.ZodType<number> =>
  z.number({ error: `must be ${what}` }).refine((n) => Number.isFinite(n) && n > 0 && n <= max, {
    error: `must be ${what}`,
  });
const decimal = (positive: boolean, maxDp: number | null, orEmpty: boolean): z.ZodType<string> => {
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
const toDec = (s: string): Dec => new Dec(s);
const toOptDec = (s: string): Dec | null => (s === '' ? null : new Dec(s));

/** Basis points, 0 to 10 000 (fractions allowed). */
export const BPS: ValueFormat<number> = {
  name: 'mm-strategy-bps',
  schema: num(0, 10_000, 'a number of basis points from 0 to 10000'),
  resolve: same,
};
/** A share, 0 to 1. */
export const SHARE: ValueFormat<number> = {
  name: 'mm-strategy-share',
  schema: num(0, 1, 'a share from 0 to 1'),
  resolve: same,
};
/** A percentage, 0 to 100. */
export const PCT: ValueFormat<number> = {
  name: 'mm-strategy-pct',
  schema: num(0, 100, 'a percentage from 0 to 100'),
  resolve: same,
};
/** A positive finite number (model parameters). */
export const POS_NUM: ValueFormat<number> = {
  name: 'mm-strategy-positive',
  schema: pos(1e12, 'a positive finite number'),
  resolve: same,
};
/** A non-negative finite number. */
export const NON_NEG_NUM: ValueFormat<number> = {
  name: 'mm-strategy-non-negative',
  schema: num(0, 1e12, 'a non-negative finite number'),
  resolve: same,
};
/** A positive decimal string; the strategy gets a `Dec`. */
export const POS_DEC: ValueFormat<string, Dec> = {
  name: 'mm-strategy-pos-decimal',
  schema: decimal(true, null, false),
  resolve: toDec,
};
/** A non-negative decimal string; the strategy gets a `Dec`. */
export const NON_NEG_DEC: ValueFormat<string, Dec> = {
  name: 'mm-strategy-non-neg-decimal',
  schema: decimal(false, null, false),
  resolve: toDec,
};
/** `''` or a positive decimal string; the strategy gets a `Dec`, or `null` for `''`. */
export const OPT_DEC: ValueFormat<string, Dec | null> = {
  name: 'mm-strategy-opt-decimal',
  schema: decimal(true, null, true),
  resolve: toOptDec,
};
/** `''` or a positive decimal string with at most 10 decimal places; `null` for `''`. */
export const OPT_TICK: ValueFormat<string, Dec | null> = {
  name: 'mm-strategy-opt-tick',
  schema: decimal(true, 10, true),
  resolve: toOptDec,
};
/** `''` or an http(s) URL of a price feed (https unless loopback; a query is allowed). */
export const OPT_URL: ValueFormat<string> = {
  name: 'mm-strategy-opt-url',
  schema: z.string({ error: 'must be "" or an absolute http(s) URL' }).superRefine((s, ctx) => {
    const reason = feedUrlProblem(s);
    if (reason !== null) ctx.addIssue({ code: 'custom', message: reason });
  }),
  resolve: same,
};
/** A dotted JSON path: `data.price`, `$.result[0].last`. */
export const JSON_PATH: ValueFormat<string> = {
  name: 'mm-strategy-json-path',
  schema: z
    .string({ error: 'must be a JSON path like "data.price" or "$.result[0].last"' })
    .regex(/^(?:\$\.?)?(?:[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])(?:\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])*$|^$/, {
      error: 'must be a JSON path like "data.price" or "$.result[0].last"',
    }),
  resolve: same,
};

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

// ---------------------------------------------------------------------------------------------
// Spec builders

/** A parameter whose value has the format `format`. */
export function param<C, P>(doc: string, format: ValueFormat<C, P>, def: C): ParamSpec<C, P> {
  return {
    doc,
    default: def,
    format: { kind: 'named', name: format.name },
    schema: format.schema,
    resolve: format.resolve,
  };
}

/** A parameter that takes one of `values`. */
export function enumParam<T extends string>(doc: string, values: readonly [T, ...T[]], def: T): ParamSpec<T> {
  return {
    doc,
    default: def,
    format: { kind: 'enum', values },
    schema: z.enum(values, { error: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}` }),
    resolve: same,
  };
}

/** A parameter holding an integer in `[min, max]`. */
export function intParam(doc: string, min: number, max: number, def: number): ParamSpec<number> {
  return {
    doc,
    default: def,
    format: { kind: 'int', min, max },
    schema: z
      .number({ error: `must be an integer from ${min} to ${max}` })
      .int()
      .min(min)
      .max(max),
    resolve: same,
  };
}

/** A boolean parameter. */
export function boolParam(doc: string, def: boolean): ParamSpec<boolean> {
  return {
    doc,
    default: def,
    format: { kind: 'boolean' },
    schema: z.boolean({ error: 'must be a boolean (true or false)' }),
    resolve: same,
  };
}

/** One rung of a free-form ladder as configured: its distance from the reference and its size. */
export interface LadderRungConfig {
  readonly spreadBps: number;
  readonly size: string;
}

/** `levels.ladder` as configured: off (`[]`), one list for both sides, or one per side. */
export type LadderConfig =
  | readonly LadderRungConfig[]
  | { readonly buy: readonly LadderRungConfig[]; readonly sell: readonly LadderRungConfig[] };

/** One rung as the strategy takes it. */
export interface LadderRung {
  readonly spreadBps: number;
  readonly size: Dec;
}

/** A ladder per side, or null when off. */
export type Ladder = { readonly BUY: readonly LadderRung[]; readonly SELL: readonly LadderRung[] } | null;

const RUNG = z.strictObject({
  spreadBps: pos(10_000, 'a positive number of basis points up to 10000'),
  size: decimal(true, null, false),
});
const RUNGS = z.array(RUNG).max(20, { error: 'must have at most 20 rungs (levels per side)' });
const increasing = (rungs: readonly LadderRungConfig[]): boolean =>
  rungs.every((r, i) => i === 0 || r.spreadBps > rungs[i - 1]!.spreadBps);

/**
 * A free-form ladder: `[]` (off), `[{spreadBps, size}, …]` for both sides, or
 * `{buy: [...], sell: [...]}`; rungs innermost first, each further out than the last.
 */
export const LADDER: ValueFormat<LadderConfig, Ladder> = {
  name: 'mm-strategy-ladder',
  schema: z
    .union([RUNGS, z.strictObject({ buy: RUNGS.min(1), sell: RUNGS.min(1) })], {
      error: 'must be [] (off), a list of {spreadBps, size} rungs, or {buy: [...], sell: [...]}',
    })
    .refine((v) => (Array.isArray(v) ? increasing(v) : increasing(v.buy) && increasing(v.sell)), {
      error: 'rungs must be listed innermost first, each spreadBps larger than the one before',
    }),
  resolve: (v) => {
    const rungs = (list: readonly LadderRungConfig[]): LadderRung[] =>
      list.map((r) => ({ spreadBps: r.spreadBps, size: new Dec(r.size) }));
    if (Array.isArray(v)) return v.length === 0 ? null : { BUY: rungs(v), SELL: rungs(v) };
    const sides = v as Exclude<LadderConfig, readonly LadderRungConfig[]>;
    return { BUY: rungs(sides.buy), SELL: rungs(sides.sell) };
  },
};

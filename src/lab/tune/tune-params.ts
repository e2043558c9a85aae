/**
 * The parameters `ledger-mm tune` searches: `--param KEY=V1,V2,...`. A key is a config path. A
 * strategy parameter may be named as in the config (`strategy.defaults.spread.bidBps`,
 * `strategy.reconcile.priceToleranceBps`) or without `defaults` (`strategy.spread.bidBps`):
 * every key of the strategy's spec tables resolves, whatever model adds it, and each value is
 * checked by its spec before anything runs. Any other config path (`risk.maxInventoryNotional`)
 * is passed through for the config loader to check when the candidate's run loads it. Keys joined
 * by `+` (`strategy.spread.bidBps+strategy.spread.askBps=20,30`) are tied: one parameter whose
 * every value is set at each of them, so a symmetric spread is one axis of the grid, not two.
 */
import { isParamSpec, type ParamSpec } from '../../config/param-spec.js';
import { pairParamSpecs, reconcileParamSpecs } from '../../config/sections/strategy-params.js';

/** The spec tables a key may resolve in, by the config path they live under. */
export const SPEC_TABLES: readonly { readonly prefix: readonly string[]; readonly specs: object }[] = [
  { prefix: ['strategy', 'defaults'], specs: pairParamSpecs },
  { prefix: ['strategy', 'reconcile'], specs: reconcileParamSpecs },
];

/** A parameter and the values to try. */
export interface TuneParam {
  /** The config paths it sets (more than one when keys are tied), as given when not strategy parameters. */
  readonly paths: readonly (readonly string[])[];
  /** Its key as printed (the config paths, dotted, joined by `+`). */
  readonly key: string;
  readonly values: readonly unknown[];
}

/** A parameter that cannot be searched; the message says why. */
export class TuneParamError extends Error {
  override readonly name = 'TuneParamError';
}

function specAt(specs: object, path: readonly string[]): ParamSpec<unknown, unknown> | null {
  let node: unknown = specs;
  for (const name of path) {
    if (typeof node !== 'object' || node === null || isParamSpec(node) || !Object.hasOwn(node, name))
      return null;
    node = (node as Record<string, unknown>)[name];
  }
  return isParamSpec(node) ? node : null;
}

/** The spec and full config path of a strategy key, or null when the key names none. */
export function resolveKey(key: string): { path: string[]; spec: ParamSpec<unknown, unknown> } | null {
  const parts = key.split('.');
  for (const t of SPEC_TABLES) {
    const full = parts.slice(0, t.prefix.length).join('.') === t.prefix.join('.');
    const rest = full ? parts.slice(t.prefix.length) : parts[0] === 'strategy' ? parts.slice(1) : null;
    if (rest === null || rest.length === 0) continue;
    const spec = specAt(t.specs, rest);
    if (spec !== null) return { path: [...t.prefix, ...rest], spec };
  }
  return null;
}

/** A value as typed: JSON (a number, a boolean, a quoted string) when it parses, else the text. */
function candidates(text: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed === text ? [text] : [parsed, text];
  } catch {
    return [text];
  }
}

/** Parses one `--param KEY[+KEY...]=V1,V2,...`. Throws {@link TuneParamError}. */
export function parseTuneParam(arg: string): TuneParam {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new TuneParamError(`--param must be KEY=V1,V2,...; got "${arg}"`);
  const keys = arg
    .slice(0, eq)
    .split('+')
    .map((k) => k.trim());
  const texts = arg
    .slice(eq + 1)
    .split(',')
    .map((v) => v.trim());
  for (const key of keys)
    if (!/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(key))
      throw new TuneParamError(`"${key}" is not a config path`);
  const label = keys.join('+');
  if (texts.some((t) => t === '')) throw new TuneParamError(`--param ${label}: an empty value`);
  const resolved = keys.map((key) => {
    const r = resolveKey(key);
    if (r === null && key.split('.')[0] === 'strategy')
      throw new TuneParamError(
        `${key} is not a strategy parameter (see docs/reference/config.md, strategy.defaults)`,
      );
    return r;
  });
  const values = texts.map((t) => {
    const tries = candidates(t);
    const ok = tries.find((v) => resolved.every((r) => r === null || r.spec.schema.safeParse(v).success));
    if (ok === undefined) {
      const failing = resolved.find((r) => r !== null && !r.spec.schema.safeParse(tries[0]).success);
      const why = failing?.spec.schema.safeParse(tries[0]).error?.issues[0]?.message ?? 'invalid';
      throw new TuneParamError(`--param ${label}: ${t} ${why}`);
    }
    return ok;
  });
  const paths = resolved.map((r, i) => r?.path ?? keys[i]!.split('.'));
  const unique = new Set(paths.map((p) => p.join('.')));
  if (unique.size !== paths.length) throw new TuneParamError(`--param ${label}: a key is tied to itself`);
  return { paths, key: [...unique].join('+'), values: [...new Set(values)] };
}

/** One combination: the value of each parameter, by key. */
export type Candidate = Readonly<Record<string, unknown>>;

/** The config layer (an object to write as JSON) that sets a candidate's values. */
export function candidateConfig(params: readonly TuneParam[], c: Candidate): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params)
    for (const path of p.paths) {
      let node = out;
      path.slice(0, -1).forEach((name) => {
        node = (node[name] ??= {}) as Record<string, unknown>;
      });
      node[path[path.length - 1]!] = c[p.key];
    }
  return out;
}

/** A candidate as one line: `key=value` pairs, the common prefix `strategy.defaults.` dropped. */
export function candidateText(c: Candidate): string {
  const entries = Object.entries(c);
  if (entries.length === 0) return '(the config as it is)';
  return entries
    .map(
      ([k, v]) =>
        `${k.replace(/(^|\+)strategy\.defaults\./g, '$1')}=${typeof v === 'string' ? v : JSON.stringify(v)}`,
    )
    .join(' ');
}

/**
 * The typed shape of the convict schema. A section is a plain object of sections and leaves; a
 * leaf is an object with a `default` (convict's own rule). {@link SchemaOf} maps a config
 * interface to its schema, so the compiler insists on a `doc`, a `format` and a `default` of the
 * right type for every key, and the config type and the schema cannot drift apart.
 */
export interface Leaf<T> {
  /** One sentence for the operator: what the key does, its unit and its bounds. */
  readonly doc: string;
  /** A named format from `formats.ts`, or the list of allowed values. */
  readonly format: string | readonly T[];
  /** The default; also written in `config/default.json` (except for secrets). */
  readonly default: T;
  /** The environment variable that overrides every file. */
  readonly env?: string;
  /**
   * A secret. Never accepted from a config file, never echoed in an error report, masked by
   * `maskConfig`.
   */
  readonly sensitive?: boolean;
}

/** The schema of a config interface: sections for nested objects, leaves for everything else. */
export type SchemaOf<T> = {
  readonly [K in keyof T]-?: [Extract<T[K], readonly unknown[]>] extends [never]
    ? T[K] extends object
      ? SchemaOf<T[K]>
      : Leaf<T[K]>
    : Leaf<T[K]>;
};

/** A schema node as seen by code that walks the schema without its static type. */
export type AnyNode = Leaf<unknown> | { readonly [key: string]: AnyNode };
/** A schema section, untyped. */
export type AnySection = { readonly [key: string]: AnyNode };

/** True for a leaf node (an object with a `default`), as convict decides it. */
export function isLeaf(node: unknown): node is Leaf<unknown> {
  return typeof node === 'object' && node !== null && !Array.isArray(node) && 'default' in node;
}

/** One leaf of the schema with its dotted key. */
export interface LeafEntry {
  readonly key: string;
  readonly leaf: Leaf<unknown>;
}

/** Every leaf of `schema`, depth first, in declaration order. */
export function leaves(schema: AnySection, prefix = ''): LeafEntry[] {
  const out: LeafEntry[] = [];
  for (const [name, node] of Object.entries(schema)) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    if (isLeaf(node)) out.push({ key, leaf: node });
    else out.push(...leaves(node, key));
  }
  return out;
}

/** The value at a dotted key, or `undefined` when any step is missing. */
export function getPath(obj: unknown, key: string): unknown {
  let cur: unknown = obj;
  for (const part of key.split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The object of defaults of `schema`; with `omitSensitive`, secrets are left out. */
export function defaultsOf(schema: AnySection, omitSensitive = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, node] of Object.entries(schema)) {
    if (isLeaf(node)) {
      if (!(omitSensitive && node.sensitive === true)) out[name] = structuredClone(node.default);
    } else {
      out[name] = defaultsOf(node, omitSensitive);
    }
  }
  return out;
}

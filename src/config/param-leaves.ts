/**
 * Convict sections built from the strategy's parameter specs (`src/config/param-spec.ts`), so a
 * parameter's doc, default and bounds are written once, in the strategy's table.
 *
 * A spec's format becomes the leaf's format: an integer range, a list of values and a boolean use
 * the loader's own formats (`intFormat`, an enum, `BOOLEAN`, which also convert environment
 * strings); a named format is the spec's zod schema registered under its name
 * ({@link zodFormat}), so a bad value is reported with its key and the zod reason.
 */
import convict from 'convict';
import type { z } from 'zod';

import { type ConfigOf, type ParamSpec, isParamSpec } from './param-spec.js';
import type { AnyNode, Leaf, SchemaOf } from './define.js';
import { BOOLEAN, FORMATS, intFormat } from './formats.js';

/**
 * Registers `schema` as the named format `name` (convict and the loader's table) and returns the
 * name. `describe` renders the issues of a refused value (default: {@link describeIssues}).
 */
export function zodFormat(
  name: string,
  schema: z.ZodType,
  describe: (issues: readonly z.core.$ZodIssue[], value: unknown) => string = describeIssues,
): string {
  const validate = (value: unknown): void => {
    const r = schema.safeParse(value);
    if (!r.success) throw new Error(describe(r.error.issues, value));
  };
  FORMATS.set(name, { name, validate });
  convict.addFormat({ name, validate });
  return name;
}

/** One line from zod issues: `path: reason; path: reason`. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((i) => (i.path.length === 0 ? i.message : `${i.path.map(String).join('.')}: ${i.message}`))
    .join('; ');
}

/** The convict leaf of one parameter spec. */
function leafOf<C>(spec: ParamSpec<C, unknown>): Leaf<C> {
  return { doc: spec.doc, format: formatOf(spec), default: spec.default };
}

function formatOf<C>(spec: ParamSpec<C, unknown>): string | readonly C[] {
  const f = spec.format;
  switch (f.kind) {
    case 'int':
      return intFormat(f.min, f.max);
    case 'boolean':
      return BOOLEAN;
    case 'enum':
      return f.values as readonly C[];
    case 'named':
      return zodFormat(f.name, spec.schema);
  }
}

/** The convict section of a table of parameter specs: a section per section, a leaf per spec. */
export function sectionOf<S extends object>(specs: S): SchemaOf<ConfigOf<S>> {
  const out: Record<string, AnyNode> = {};
  for (const [name, node] of Object.entries(specs as Record<string, unknown>)) {
    out[name] = isParamSpec(node) ? leafOf(node) : (sectionOf(node as object) as unknown as AnyNode);
  }
  return out as unknown as SchemaOf<ConfigOf<S>>;
}

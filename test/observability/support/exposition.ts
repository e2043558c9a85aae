/**
 * A small parser of the Prometheus text exposition format (0.0.4), strict enough to catch what
 * promtool would: every sample belongs to a family declared by `# HELP` and `# TYPE` before it,
 * names and label names are valid, label values are properly quoted and escaped, values parse,
 * no series repeats, and histogram buckets are cumulative and end with `le="+Inf"` = `_count`.
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  readonly help: string;
  readonly type: string;
  readonly samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** Parses `text`; throws on anything invalid. */
export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: Family | null = null;
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const where = `line ${i + 1}: ${line}`;
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      const rest = line.slice(7);
      const sp = rest.indexOf(' ');
      const name = sp < 0 ? rest : rest.slice(0, sp);
      const help = sp < 0 ? '' : rest.slice(sp + 1);
      if (!NAME.test(name)) throw new Error(`bad metric name: ${where}`);
      if (families.has(name)) throw new Error(`family declared twice: ${where}`);
      current = { name, help, type: '', samples: [] };
      families.set(name, current);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      if (current === null || current.name !== name) throw new Error(`TYPE without its HELP: ${where}`);
      if (type === undefined || !TYPES.has(type)) throw new Error(`bad type: ${where}`);
      current = { ...current, type };
      families.set(current.name, current);
      continue;
    }
    if (line.startsWith('#')) continue;
    if (current === null || current.type === '') throw new Error(`sample before its family: ${where}`);
    const sample = parseSample(line, where);
    if (!belongs(sample.name, current))
      throw new Error(`sample outside its family ${current.name}: ${where}`);
    const id = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seen.has(id)) throw new Error(`duplicate series: ${where}`);
    seen.add(id);
    current.samples.push(sample);
  }
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

function belongs(sample: string, f: Family): boolean {
  if (f.type === 'histogram')
    return [`${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`].includes(sample);
  if (f.type === 'summary') return [f.name, `${f.name}_sum`, `${f.name}_count`].includes(sample);
  return sample === f.name;
}

function parseSample(line: string, where: string): Sample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)(?: (-?\d+))?$/.exec(line);
  if (m === null) throw new Error(`bad sample line: ${where}`);
  const labels = m[2] === undefined ? {} : parseLabels(m[2].slice(1, -1), where);
  // Like Prometheus (Go's ParseFloat): NaN and Inf in any case (prom-client writes `Nan`).
  const raw = m[3]!.toLowerCase();
  const special: Record<string, number> = { nan: NaN, '+inf': Infinity, inf: Infinity, '-inf': -Infinity };
  const value = raw in special ? special[raw]! : Number(raw);
  if (Number.isNaN(value) && raw !== 'nan') throw new Error(`bad value: ${where}`);
  return { name: m[1]!, labels, value };
}

function parseLabels(body: string, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < body.length) {
    const eq = body.indexOf('=', i);
    if (eq < 0) throw new Error(`bad labels: ${where}`);
    const name = body.slice(i, eq);
    if (!LABEL.test(name) || name.startsWith('__')) throw new Error(`bad label name ${name}: ${where}`);
    if (body[eq + 1] !== '"') throw new Error(`unquoted label value: ${where}`);
    let j = eq + 2;
    let value = '';
    for (; j < body.length && body[j] !== '"'; j++) {
      if (body[j] === '\\') {
        const c = body[++j];
        if (c === 'n') value += '\n';
        else if (c === '\\' || c === '"') value += c;
        else throw new Error(`bad escape: ${where}`);
      } else value += body[j];
    }
    if (j >= body.length) throw new Error(`unterminated label value: ${where}`);
    if (name in out) throw new Error(`label repeated: ${where}`);
    out[name] = value;
    i = j + 1;
    if (body[i] === ',') i++;
    else if (i < body.length) throw new Error(`bad label separator: ${where}`);
  }
  return out;
}

function checkHistogram(f: Family): void {
  const groups = new Map<string, { buckets: [number, number][]; count?: number }>();
  for (const s of f.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const g = groups.get(key) ?? { buckets: [] };
    groups.set(key, g);
    if (s.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${f.name}: bucket without le`);
      g.buckets.push([le === '+Inf' ? Infinity : Number(le), s.value]);
    } else if (s.name.endsWith('_count')) g.count = s.value;
  }
  for (const [key, g] of groups) {
    const sorted = [...g.buckets].sort((a, b) => a[0] - b[0]);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k]![1] < sorted[k - 1]![1]) throw new Error(`${f.name}${key}: buckets not cumulative`);
    }
    const inf = sorted.at(-1);
    if (inf === undefined || inf[0] !== Infinity) throw new Error(`${f.name}${key}: no +Inf bucket`);
    if (inf[1] !== g.count) throw new Error(`${f.name}${key}: +Inf bucket ${inf[1]} != count ${g.count}`);
  }
}

/** The value of the one sample of `name` matching `labels` (a subset), or undefined. */
export function valueOf(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const family = [...families.values()].find((f) => f.samples.some((s) => s.name === name));
  const matches = (family?.samples ?? []).filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (matches.length > 1)
    throw new Error(`${name} ${JSON.stringify(labels)} matches ${matches.length} series`);
  return matches[0]?.value;
}

/** Every sample of `name`. */
export function samplesOf(families: Map<string, Family>, name: string): Sample[] {
  return [...families.values()].flatMap((f) => f.samples.filter((s) => s.name === name));
}

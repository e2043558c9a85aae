/**
 * What the tests of the deploy/ monitoring files read: the files' paths, the alert rules and the
 * dashboard taken apart, the daemon's metric catalogue, and Prometheus's HTTP API. Finding and
 * running the tools themselves is `test/support/monitoring-stack.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { benchView, populate } from '../../../../src/lab/bench/metrics-bench.js';
import { createWatchdogMetrics } from '../../../../src/watchdog/watchdog-metrics.js';
import { createMetrics } from '../../../../src/observability/metrics/create-metrics.js';
import { registerStateCollector } from '../../../../src/observability/state-collector.js';
import { parseExposition } from '../../support/exposition.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DEPLOY = path.join(ROOT, 'deploy');
export const ALERTS_FILE = path.join(DEPLOY, 'prometheus/alerts.yml');
export const PROMETHEUS_CONFIG_FILE = path.join(DEPLOY, 'prometheus/prometheus.yml');
export const DASHBOARD_FILE = path.join(DEPLOY, 'grafana/ledger-mm.json');
export const RUNBOOK_FILE = path.join(ROOT, 'RUNBOOK.md');
/** Where every alert's runbook_url points, followed by `#<alert name in lower case>`. */
export const RUNBOOK_BASE = 'https://github.com/ledger-mm/ledger-mm/blob/main/RUNBOOK.md';

/** RUNBOOK.md's `## Name` sections: name → body. */
export function runbookSections(): Map<string, string> {
  const out = new Map<string, string>();
  const parts = fs.readFileSync(RUNBOOK_FILE, 'utf8').split(/^## /m).slice(1);
  for (const part of parts) {
    const nl = part.indexOf('\n');
    out.set(part.slice(0, nl).trim(), part.slice(nl + 1));
  }
  return out;
}
export const ALERT_UNIT_TESTS_FILE = fileURLToPath(new URL('../alerts.test.yml', import.meta.url));

/**
 * alerts.yml without its `annotations:` blocks. promtool's rule unit tests compare annotations
 * verbatim; the unit tests check when alerts fire, not their wording.
 */
export function stripAnnotations(yaml: string): string {
  const out: string[] = [];
  let skipIndent: number | null = null;
  for (const line of yaml.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (skipIndent !== null) {
      if (line.trim() === '' || indent > skipIndent) continue;
      skipIndent = null;
    }
    if (/^\s*annotations:\s*$/.test(line)) {
      skipIndent = indent;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/** The `- alert:` blocks of alerts.yml as text, by alert name (a line-level split, no YAML parser). */
export function alertBlocks(yaml: string): Map<string, string> {
  const blocks = new Map<string, string>();
  let name: string | null = null;
  let lines: string[] = [];
  const flush = (): void => {
    if (name !== null) blocks.set(name, lines.join('\n'));
  };
  for (const line of yaml.split('\n')) {
    const m = /^\s*- alert:\s*(\S+)\s*$/.exec(line);
    if (m !== null) {
      flush();
      name = m[1]!;
      lines = [];
    } else if (/^\s*- name:/.test(line)) {
      flush();
      name = null;
    }
    lines.push(line);
  }
  flush();
  return blocks;
}

/**
 * The `expr` of each alert in alerts.yml (a plain or `>-` folded scalar, folded lines joined by
 * spaces as YAML does), by alert name. The live test reads the parsed rules from Prometheus.
 */
export function alertExpressions(yaml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, block] of alertBlocks(yaml)) {
    const lines = block.split('\n');
    const start = lines.findIndex((l) => /^\s+expr:/.test(l));
    if (start < 0) continue;
    const first = lines[start]!.replace(/^\s+expr:\s*/, '');
    const rest: string[] = [];
    for (const l of lines.slice(start + 1)) {
      if (/^\s+[a-z_]+:(\s|$)/.test(l)) break;
      rest.push(l.trim());
    }
    const parts = first === '>-' || first === '>' ? rest : [first, ...rest];
    out.set(name, parts.filter((x) => x !== '').join(' '));
  }
  return out;
}

// ------------------------------------------------------------------------- the dashboard

/** A Grafana panel, as much of it as the tests read. */
export interface Panel {
  readonly id?: number;
  readonly type: string;
  readonly title: string;
  readonly datasource?: { type?: string; uid?: string };
  readonly gridPos?: { h: number; w: number; x: number; y: number };
  readonly targets?: readonly {
    refId?: string;
    expr?: string;
    datasource?: { type?: string; uid?: string };
  }[];
  readonly panels?: readonly Panel[];
  readonly repeat?: string;
}

/** The dashboard JSON, as much of it as the tests read. */
export interface Dashboard {
  readonly uid: string;
  readonly title: string;
  readonly schemaVersion: number;
  readonly panels: readonly Panel[];
  readonly templating: {
    readonly list: readonly {
      type: string;
      name: string;
      query?: unknown;
      definition?: string;
      multi?: boolean;
      includeAll?: boolean;
      allValue?: string;
      current?: { value?: unknown };
      datasource?: { type?: string; uid?: string };
    }[];
  };
}

export function loadDashboard(): Dashboard {
  return JSON.parse(fs.readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard;
}

/** Every panel, rows' nested panels included, rows themselves excluded. */
export function allPanels(d: Dashboard): Panel[] {
  const out: Panel[] = [];
  const walk = (ps: readonly Panel[]): void => {
    for (const p of ps) {
      if (p.type !== 'row') out.push(p);
      if (p.panels !== undefined) walk(p.panels);
    }
  };
  walk(d.panels);
  return out;
}

/** One PromQL expression of the dashboard. */
export interface PanelQuery {
  readonly panel: string;
  readonly refId: string;
  readonly expr: string;
}

/** Every target expression of the dashboard. */
export function dashboardQueries(d: Dashboard): PanelQuery[] {
  return allPanels(d).flatMap((p) =>
    (p.targets ?? []).map((t) => ({ panel: p.title, refId: t.refId ?? '?', expr: t.expr ?? '' })),
  );
}

/**
 * Grafana's variables replaced the way Grafana would with "All" selected: `$pair` and
 * `$instance` by their allValue `.*`, the interval variables by `window`.
 */
export function substituteVariables(expr: string, window = '30s'): string {
  return expr
    .replace(/\$__rate_interval|\$\{__rate_interval\}/g, window)
    .replace(/\$__interval|\$\{__interval\}/g, window)
    .replace(/\$__range|\$\{__range\}/g, window)
    .replace(/\$\{?(pair|instance)\}?/g, '.*');
}

/** `label_values(metric, label)` of a query variable, split. */
export function labelValuesQuery(definition: string): { selector: string; label: string } | null {
  const m = /^label_values\((.+),\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)$/.exec(definition.trim());
  return m === null ? null : { selector: m[1]!.trim(), label: m[2]! };
}

// ------------------------------------------------------------------------- metric names

/** Every metric family the daemon can expose, with its label names (`le` for histograms). */
export interface Catalogue {
  /** Family name → label names. */
  readonly families: ReadonlyMap<string, ReadonlySet<string>>;
  /** Family name → type. */
  readonly types: ReadonlyMap<string, string>;
}

/**
 * The daemon's metric registry fed with the bench population (every family gets series), the
 * process metrics included, read back from its exposition.
 */
export async function metricCatalogue(): Promise<Catalogue> {
  const now = Date.now();
  const metrics = createMetrics({ pairs: ['BTC/USDC', 'ETH/USDC'], now: () => now });
  try {
    populate(metrics, now);
    registerStateCollector(metrics, () => benchView(now));
    const families = new Map<string, Set<string>>();
    const types = new Map<string, string>();
    // The watchdog's registry (`ledger-mm watchdog`) is a second target of the same deploy files.
    const watchdog = createWatchdogMetrics({ heartbeatAgeSeconds: () => 0 });
    const own = parseExposition(await watchdog.scrape());
    watchdog.close();
    const daemon = parseExposition(await metrics.scrape());
    for (const f of [...daemon.values(), ...[...own.values()].filter((x) => !daemon.has(x.name))]) {
      const labels = new Set<string>();
      for (const s of f.samples) for (const k of Object.keys(s.labels)) labels.add(k);
      families.set(f.name, labels);
      types.set(f.name, f.type);
    }
    return { families, types };
  } finally {
    metrics.close();
  }
}

/** Prometheus's own series that the rules and panels may use, with their labels. */
const SYNTHETIC: ReadonlyMap<string, ReadonlySet<string>> = new Map([['up', new Set<string>()]]);
/** Labels Prometheus attaches to every scraped series. */
const TARGET_LABELS = new Set(['instance', 'job', '__name__']);

/** The family of a series name (`x_bucket` → `x` for a histogram), or null when unknown. */
export function familyOf(name: string, c: Catalogue): string | null {
  if (c.families.has(name) || SYNTHETIC.has(name)) return name;
  const m = /^(.+)_(bucket|sum|count)$/.exec(name);
  if (m !== null && c.types.get(m[1]!) === 'histogram') return m[1]!;
  return null;
}

/** Problems with the metric names and label matchers of one PromQL expression. */
export function selectorProblems(expr: string, c: Catalogue): string[] {
  const problems: string[] = [];
  // Blank out string literals (label values, regexes) so nothing inside them is read as a name.
  const code = expr.replace(/"(?:[^"\\]|\\.)*"/g, (s) => `"${' '.repeat(s.length - 2)}"`);
  // Any name of ours or of the process collector, wherever it stands (bare, `x{...}`, `x[5m]`).
  for (const m of code.matchAll(/\b(?:ledger_mm|process|nodejs)_[a-zA-Z0-9_:]*/g)) {
    if (familyOf(m[0], c) === null) problems.push(`unknown metric ${m[0]}`);
  }
  // Every `name{matchers}` selector: the name is known and each matcher's label exists on it.
  for (const m of code.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}/g)) {
    const name = m[1]!;
    if (['by', 'without', 'on', 'ignoring', 'group_left', 'group_right'].includes(name)) continue;
    const family = familyOf(name, c);
    if (family === null) {
      problems.push(`unknown metric ${name}`);
      continue;
    }
    const labels = new Set([...(c.families.get(family) ?? SYNTHETIC.get(family) ?? []), ...TARGET_LABELS]);
    if (name.endsWith('_bucket')) labels.add('le');
    const inner = expr.slice(m.index + m[0].indexOf('{') + 1, m.index + m[0].length - 1);
    for (const mm of inner.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*"/g)) {
      if (!labels.has(mm[1]!)) problems.push(`${name} has no label ${mm[1]!}`);
    }
  }
  return [...new Set(problems)];
}

// ------------------------------------------------------------------------- Prometheus

/** A Prometheus HTTP API answer. */
export interface ApiAnswer<T> {
  readonly status: 'success' | 'error';
  readonly data?: T;
  readonly errorType?: string;
  readonly error?: string;
  readonly warnings?: string[];
}

/** One series of a query result (vector or matrix). */
export interface SeriesResult {
  readonly metric: Record<string, string>;
  readonly value?: [number, string];
  readonly values?: [number, string][];
}

/** GET `path` with `params` on the API; the parsed JSON, whatever the HTTP status. */
export async function api<T>(
  base: string,
  apiPath: string,
  params: Record<string, string> = {},
): Promise<ApiAnswer<T>> {
  const url = new URL(apiPath, base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const r = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return (await r.json()) as ApiAnswer<T>;
}

/** Runs an instant query. */
export function query(
  base: string,
  q: string,
): Promise<ApiAnswer<{ resultType: string; result: SeriesResult[] }>> {
  return api(base, '/api/v1/query', { query: q });
}

/** Runs a range query over [start, end] (seconds) with `step` seconds. */
export function queryRange(
  base: string,
  q: string,
  start: number,
  end: number,
  step: number,
): Promise<ApiAnswer<{ resultType: string; result: SeriesResult[] }>> {
  return api(base, '/api/v1/query_range', {
    query: q,
    start: String(start),
    end: String(end),
    step: String(step),
  });
}

/** True when some sample of `result` is a finite number. */
export function hasFiniteValue(result: readonly SeriesResult[]): boolean {
  return result.some((s) =>
    [...(s.values ?? []), ...(s.value === undefined ? [] : [s.value])].some(([, v]) =>
      Number.isFinite(Number(v)),
    ),
  );
}

/** Only the `ledger_mm_*` families of an exposition. */
export function ownFamilies(exposition: string): string {
  return exposition
    .split('\n')
    .filter((line) => {
      const m = /^(?:# (?:HELP|TYPE) )?([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line);
      return line === '' || (m !== null && m[1]!.startsWith('ledger_mm_'));
    })
    .join('\n');
}

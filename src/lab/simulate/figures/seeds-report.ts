/**
 * The report of `simulate --seeds`: every seed's runs (the daemon, and the baselines under
 * `--compare`), then per strategy the mean, minimum and maximum of every figure over the seeds,
 * and the targets checked on every seed. Like the one-seed report it holds nothing of the wall
 * clock or the machine. Each seed's own full report (with charts) is written beside it.
 */
import { formatTable } from '../../../core/text-table.js';
import { FIGURES, formatValue, type FigureDef, type FigureFormat } from './figure-catalogue.js';
import type { RunFigures } from './figures.js';
import { TARGET_TWO_SIDED, type Check, type ScenarioSummary } from './report.js';
import { formatEpisodes } from '../render/summary-table.js';
import type { StrategyName } from '../run/strategies.js';
import type { VenueLimit } from './venue-limit.js';

/** What was simulated. */
export interface SeedsScenario extends Omit<ScenarioSummary, 'seed'> {
  readonly seeds: readonly number[];
}

/** One seed's runs and their targets. */
export interface SeedRuns {
  readonly seed: number;
  /** The daemon's first, then the baselines'. */
  readonly runs: readonly RunFigures[];
  readonly checks: readonly Check[];
}

/** One figure of one strategy over the seeds (null when no seed had a value). */
export interface FigureSpread {
  readonly key: string;
  readonly label: string;
  readonly format: FigureFormat;
  readonly strategy: StrategyName;
  /** Seeds with a value. */
  readonly n: number;
  readonly mean: number | null;
  readonly min: number | null;
  readonly max: number | null;
}

/** The whole report. */
export interface SeedsReport {
  readonly tool: 'ledger-mm simulate';
  readonly formatVersion: 1;
  readonly kind: 'seeds';
  readonly scenario: SeedsScenario;
  readonly venueLimit: VenueLimit;
  readonly seeds: readonly SeedRuns[];
  /** Per strategy (in run order), every figure of {@link FIGURES}. */
  readonly spread: readonly FigureSpread[];
  readonly checks: readonly Check[];
}

/** The figures of the per-seed table: key of {@link FIGURES}, and a short heading. */
export const SEED_COLUMNS: readonly (readonly [key: string, heading: string])[] = [
  ['pnl', 'PnL'],
  ['spreadCapturedBps', 'captured'],
  ['markout60Bps', 'markout 60 s'],
  ['adverseSelection60', 'adverse sel. 60 s'],
  ['inventoryValueStd', 'inventory std'],
  ['halts', 'halts'],
  ['twoSidedAfterFirst', 'two-sided'],
  ['requoteP50Ms', 'requote p50'],
  ['requoteTowardP50Ms', 'p50 toward'],
  ['abandonedPrepares', 'abandoned'],
  ['fills', 'fills'],
];

const round = (x: number): number => Number(x.toPrecision(10));

/** Mean, minimum and maximum of one figure of one strategy's runs. */
export function figureSpread(
  def: FigureDef,
  strategy: StrategyName,
  runs: readonly RunFigures[],
): FigureSpread {
  const xs = runs
    .map((r) => def.value(r))
    .filter((v) => v !== null)
    .map((v) => (typeof v === 'number' ? v : v.toNumber()));
  const n = xs.length;
  return {
    key: def.key,
    label: def.label,
    format: def.format,
    strategy,
    n,
    mean: n === 0 ? null : round(xs.reduce((s, x) => s + x, 0) / n),
    min: n === 0 ? null : Math.min(...xs),
    max: n === 0 ? null : Math.max(...xs),
  };
}

/** The targets over every seed. */
export function seedsChecks(seeds: readonly SeedRuns[]): Check[] {
  const all = seeds.flatMap((s) => s.runs.map((r) => ({ seed: s.seed, r })));
  const daemon = all.filter((x) => x.r.strategy === 'daemon');
  const halted = daemon.filter((x) => x.r.halts.count > 0);
  const low = daemon.filter((x) => x.r.twoSidedAfterFirst < TARGET_TWO_SIDED);
  const broken = all.filter((x) => x.r.invariantBreaks.total > 0);
  const list = (xs: typeof all): string => xs.map((x) => `seed ${x.seed} ${x.r.strategy}`).join(', ');
  return [
    {
      name: 'no halts of the daemon on any seed',
      ok: halted.length === 0,
      detail: halted.length === 0 ? 'none' : `halted: ${list(halted)}`,
    },
    {
      name: `daemon two-sided uptime ≥ ${(TARGET_TWO_SIDED * 100).toFixed(2)} % on every seed`,
      ok: low.length === 0,
      detail: low.length === 0 ? 'every seed' : `below: ${list(low)}`,
    },
    {
      name: 'zero invariant breaks',
      ok: broken.length === 0,
      detail: broken.length === 0 ? 'every run' : `broken: ${list(broken)}`,
    },
  ];
}

/** Assembles the report from each seed's runs (in seed order). */
export function buildSeedsReport(i: {
  readonly scenario: SeedsScenario;
  readonly limit: VenueLimit;
  readonly seeds: readonly SeedRuns[];
}): SeedsReport {
  const strategies = (i.seeds[0]?.runs ?? []).map((r) => r.strategy);
  const spread = strategies.flatMap((strategy) => {
    const runs = i.seeds.flatMap((s) => s.runs.filter((r) => r.strategy === strategy));
    return FIGURES.map((f) => figureSpread(f, strategy, runs));
  });
  return {
    tool: 'ledger-mm simulate',
    formatVersion: 1,
    kind: 'seeds',
    scenario: i.scenario,
    venueLimit: i.limit,
    seeds: i.seeds,
    spread,
    checks: seedsChecks(i.seeds),
  };
}

const byKey = new Map(FIGURES.map((f) => [f.key, f]));

/** The per-seed rows: one per seed and strategy, the {@link SEED_COLUMNS}. */
export function seedRows(r: SeedsReport): { headers: string[]; rows: string[][] } {
  const defs = SEED_COLUMNS.map(([k]) => byKey.get(k)!);
  return {
    headers: ['seed', 'strategy', ...SEED_COLUMNS.map(([, h]) => h)],
    rows: r.seeds.flatMap((s) =>
      s.runs.map((run) => [String(s.seed), run.strategy, ...defs.map((d) => d.text(run))]),
    ),
  };
}

/** The spread rows: each figure, then mean, min and max per strategy. */
export function spreadRows(r: SeedsReport): { headers: string[]; rows: string[][] } {
  const strategies = [...new Set(r.spread.map((x) => x.strategy))];
  const cell = new Map(r.spread.map((x) => [`${x.strategy}\0${x.key}`, x]));
  return {
    headers: ['figure', ...strategies.flatMap((s) => [`${s} mean`, 'min', 'max'])],
    rows: FIGURES.map((f) => [
      f.label,
      ...strategies.flatMap((s) => {
        const x = cell.get(`${s}\0${f.key}`);
        return [x?.mean ?? null, x?.min ?? null, x?.max ?? null].map((v) => formatValue(f.format, v));
      }),
    ]),
  };
}

/** The printed summary of a multi-seed simulation. */
export function formatSeedsSummary(r: SeedsReport): string {
  const s = r.scenario;
  const per = seedRows(r);
  const spread = spreadRows(r);
  const lines = [
    `${s.hours} simulated hours, latency ${s.latency}, seeds ${s.seeds.join(', ')}, pairs ${s.pairs.join(', ')}; config/paper.json${s.configFiles.map((f) => ` + ${f}`).join('')}; market ${s.market ?? 'config/sim.json'}`,
    '',
    'Per seed:',
    formatTable(per.headers, per.rows),
    `Over the ${s.seeds.length} seeds:`,
    formatTable(spread.headers, spread.rows),
    ...r.seeds.flatMap((x) => x.runs.flatMap((run) => formatEpisodes(run).map((l) => `seed ${x.seed} ${l}`))),
    ...r.checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`),
  ];
  return `${lines.join('\n')}\n`;
}

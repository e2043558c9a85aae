/**
 * `report.json`: everything a simulation found, in one plain object. Nothing in it depends on
 * the wall clock or the machine (no wall time, no temporary paths, no random ids), so the same
 * seed and config give the same file byte for byte.
 */
import type { ChartSeries } from '../render/chart-series.js';
import { FIGURES, ratio } from './figure-catalogue.js';
import type { RunFigures } from './figures.js';
import { SIM_T0, type SimLatency } from '../run/scenario.js';
import { STRATEGY_DESCRIPTIONS, type StrategyName } from '../run/strategies.js';
import type { VenueLimit } from './venue-limit.js';

/** What was simulated. */
export interface ScenarioSummary {
  readonly hours: number;
  readonly seed: number | string;
  readonly latency: SimLatency;
  /** `--config` files as given (layered over the package's config/paper.json). */
  readonly configFiles: readonly string[];
  /** `--market` as given, or null for the package's config/sim.json. */
  readonly market: string | null;
  readonly pairs: readonly string[];
  /** The simulated clock's start (a UTC day boundary). */
  readonly simulatedStart: string;
  readonly strategies: Readonly<Partial<Record<StrategyName, string>>>;
  /** The market regime (`simulate --regimes`), when one is applied. */
  readonly regime?: string;
  /** Replayed price files by pair (`simulate --prices`), when any. */
  readonly prices?: Readonly<Record<string, string>>;
}

/** One row of the compare table. */
export interface CompareRow {
  readonly key: string;
  readonly label: string;
  readonly daemon: string;
  /** Per baseline: its value as printed, and its ratio to the daemon's (null when meaningless). */
  readonly baselines: readonly {
    readonly strategy: StrategyName;
    readonly text: string;
    readonly ratio: number | null;
  }[];
}

/** A target of the issue, checked on the run. */
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** The whole report. */
export interface SimulationReport {
  readonly tool: 'ledger-mm simulate';
  readonly formatVersion: 1;
  readonly scenario: ScenarioSummary;
  readonly venueLimit: VenueLimit;
  /** The daemon's run first, then the baselines. */
  readonly runs: readonly RunFigures[];
  readonly compare: readonly CompareRow[] | null;
  readonly checks: readonly Check[];
  /** The charts of the daemon's run. */
  readonly series: ChartSeries;
}

/** The target share of the time quoted on both sides. */
export const TARGET_TWO_SIDED = 0.95;
/** The target advantage in two-sided time over cancel-then-replace. */
export const TARGET_VS_CANCEL_REPLACE = 1.5;

/** The compare table: every figure of the daemon beside each baseline's, with the ratio. */
export function compareRows(daemon: RunFigures, baselines: readonly RunFigures[]): CompareRow[] {
  return FIGURES.map((f) => ({
    key: f.key,
    label: f.label,
    daemon: f.text(daemon),
    baselines: baselines.map((b) => ({
      strategy: b.strategy,
      text: f.text(b),
      ratio: ratio(f.value(b), f.value(daemon)),
    })),
  }));
}

/** The issue's targets on these runs. */
export function checks(daemon: RunFigures, baselines: readonly RunFigures[]): Check[] {
  const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;
  const out: Check[] = [
    {
      name: `two-sided uptime ≥ ${pct(TARGET_TWO_SIDED)}`,
      ok: daemon.twoSidedAfterFirst >= TARGET_TWO_SIDED,
      detail: `${pct(daemon.twoSidedAfterFirst)} after the first two-sided quote, ${pct(daemon.twoSidedOverall)} over the whole run`,
    },
    {
      name: 'no halts of the daemon',
      ok: daemon.halts.count === 0,
      detail: [daemon, ...baselines]
        .map((r) => `${r.strategy}: ${r.halts.count} (${(r.halts.totalMs / 60_000).toFixed(1)} min)`)
        .join(', '),
    },
    {
      name: 'zero invariant breaks',
      ok: [daemon, ...baselines].every((r) => r.invariantBreaks.total === 0),
      detail: [daemon, ...baselines].map((r) => `${r.strategy}: ${r.invariantBreaks.total}`).join(', '),
    },
  ];
  const ctr = baselines.find((b) => b.strategy === 'cancel-then-replace');
  if (ctr !== undefined) {
    const times = ratio(daemon.twoSidedAfterFirst, ctr.twoSidedAfterFirst);
    out.push({
      name: `two-sided uptime ≥ ${TARGET_VS_CANCEL_REPLACE}× cancel-then-replace`,
      ok: times !== null && times >= TARGET_VS_CANCEL_REPLACE,
      detail: `${pct(daemon.twoSidedAfterFirst)} vs ${pct(ctr.twoSidedAfterFirst)}: ${times === null ? '-' : `${times.toFixed(2)}×`}`,
    });
  }
  return out;
}

/** What {@link buildReport} takes. */
export interface ReportInput {
  readonly scenario: Omit<ScenarioSummary, 'simulatedStart' | 'strategies'>;
  readonly limit: VenueLimit;
  readonly daemon: RunFigures;
  readonly baselines: readonly RunFigures[];
  readonly series: ChartSeries;
}

/** Assembles the report. */
export function buildReport(i: ReportInput): SimulationReport {
  const strategies: Partial<Record<StrategyName, string>> = {};
  for (const r of [i.daemon, ...i.baselines]) strategies[r.strategy] = STRATEGY_DESCRIPTIONS[r.strategy];
  return {
    tool: 'ledger-mm simulate',
    formatVersion: 1,
    scenario: { ...i.scenario, simulatedStart: new Date(SIM_T0).toISOString(), strategies },
    venueLimit: i.limit,
    runs: [i.daemon, ...i.baselines],
    compare: i.baselines.length === 0 ? null : compareRows(i.daemon, i.baselines),
    checks: checks(i.daemon, i.baselines),
    series: i.series,
  };
}

/** The report without its chart series (what `--json` prints). */
export function withoutSeries(report: SimulationReport): Omit<SimulationReport, 'series'> {
  const { series: _series, ...rest } = report;
  return rest;
}

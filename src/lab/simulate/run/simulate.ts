/**
 * `ledger-mm simulate` without its command line: resolve the scenario (failing early on a bad
 * config), run the daemon and, with `compare`, the baselines on the same seed and market (in
 * worker threads, see {@link runJobs}), and assemble the report. {@link writeReport}
 * writes `report.json` and the self-contained `report.html`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildReport, type SimulationReport } from '../figures/report.js';
import { renderHtml } from '../render/report-html.js';
import { loadScenario, type ScenarioInput } from './scenario.js';
import { BASELINES, type StrategyName } from './strategies.js';
import { runJobs } from './run-jobs.js';
import type { RunCost } from './strategy-protocol.js';

/** Options of {@link simulate}. */
export interface SimulateOptions {
  readonly input: ScenarioInput;
  readonly compare: boolean;
  /** The baselines `compare` runs (default all of {@link BASELINES}). */
  readonly baselines?: readonly StrategyName[];
  /** Where progress goes (stderr), and whether it is a terminal. */
  readonly progress?: { readonly write: (text: string) => void; readonly tty: boolean };
  /** Run strategies in worker threads when possible (default true). */
  readonly workers?: boolean;
  /** Runs at once (default `DEFAULT_JOBS`, 2). */
  readonly concurrency?: number;
  /** Wall clock for the progress line (default `performance.now`). */
  readonly wallNow?: () => number;
  /** Told what each run cost (wall time, heap), as it ends. */
  readonly onRunCost?: (label: string, cost: RunCost) => void;
}

/** Runs the simulation; see the module doc. Throws ConfigError or ScenarioError before running. */
export async function simulate(o: SimulateOptions): Promise<SimulationReport> {
  // Fails on a bad config or market before starting anything.
  const { pairs } = loadScenario(o.input).config;
  const strategies: StrategyName[] = ['daemon', ...(o.compare ? (o.baselines ?? BASELINES) : [])];
  const results = await runJobs(
    strategies.map((strategy) => ({
      label: strategy,
      input: o.input,
      strategy,
      withSeries: strategy === 'daemon',
    })),
    {
      ...(o.progress === undefined ? {} : { progress: o.progress }),
      ...(o.workers === undefined ? {} : { workers: o.workers }),
      ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
      ...(o.wallNow === undefined ? {} : { wallNow: o.wallNow }),
      pairs: pairs.length,
      onResult: (job, r) => o.onRunCost?.(job.label, r.cost),
    },
  );
  const [daemon, ...baselines] = results;
  return buildReport({
    scenario: {
      hours: o.input.hours,
      seed: o.input.seed,
      latency: o.input.latency,
      configFiles: o.input.configFiles,
      market: o.input.market,
      ...(o.input.regime === undefined ? {} : { regime: o.input.regime }),
      ...(o.input.prices === undefined ? {} : { prices: o.input.prices }),
      pairs: daemon!.figures.pairs.map((p) => p.pair),
    },
    limit: daemon!.limit,
    daemon: daemon!.figures,
    baselines: baselines.map((b) => b.figures),
    series: daemon!.series!,
  });
}

/** `report.json`'s text: the figures indented, the chart series compact (one line). */
export function reportJson(report: SimulationReport): string {
  const { series, ...rest } = report;
  const text = JSON.stringify({ ...rest, series: null }, null, 2);
  return `${text.replace(/"series": null\n}$/, () => `"series": ${JSON.stringify(series)}\n}`)}\n`;
}

/** Writes `report.json` and `report.html` into `dir` (created); returns their paths. */
export function writeReport(report: SimulationReport, dir: string): { json: string; html: string } {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const json = join(out, 'report.json');
  const html = join(out, 'report.html');
  writeFileSync(json, reportJson(report));
  writeFileSync(html, renderHtml(report));
  return { json, html };
}

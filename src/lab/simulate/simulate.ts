import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { Progress } from './progress.js';
import { buildReport, type SimulationReport } from './report.js';
import { renderHtml } from './report-html.js';
import { loadScenario, type ScenarioInput } from './scenario.js';
import { BASELINES, type StrategyName } from './strategies.js';
import { canUseWorkers, runStrategy, runStrategyInWorker, type StrategyResult } from './strategy-runner.js';

/**
 * `ledger-mm simulate` without its command line: resolve the scenario (failing early on a bad
 * config), run the daemon and, with `compare`, the baselines on the same seed and market (in
 * worker threads when there are cores for them), and assemble the report. {@link writeReport}
 * writes `report.json` and the self-contained `report.html`.
 */

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
  /** Wall clock for the progress line (default `performance.now`). */
  readonly wallNow?: () => number;
}

/** Runs the simulation; see the module doc. Throws ConfigError or ScenarioError before running. */
export async function simulate(o: SimulateOptions): Promise<SimulationReport> {
  loadScenario(o.input); // fail on a bad config or market before starting anything
  const strategies: StrategyName[] = ['daemon', ...(o.compare ? (o.baselines ?? BASELINES) : [])];
  const wallNow = o.wallNow ?? (() => performance.now());
  const progress =
    o.progress === undefined
      ? null
      : new Progress({ ...o.progress, totalMs: o.input.hours * 3_600_000, wallNow });
  for (const s of strategies) progress?.add(s);
  const parallel =
    o.workers !== false && canUseWorkers() && strategies.length > 1 && availableParallelism() > 1;
  const run = (strategy: StrategyName): Promise<StrategyResult> => {
    const options = {
      input: o.input,
      strategy,
      withSeries: strategy === 'daemon',
      onProgress: (elapsedMs: number) => progress?.update(strategy, elapsedMs),
    };
    return parallel ? runStrategyInWorker(options, stop.signal) : runStrategy(options);
  };
  const stop = new AbortController();
  let results: StrategyResult[];
  try {
    if (parallel) {
      results = await Promise.all(strategies.map(run)).catch((err: unknown) => {
        stop.abort(); // the other workers' runs are of no use without this one
        throw err;
      });
    } else {
      results = [];
      for (const s of strategies) results.push(await run(s));
    }
  } finally {
    progress?.done();
  }
  const [daemon, ...baselines] = results;
  return buildReport({
    scenario: {
      hours: o.input.hours,
      seed: o.input.seed,
      latency: o.input.latency,
      configFiles: o.input.configFiles,
      market: o.input.market,
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

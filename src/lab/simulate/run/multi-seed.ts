/**
 * `ledger-mm simulate --seeds`: the same scenario on several seeds, each seed's daemon (and
 * baselines under `compare`) a run of its own, two at a time (`--jobs`) in worker threads (see
 * {@link runJobs}). As a seed's runs all end, its full report (with the daemon's charts) is
 * handed to `onSeed` and its charts are dropped, so memory does not grow with the seeds.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildReport, type SimulationReport } from '../figures/report.js';
import { runJobs, type RunJob } from './run-jobs.js';
import { loadScenario, SIM_T0, type ScenarioInput } from './scenario.js';
import { buildSeedsReport, type SeedRuns, type SeedsReport } from '../figures/seeds-report.js';
import { renderSeedsHtml } from '../render/seeds-html.js';
import { BASELINES, STRATEGY_DESCRIPTIONS, type StrategyName } from './strategies.js';
import type { RunCost, StrategyResult } from './strategy-protocol.js';

/** Options of {@link simulateSeeds}. */
export interface SimulateSeedsOptions {
  /** The scenario; its `seed` is ignored. */
  readonly input: ScenarioInput;
  readonly seeds: readonly number[];
  readonly compare: boolean;
  readonly baselines?: readonly StrategyName[];
  readonly progress?: { readonly write: (text: string) => void; readonly tty: boolean };
  readonly workers?: boolean;
  /** Runs at once (default `DEFAULT_JOBS`, 2). */
  readonly concurrency?: number;
  readonly wallNow?: () => number;
  /** Each seed's own report, once its runs have ended (in the order they end). */
  readonly onSeed?: (report: SimulationReport) => void;
  /** Told what each run cost, as it ends. */
  readonly onRunCost?: (label: string, cost: RunCost) => void;
}

/** Runs every seed; see the module doc. Throws ConfigError or ScenarioError before running. */
export async function simulateSeeds(o: SimulateSeedsOptions): Promise<SeedsReport> {
  if (o.seeds.length === 0) throw new RangeError('no seeds');
  const scenarioPairs = loadScenario({ ...o.input, seed: o.seeds[0]! }).config.pairs.length;
  const strategies: StrategyName[] = ['daemon', ...(o.compare ? (o.baselines ?? BASELINES) : [])];
  const jobs: (RunJob & { seed: number })[] = o.seeds.flatMap((seed) =>
    strategies.map((strategy) => ({
      label: `seed ${seed} ${strategy}`,
      seed,
      input: { ...o.input, seed },
      strategy,
      withSeries: strategy === 'daemon',
    })),
  );
  const pending = new Map<number, Map<StrategyName, StrategyResult>>();
  const done = new Map<number, SeedRuns>();
  let pairs: readonly string[] = [];
  let limit: SeedsReport['venueLimit'] | null = null;
  await runJobs(jobs, {
    ...(o.progress === undefined ? {} : { progress: o.progress }),
    ...(o.workers === undefined ? {} : { workers: o.workers }),
    ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
    ...(o.wallNow === undefined ? {} : { wallNow: o.wallNow }),
    pairs: scenarioPairs,
    onResult: (job, result) => {
      o.onRunCost?.(job.label, result.cost);
      const seed = (job as RunJob & { seed: number }).seed;
      const got = pending.get(seed) ?? new Map<StrategyName, StrategyResult>();
      pending.set(seed, got);
      got.set(job.strategy, result);
      if (got.size < strategies.length) return;
      pending.delete(seed);
      const [daemon, ...baselines] = strategies.map((s) => got.get(s)!);
      pairs = daemon!.figures.pairs.map((p) => p.pair);
      limit = daemon!.limit;
      const report = buildReport({
        scenario: { ...scenarioOf(o.input, pairs), seed },
        limit: daemon!.limit,
        daemon: daemon!.figures,
        baselines: baselines.map((b) => b.figures),
        series: daemon!.series!,
      });
      o.onSeed?.(report);
      done.set(seed, { seed, runs: report.runs, checks: report.checks });
    },
  });
  const strategiesText: Partial<Record<StrategyName, string>> = {};
  for (const s of strategies) strategiesText[s] = STRATEGY_DESCRIPTIONS[s];
  return buildSeedsReport({
    scenario: {
      ...scenarioOf(o.input, pairs),
      seeds: [...o.seeds],
      simulatedStart: new Date(SIM_T0).toISOString(),
      strategies: strategiesText,
    },
    limit: limit!,
    seeds: o.seeds.map((s) => done.get(s)!),
  });
}

function scenarioOf(input: ScenarioInput, pairs: readonly string[]) {
  return {
    hours: input.hours,
    latency: input.latency,
    configFiles: input.configFiles,
    market: input.market,
    pairs,
    ...(input.regime === undefined ? {} : { regime: input.regime }),
    ...(input.prices === undefined ? {} : { prices: input.prices }),
  };
}

/** The directory of one seed's report under the run's `dir`. */
export function seedDir(dir: string, seed: number | string): string {
  return join(resolve(dir), `seed-${String(seed)}`);
}

/** Writes the multi-seed `report.json` and `report.html` into `dir` (created); returns their paths. */
export function writeSeedsReport(report: SeedsReport, dir: string): { json: string; html: string } {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const json = join(out, 'report.json');
  const html = join(out, 'report.html');
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(html, renderSeedsHtml(report));
  return { json, html };
}

/**
 * `ledger-mm tune` without its command line: run every candidate (and the configuration as it
 * is, candidate 0) on the training seeds, rank them by the objective, then run the best few and
 * candidate 0 on the test seeds, which the ranking never saw, and report both. Each candidate is
 * a config file layered over the scenario's, so any parameter the config accepts can be searched.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunFigures } from '../simulate/figures.js';
import { runJobs, type RunJob } from '../simulate/run-jobs.js';
import { loadScenario, type ScenarioInput } from '../simulate/scenario.js';
import type { RunCost } from '../simulate/strategy-runner.js';
import { candidateConfig, candidateText, type Candidate, type TuneParam } from './tune-params.js';

/** The objective: the mean PnL over the seeds, among candidates that meet every constraint. */
export interface TuneObjective {
  /** Least spread captured, bps of volume, as a mean over the seeds. */
  readonly minCapturedBps: number;
  /** Least two-sided uptime (after the first two-sided quote) on every seed, 0–1. */
  readonly minUptime: number;
  /** Most halts of the daemon over the seeds. */
  readonly maxHalts: number;
}

/** The objective in words (printed and kept in the report). */
export function objectiveText(o: TuneObjective): string {
  return `maximise the mean PnL over the seeds, among candidates with a mean spread captured ≥ ${o.minCapturedBps} bps, two-sided uptime ≥ ${(o.minUptime * 100).toFixed(1)} % on every seed and at most ${o.maxHalts} halts`;
}

/** A candidate's figures over a set of seeds. */
export interface CandidateScore {
  /** 0 is the configuration as it is. */
  readonly index: number;
  readonly candidate: Candidate;
  readonly text: string;
  readonly seeds: readonly number[];
  readonly meanPnl: number;
  readonly minPnl: number;
  readonly positivePnlSeeds: number;
  readonly meanCapturedBps: number | null;
  readonly meanMarkout60Bps: number | null;
  readonly meanInventoryStd: number;
  readonly minUptime: number;
  readonly halts: number;
  /** The constraints it misses (empty: it meets the objective's constraints). */
  readonly misses: readonly string[];
}

/** What {@link tune} returns (and `tune` writes as report.json). */
export interface TuneReport {
  readonly tool: 'ledger-mm tune';
  readonly formatVersion: 1;
  readonly scenario: Pick<ScenarioInput, 'hours' | 'latency' | 'configFiles' | 'market'>;
  readonly params: readonly { readonly key: string; readonly values: readonly unknown[] }[];
  readonly objective: TuneObjective & { readonly text: string };
  readonly train: readonly number[];
  readonly test: readonly number[];
  /** Every candidate on the training seeds, best first. */
  readonly trainRanking: readonly CandidateScore[];
  /** The best few and candidate 0 on the test seeds, in training rank order. */
  readonly testScores: readonly CandidateScore[];
}

/** Options of {@link tune}. */
export interface TuneOptions {
  /** The scenario; its `seed` is ignored. */
  readonly input: ScenarioInput;
  readonly params: readonly TuneParam[];
  /** The candidates to try (without candidate 0, which is added). */
  readonly candidates: readonly Candidate[];
  readonly train: readonly number[];
  readonly test: readonly number[];
  /** How many of the best go on to the test seeds. */
  readonly top: number;
  readonly objective: TuneObjective;
  /** Where the candidates' config files go. */
  readonly dir: string;
  readonly progress?: { readonly write: (text: string) => void; readonly tty: boolean };
  readonly workers?: boolean;
  /** Runs at once (default `DEFAULT_JOBS`, 2). */
  readonly concurrency?: number;
  readonly onRunCost?: (label: string, cost: RunCost) => void;
}

const mean = (xs: readonly number[]): number =>
  xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length;
const meanOrNull = (xs: readonly (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : mean(v);
};

/** The score of one candidate's runs (one per seed). */
export function score(
  index: number,
  candidate: Candidate,
  seeds: readonly number[],
  runs: readonly RunFigures[],
  o: TuneObjective,
): CandidateScore {
  const pnl = runs.map((r) => Number(r.pnl));
  const captured = meanOrNull(runs.map((r) => r.spreadCapturedBps));
  const minUptime = Math.min(...runs.map((r) => r.twoSidedAfterFirst));
  const halts = runs.reduce((n, r) => n + r.halts.count, 0);
  const misses: string[] = [];
  if (captured === null || captured < o.minCapturedBps) misses.push('spread captured');
  if (minUptime < o.minUptime) misses.push('uptime');
  if (halts > o.maxHalts) misses.push('halts');
  return {
    index,
    candidate,
    text: candidateText(candidate),
    seeds,
    meanPnl: mean(pnl),
    minPnl: Math.min(...pnl),
    positivePnlSeeds: pnl.filter((x) => x > 0).length,
    meanCapturedBps: captured,
    meanMarkout60Bps: meanOrNull(runs.map((r) => r.markouts.find((m) => m.horizonS === 60)?.bps ?? null)),
    meanInventoryStd: mean(runs.map((r) => Number(r.inventoryValueStd))),
    minUptime,
    halts,
    misses,
  };
}

/** Best first: candidates meeting the constraints, then by mean PnL, then by index. */
export function rank(scores: readonly CandidateScore[]): CandidateScore[] {
  return [...scores].sort(
    (a, b) =>
      Number(a.misses.length > 0) - Number(b.misses.length > 0) || b.meanPnl - a.meanPnl || a.index - b.index,
  );
}

/** Runs the search; see the module doc. Throws ConfigError or ScenarioError before running. */
export async function tune(o: TuneOptions): Promise<TuneReport> {
  const dir = resolve(o.dir, 'candidates');
  mkdirSync(dir, { recursive: true });
  const all: Candidate[] = [{}, ...o.candidates];
  const files = all.map((c, i) => {
    if (i === 0) return null;
    const file = join(dir, `c${i}.json`);
    writeFileSync(file, `${JSON.stringify(candidateConfig(o.params, c), null, 2)}\n`);
    return file;
  });
  const inputOf = (i: number, seed: number): ScenarioInput => ({
    ...o.input,
    seed,
    configFiles: files[i] === null ? o.input.configFiles : [...o.input.configFiles, files[i]!],
  });
  // A candidate the config refuses fails here, before any run.
  all.forEach((_, i) => loadScenario(inputOf(i, o.train[0] ?? 1)));
  const evaluate = async (
    indexes: readonly number[],
    seeds: readonly number[],
  ): Promise<CandidateScore[]> => {
    const jobs: RunJob[] = indexes.flatMap((i) =>
      seeds.map((seed) => ({
        label: `c${i} seed ${seed}`,
        input: inputOf(i, seed),
        strategy: 'daemon',
        withSeries: false,
      })),
    );
    const results = await runJobs(jobs, {
      ...(o.progress === undefined ? {} : { progress: o.progress }),
      ...(o.workers === undefined ? {} : { workers: o.workers }),
      ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
      onResult: (job, r) => o.onRunCost?.(job.label, r.cost),
    });
    return indexes.map((i, k) =>
      score(
        i,
        all[i]!,
        seeds,
        results.slice(k * seeds.length, (k + 1) * seeds.length).map((r) => r.figures),
        o.objective,
      ),
    );
  };
  const trainRanking = rank(
    await evaluate(
      all.map((_, i) => i),
      o.train,
    ),
  );
  const chosen = trainRanking.slice(0, o.top).map((s) => s.index);
  if (!chosen.includes(0)) chosen.push(0);
  const byRank = new Map(trainRanking.map((s, r) => [s.index, r]));
  const testScores = o.test.length === 0 ? [] : await evaluate(chosen, o.test);
  return {
    tool: 'ledger-mm tune',
    formatVersion: 1,
    scenario: {
      hours: o.input.hours,
      latency: o.input.latency,
      configFiles: o.input.configFiles,
      market: o.input.market,
    },
    params: o.params.map((p) => ({ key: p.key, values: p.values })),
    objective: { ...o.objective, text: objectiveText(o.objective) },
    train: o.train,
    test: o.test,
    trainRanking,
    testScores: [...testScores].sort((a, b) => byRank.get(a.index)! - byRank.get(b.index)!),
  };
}

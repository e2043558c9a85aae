/**
 * `ledger-mm tune` without its command line: run every candidate (and the configuration as it
 * is, candidate 0) on the training seeds, rank them by the objective, then run the best few and
 * candidate 0 on the test seeds, which the ranking never saw, and report both. Each candidate is
 * a config file layered over the scenario's, so any parameter the config accepts can be searched.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunFigures } from '../simulate/figures/figures.js';
import { runJobs, type RunJob } from '../simulate/run/run-jobs.js';
import { loadScenario, type ScenarioInput } from '../simulate/run/scenario.js';
import type { RunCost } from '../simulate/run/strategy-protocol.js';
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

/** What the ranking maximises when the candidates run in several market regimes. */
export type RegimeRanking = 'mean' | 'worst';

/** The objective in words (printed and kept in the report). */
export function objectiveText(o: TuneObjective, regimes?: RegimeSpec): string {
  const what =
    regimes === undefined
      ? 'the mean PnL over the seeds'
      : regimes.rankOn === 'worst'
        ? `the worst regime's mean PnL over the seeds (regimes ${regimes.names.join(', ')})`
        : `the mean over the regimes (${regimes.names.join(', ')}) of the mean PnL over the seeds`;
  return `maximise ${what}, among candidates with a mean spread captured ≥ ${o.minCapturedBps} bps, two-sided uptime ≥ ${(o.minUptime * 100).toFixed(1)} % on every seed and at most ${o.maxHalts} halts`;
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
  /** What the ranking maximises: `meanPnl`, or over regimes their mean or worst mean PnL. */
  readonly objectivePnl: number;
  /** Per regime, the mean PnL over the seeds (only when the candidates run in regimes). */
  readonly regimePnl?: Readonly<Record<string, number>>;
}

/** The regimes every candidate runs in, and how they rank. */
export interface RegimeSpec {
  readonly names: readonly string[];
  readonly rankOn: RegimeRanking;
}

/** What {@link tune} returns (and `tune` writes as report.json). */
export interface TuneReport {
  readonly tool: 'ledger-mm tune';
  readonly formatVersion: 1;
  readonly scenario: Pick<ScenarioInput, 'hours' | 'latency' | 'configFiles' | 'market'>;
  readonly params: readonly { readonly key: string; readonly values: readonly unknown[] }[];
  readonly objective: TuneObjective & { readonly text: string };
  /** The regimes every candidate ran in (absent: the scenario's market alone). */
  readonly regimes?: RegimeSpec;
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
  /** Run every candidate in these market regimes and rank on their mean or worst (default: none). */
  readonly regimes?: RegimeSpec;
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
  regimes?: RegimeSpec,
): CandidateScore {
  const pnl = runs.map((r) => Number(r.pnl));
  // Runs are regime-major: each regime's seeds in a row.
  const regimePnl =
    regimes === undefined
      ? undefined
      : Object.fromEntries(
          regimes.names.map((name, k) => [name, mean(pnl.slice(k * seeds.length, (k + 1) * seeds.length))]),
        );
  const perRegime = regimePnl === undefined ? [] : Object.values(regimePnl);
  const objectivePnl =
    regimes === undefined ? mean(pnl) : regimes.rankOn === 'worst' ? Math.min(...perRegime) : mean(perRegime);
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
    objectivePnl,
    ...(regimePnl === undefined ? {} : { regimePnl }),
  };
}

/** Best first: candidates meeting the constraints, then by the objective's PnL, then by index. */
export function rank(scores: readonly CandidateScore[]): CandidateScore[] {
  return [...scores].sort(
    (a, b) =>
      Number(a.misses.length > 0) - Number(b.misses.length > 0) ||
      b.objectivePnl - a.objectivePnl ||
      a.index - b.index,
  );
}

/** One run of a search: a candidate in a regime (or none) on a seed. */
export interface TuneJob {
  /** Position in the search's list of jobs (stable for the same options). */
  readonly position: number;
  readonly candidate: number;
  readonly regime: string | null;
  readonly seed: number;
}

/** A search's setup: every candidate (c0 first), its config file, and the scenario of a run. */
export class TuneSetup {
  readonly all: readonly Candidate[];
  private readonly files: readonly (string | null)[];
  /** The scenario's number of pairs (a run's heap bound grows with it). */
  private readonly pairs: number;

  constructor(readonly o: TuneOptions) {
    const dir = resolve(o.dir, 'candidates');
    mkdirSync(dir, { recursive: true });
    this.all = [{}, ...o.candidates];
    this.files = this.all.map((c, i) => {
      if (i === 0) return null;
      const file = join(dir, `c${i}.json`);
      writeFileSync(file, `${JSON.stringify(candidateConfig(o.params, c), null, 2)}\n`);
      return file;
    });
    // A candidate the config refuses (or an unknown regime) fails here, before any run.
    let pairs = 0;
    for (const regime of this.regimeList())
      this.all.forEach((_, i) => {
        const n = loadScenario(this.input(i, o.train[0] ?? 1, regime)).config.pairs.length;
        pairs = Math.max(pairs, n);
      });
    this.pairs = pairs;
  }

  /** The regimes each candidate runs in (`[null]`: the scenario's market alone). */
  regimeList(): readonly (string | null)[] {
    return this.o.regimes === undefined ? [null] : this.o.regimes.names;
  }

  /** The scenario of candidate `i` on `seed` in `regime`. */
  input(i: number, seed: number, regime: string | null): ScenarioInput {
    const file = this.files[i];
    return {
      ...this.o.input,
      seed,
      configFiles: file == null ? this.o.input.configFiles : [...this.o.input.configFiles, file],
      ...(regime === null ? {} : { regime }),
    };
  }

  /** The jobs of `indexes` on `seeds`: candidate-major, then regime, then seed. */
  jobs(indexes: readonly number[], seeds: readonly number[]): TuneJob[] {
    const out: TuneJob[] = [];
    for (const candidate of indexes)
      for (const regime of this.regimeList())
        for (const seed of seeds) out.push({ position: out.length, candidate, regime, seed });
    return out;
  }

  /** Runs `jobs`; their figures in the same order. */
  async run(jobs: readonly TuneJob[]): Promise<RunFigures[]> {
    const o = this.o;
    const runJobsList: RunJob[] = jobs.map((j) => ({
      label: `c${j.candidate}${j.regime === null ? '' : ` ${j.regime}`} seed ${j.seed}`,
      input: this.input(j.candidate, j.seed, j.regime),
      strategy: 'daemon',
      withSeries: false,
    }));
    const results = await runJobs(runJobsList, {
      ...(o.progress === undefined ? {} : { progress: o.progress }),
      ...(o.workers === undefined ? {} : { workers: o.workers }),
      ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
      pairs: this.pairs,
      onResult: (job, r) => o.onRunCost?.(job.label, r.cost),
    });
    return results.map((r) => r.figures);
  }

  /** The scores of `indexes` from the figures of {@link jobs}`(indexes, seeds)`, in that order. */
  scores(
    indexes: readonly number[],
    seeds: readonly number[],
    figures: readonly RunFigures[],
  ): CandidateScore[] {
    const per = this.regimeList().length * seeds.length;
    return indexes.map((i, k) =>
      score(i, this.all[i]!, seeds, figures.slice(k * per, (k + 1) * per), this.o.objective, this.o.regimes),
    );
  }

  /** Every candidate's index. */
  get indexes(): number[] {
    return this.all.map((_, i) => i);
  }

  /** The report from the training figures (every job of the training seeds), running the test seeds. */
  async finish(trainFigures: readonly RunFigures[]): Promise<TuneReport> {
    const o = this.o;
    const trainRanking = rank(this.scores(this.indexes, o.train, trainFigures));
    const chosen = trainRanking.slice(0, o.top).map((s) => s.index);
    if (!chosen.includes(0)) chosen.push(0);
    const byRank = new Map(trainRanking.map((s, r) => [s.index, r]));
    const testScores =
      o.test.length === 0 ? [] : this.scores(chosen, o.test, await this.run(this.jobs(chosen, o.test)));
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
      objective: { ...o.objective, text: objectiveText(o.objective, o.regimes) },
      ...(o.regimes === undefined ? {} : { regimes: o.regimes }),
      train: o.train,
      test: o.test,
      trainRanking,
      testScores: [...testScores].sort((a, b) => byRank.get(a.index)! - byRank.get(b.index)!),
    };
  }
}

/** Runs the search; see the module doc. Throws ConfigError or ScenarioError before running. */
export async function tune(o: TuneOptions): Promise<TuneReport> {
  const setup = new TuneSetup(o);
  return setup.finish(await setup.run(setup.jobs(setup.indexes, o.train)));
}

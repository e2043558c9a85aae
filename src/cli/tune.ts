/**
 * `ledger-mm tune`: a grid or random search over named strategy parameters on training seeds,
 * reported with the best few on test seeds the search never saw (see src/lab/tune/tune.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, formatConfigError } from '../config/errors.js';
import { ScenarioError, SIM_LATENCIES, type SimLatency } from '../lab/simulate/run/scenario.js';
import { parseSeedList } from '../lab/simulate/run/seed-list.js';
import { JOBS_HELP, MAX_JOBS, parseJobs } from '../lab/simulate/run/concurrency.js';
import { candidates, gridSize } from '../lab/tune/search.js';
import { formatTune } from '../lab/tune/tune-report.js';
import { parseTuneParam, TuneParamError, type TuneParam } from '../lab/tune/tune-params.js';
import type * as TuneModuleNs from '../lab/tune/tune.js';
import type * as ShardsModuleNs from '../lab/tune/shards.js';
import { parseShard, type ShardSpec } from '../lab/tune/shards.js';
import { suiteRegimes, SUITES } from '../lab/regimes/suite.js';
import type { RegimeRanking, RegimeSpec } from '../lab/tune/tune.js';
import { scrubText } from '../logging/redact.js';
import { EXIT, type Command, type CommandIo } from './command.js';

const DEFAULTS = {
  hours: 6,
  train: '1-4',
  test: '5-8',
  top: 3,
  out: 'var/tune',
  minCapturedBps: 0,
  minUptime: 0.95,
};
/** The most runs one search may ask for (candidates × training seeds). */
const MAX_RUNS = 2_000;

const USAGE = `Usage: ledger-mm tune --param KEY=V1,V2,... [--param ...] [options]

Searches strategy parameters in the simulator: every candidate (a combination of the values
given, plus c0, the config as it is) runs on the training seeds; candidates are ranked by the
objective; the best few and c0 then run on the test seeds, which the ranking never saw. What a
search finds on its training seeds alone proves nothing: read the test table.

Objective: maximise the mean PnL over the seeds, among candidates whose mean spread captured is
at least --min-captured bps, whose two-sided uptime is at least --min-uptime on every seed, and
that never halted. Candidates missing a constraint rank after those that meet them all.

Options:
  -p, --param KEY=V,...  A parameter and the values to try. KEY is a config path; a strategy
                         parameter may be named without "defaults" (strategy.spread.bidBps is
                         strategy.defaults.spread.bidBps). Any key of the strategy's parameter
                         tables works, whatever the quoting model. Keys joined by + are
                         tied: each value is set at all of them (a symmetric spread:
                         strategy.spread.bidBps+strategy.spread.askBps=20,30). Repeatable.
      --random N         Try N combinations drawn from the grid (seeded by --search-seed)
                         instead of all of them.
      --search-seed S    Seed of the random draw (default 1).
      --train LIST       Training seeds (default ${DEFAULTS.train}).
      --test LIST        Test seeds, disjoint from the training seeds (default ${DEFAULTS.test});
                         "none" for no test runs.
      --top N            How many of the best go on to the test seeds (default ${DEFAULTS.top}).
      --min-captured B   Least mean spread captured, bps (default ${DEFAULTS.minCapturedBps}).
      --min-uptime S     Least two-sided uptime on every seed, a share (default ${DEFAULTS.minUptime}).
      --hours H          Simulated hours a run (default ${DEFAULTS.hours}).
  -c, --config FILE      A daemon config file under every candidate. Repeatable.
      --latency PROFILE  realistic (default) or fast.
      --market FILE      The simulated venue (default: the package's config/sim.json).
      --out DIR          Where report.json and the candidates' config files go (default ${DEFAULTS.out}).
${JOBS_HELP}
      --regimes SUITE    Run every candidate in every market regime of SUITE (${Object.keys(SUITES).join(', ')}),
                         on every training (and test) seed, and rank on --rank-on.
      --rank-on HOW      With --regimes: "mean" (default), the mean over the regimes of each
                         regime's mean PnL, or "worst", the worst regime's mean PnL.
      --shard i/N        Run only the i-th of N slices of the training runs (every N-th run)
                         and write their figures to DIR/shard-i-of-N.json; no ranking.
      --collect DIR      Merge the shards in DIR (written by --shard with the same options),
                         rank, run the test seeds here and report as one run would. See
                         docs/lab/sweeps.md.
      --json             Print report.json instead of tables.
  -h, --help             Show this help.

Runs go in worker threads (see --jobs). Exit codes: 0 done; 1 a run failed; 2 bad usage or
invalid configuration.
`;

interface TuneArgs {
  readonly params: TuneParam[];
  readonly random: number | null;
  readonly searchSeed: string;
  readonly train: number[];
  readonly test: number[];
  readonly top: number;
  readonly minCapturedBps: number;
  readonly minUptime: number;
  readonly hours: number;
  readonly configFiles: string[];
  readonly latency: SimLatency;
  readonly market: string | null;
  readonly out: string;
  readonly json: boolean;
  /** `--jobs`: runs at once (null: the default). */
  readonly jobs: number | null;
  readonly regimes: RegimeSpec | null;
  readonly shard: ShardSpec | null;
  readonly collect: string | null;
}

const intIn = (text: string | undefined, def: number, min: number, max: number): number | null => {
  if (text === undefined) return def;
  return /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : null;
};
const numIn = (text: string | undefined, def: number, min: number, max: number): number | null => {
  if (text === undefined) return def;
  const n = /^-?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : NaN;
  return n >= min && n <= max ? n : null;
};

function parse(argv: string[]): TuneArgs | 'help' | { error: string } {
  let v: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values: v } = parseArgs({
      args: argv,
      options: {
        param: { type: 'string', short: 'p', multiple: true },
        random: { type: 'string' },
        'search-seed': { type: 'string' },
        train: { type: 'string' },
        test: { type: 'string' },
        top: { type: 'string' },
        'min-captured': { type: 'string' },
        'min-uptime': { type: 'string' },
        hours: { type: 'string' },
        config: { type: 'string', short: 'c', multiple: true },
        latency: { type: 'string' },
        market: { type: 'string' },
        out: { type: 'string' },
        jobs: { type: 'string' },
        regimes: { type: 'string' },
        'rank-on': { type: 'string' },
        shard: { type: 'string' },
        collect: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { error: scrubText(err instanceof Error ? err.message : String(err)) };
  }
  if (v['help'] === true) return 'help';
  const given = (v['param'] as string[] | undefined) ?? [];
  if (given.length === 0) return { error: 'give at least one --param KEY=V1,V2,...' };
  let params: TuneParam[];
  try {
    params = given.map(parseTuneParam);
  } catch (err) {
    if (err instanceof TuneParamError) return { error: err.message };
    throw err;
  }
  const keys = params.map((p) => p.key);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined) return { error: `--param ${twice} is given twice` };
  const train = parseSeedList((v['train'] as string | undefined) ?? DEFAULTS.train);
  if ('error' in train) return { error: `--train: ${train.error}` };
  const testText = (v['test'] as string | undefined) ?? DEFAULTS.test;
  const test = testText === 'none' ? [] : parseSeedList(testText);
  if ('error' in test) return { error: `--test: ${test.error}` };
  if (train.some((s) => test.includes(s))) return { error: '--train and --test must not share a seed' };
  const random = v['random'] === undefined ? null : intIn(v['random'] as string, 0, 1, MAX_RUNS);
  if (random === null && v['random'] !== undefined)
    return { error: `--random must be an integer in [1, ${MAX_RUNS}]` };
  const suite = (v['regimes'] as string | undefined) ?? null;
  if (suite !== null && SUITES[suite] === undefined)
    return { error: `--regimes: unknown suite "${suite}" (suites: ${Object.keys(SUITES).join(', ')})` };
  const rankOn = (v['rank-on'] as string | undefined) ?? 'mean';
  if (rankOn !== 'mean' && rankOn !== 'worst') return { error: '--rank-on must be mean or worst' };
  if (v['rank-on'] !== undefined && suite === null) return { error: '--rank-on needs --regimes' };
  const ranking: RegimeRanking = rankOn;
  const regimes = suite === null ? null : { names: suiteRegimes(suite).map((r) => r.name), rankOn: ranking };
  const shardText = v['shard'] as string | undefined;
  const shard = shardText === undefined ? null : parseShard(shardText);
  if (shard !== null && 'error' in shard) return { error: shard.error };
  const collect = (v['collect'] as string | undefined) ?? null;
  if (shard !== null && collect !== null) return { error: 'give --shard or --collect, not both' };
  const runs = Math.min(random ?? Infinity, gridSize(params)) * train.length * (regimes?.names.length ?? 1);
  if (runs > MAX_RUNS)
    return { error: `the search asks for ${runs} runs (at most ${MAX_RUNS}): use --random N` };
  const top = intIn(v['top'] as string | undefined, DEFAULTS.top, 1, 100);
  if (top === null) return { error: '--top must be an integer in [1, 100]' };
  const minCapturedBps = numIn(
    v['min-captured'] as string | undefined,
    DEFAULTS.minCapturedBps,
    -10_000,
    10_000,
  );
  if (minCapturedBps === null) return { error: '--min-captured must be a number of bps' };
  const minUptime = numIn(v['min-uptime'] as string | undefined, DEFAULTS.minUptime, 0, 1);
  if (minUptime === null) return { error: '--min-uptime must be a share in [0, 1]' };
  const hours = numIn(v['hours'] as string | undefined, DEFAULTS.hours, 0, 24 * 31);
  if (hours === null || hours <= 0) return { error: '--hours must be a number in (0, 744]' };
  const latency = (v['latency'] as string | undefined) ?? 'realistic';
  if (!(SIM_LATENCIES as readonly string[]).includes(latency))
    return { error: `--latency must be one of ${SIM_LATENCIES.join(', ')}` };
  const jobs = parseJobs(v['jobs'] as string | undefined);
  if (jobs === undefined) return { error: `--jobs must be an integer in [1, ${MAX_JOBS}]` };
  return {
    params,
    random,
    searchSeed: (v['search-seed'] as string | undefined) ?? '1',
    train,
    test,
    top,
    minCapturedBps,
    minUptime,
    hours,
    configFiles: (v['config'] as string[] | undefined) ?? [],
    latency: latency as SimLatency,
    market: (v['market'] as string | undefined) ?? null,
    out: (v['out'] as string | undefined) ?? DEFAULTS.out,
    json: v['json'] === true,
    jobs,
    regimes,
    shard,
    collect,
  };
}

/** Seams of {@link runTune} (tests). */
export interface TuneSeams {
  readonly workers?: boolean;
}

/** The command's body, with its seams. */
export async function runTune(argv: string[], io: CommandIo, seams: TuneSeams = {}): Promise<number> {
  const args = parse(argv);
  if (args === 'help') {
    io.stdout(USAGE);
    return EXIT.OK;
  }
  if ('error' in args) {
    io.stderr(`ledger-mm tune: ${args.error}\n\n${USAGE}`);
    return EXIT.USAGE;
  }
  // Loaded on demand, as simulate's modules are: they need @sinonjs/fake-timers.
  const lab: typeof TuneModuleNs & typeof ShardsModuleNs = {
    ...(await import('../lab/tune/tune.js')),
    ...(await import('../lab/tune/shards.js')),
  };
  const out = resolve(io.cwd, args.out);
  const started = performance.now();
  let report;
  try {
    const options = {
      input: { ...args, seed: args.train[0]!, cwd: io.cwd, env: io.env },
      params: args.params,
      candidates: candidates(args.params, args.random, args.searchSeed),
      train: args.train,
      test: args.test,
      top: args.top,
      objective: { minCapturedBps: args.minCapturedBps, minUptime: args.minUptime, maxHalts: 0 },
      dir: out,
      progress: { write: io.stderr, tty: process.stderr.isTTY === true },
      ...(seams.workers === undefined ? {} : { workers: seams.workers }),
      ...(args.jobs === null ? {} : { concurrency: args.jobs }),
      ...(args.regimes === null ? {} : { regimes: args.regimes }),
    };
    if (args.shard !== null) {
      // Each shard writes the candidates' config files in a directory of its own (pods of one
      // sweep share DIR), and its figures beside the others' in DIR.
      const own = join(out, `work-${args.shard.index}-of-${args.shard.count}`);
      const file = await lab.tuneShard({ ...options, dir: own }, args.shard, out);
      io.stdout(`wrote ${file} (shard ${args.shard.index}/${args.shard.count})\n`);
      return EXIT.OK;
    }
    report =
      args.collect === null
        ? await lab.tune(options)
        : await lab.collectTune(options, resolve(io.cwd, args.collect));
  } catch (err) {
    if (err instanceof lab.ShardError) {
      io.stderr(`ledger-mm tune: ${err.message}\n`);
      return EXIT.USAGE;
    }
    if (err instanceof ConfigError) {
      io.stderr(`ledger-mm tune: invalid configuration:\n${formatConfigError(err)}\n`);
      return EXIT.USAGE;
    }
    if (err instanceof ScenarioError) {
      io.stderr(`ledger-mm tune: ${err.message}\n`);
      return EXIT.USAGE;
    }
    io.stderr(
      `ledger-mm tune: a run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    return EXIT.FAILED;
  }
  mkdirSync(out, { recursive: true });
  const file = join(out, 'report.json');
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const wall = ((performance.now() - started) / 1000).toFixed(1);
  if (args.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout(`${formatTune(report)}\nwrote ${file}; wall time ${wall} s\n`);
  return EXIT.OK;
}

/** The `tune` command. */
export const tuneCommand: Command = {
  name: 'tune',
  usage: USAGE,
  run: (argv, io) => runTune(argv, io),
};

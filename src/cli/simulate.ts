/**
 * `ledger-mm simulate`: the unchanged daemon against the simulated venue in one process, on a
 * fake clock, for hours of simulated time in seconds; figures from the venue's ground truth, a
 * report (`report.json`, self-contained `report.html`) and, with `--compare`, the baselines.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, formatConfigError } from '../config/errors.js';
import { ScenarioError, SIM_LATENCIES, type SimLatency } from '../lab/simulate/run/scenario.js';
import { parseSeedList } from '../lab/simulate/run/seed-list.js';
import { JOBS_HELP, MAX_JOBS, parseJobs } from '../lab/simulate/run/concurrency.js';
import { BASELINE_NAMES, type StrategyName } from '../lab/simulate/run/strategies.js';
import { DEFAULT_SUITE, SUITES } from '../lab/regimes/suite.js';
import { formatRegimesSummary } from '../lab/regimes/regimes-report.js';
import type * as RegimesModuleNs from '../lab/regimes/run-regimes.js';
import { loadReplays, parsePriceArg } from '../lab/replay/load-replays.js';
import { DEFAULT_MAX_GAP_MS, ReplayError } from '../lab/replay/price-series.js';
import type { RunCost } from '../lab/simulate/run/strategy-protocol.js';
import { formatSummary } from '../lab/simulate/render/summary-table.js';
import { formatSeedsSummary } from '../lab/simulate/figures/seeds-report.js';
import { withoutSeries } from '../lab/simulate/figures/report.js';
import type * as SimulateModuleNs from '../lab/simulate/run/simulate.js';
import type * as MultiSeedModuleNs from '../lab/simulate/run/multi-seed.js';
import { scrubText } from '../logging/redact.js';
import { EXIT, type Command, type CommandIo } from './command.js';

const DEFAULT_HOURS = 24;
const MAX_HOURS = 24 * 31;
const DEFAULT_SEED = 1;
const DEFAULT_OUT = 'var/simulate';

const USAGE = `Usage: ledger-mm simulate [options]

Runs the daemon (strategy, reconciler, pipeline, pollers, risk gate: unchanged) against the
simulated venue in one process on a fake clock, for hours of simulated time. Every figure comes
from the venue's ground truth: two-sided uptime, time to the first two-sided quote, requote
latency, pipeline utilisation, placements and cancels per hour, abandoned and expired prepares,
fills, volume, quoted spread, spread captured, inventory, PnL and drawdown, invariant breaks.
It states the venue's own limit for the run's latencies and the daemon's share of it.

Writes DIR/report.json and DIR/report.html (one self-contained page with inline SVG charts) and
prints a summary. The same seed and config give the same report.json.

Options:
      --hours H          Simulated hours, > 0 and up to ${MAX_HOURS} (default ${DEFAULT_HOURS}).
  -s, --seed S           Seed of the simulated venue and market: an integer or any string
                         (default ${DEFAULT_SEED}).
      --seeds LIST       Run every seed of LIST (1-8, 1,3,5 or 1-4,9): per-seed rows, then the
                         mean, minimum and maximum of every figure (with --compare, per
                         strategy). Writes DIR/report.json and DIR/report.html over the seeds
                         and each seed's own report in DIR/seed-N/. Not with --seed.
  -c, --config FILE      A daemon config file layered over the package's config/paper.json.
                         Repeatable.
      --latency PROFILE  realistic (default: the venue's own figures, about 45 s per placement)
                         or fast (all latencies × 0.05).
      --market FILE      The simulated venue: a sim config file, or only its "market" section
                         (default: the package's config/sim.json).
      --out DIR          Where the report goes (default ${DEFAULT_OUT}).
      --compare          Also run the baselines on the same seed and market, and print each
                         figure beside the daemon's with its ratio: cancel-then-replace (cancel
                         all, wait, place all again) and no-tolerance (priceToleranceBps 0).
      --baseline NAME    With --compare or --regimes, run only this baseline (repeatable):
                         ${BASELINE_NAMES.join(', ')}.
      --prices PAIR=FILE Drive PAIR's reference from a recorded series instead of the model, on
                         the same fake clock, takers and background makers acting around it
                         (repeatable, one per pair). FILE is CSV (timestamp,price, or trades
                         with a time and a price column) or Parquet; see docs/lab/replay.md.
      --max-gap S        The widest gap between recorded rows, seconds (default
                         ${DEFAULT_MAX_GAP_MS / 1000}); a wider one is an error, never interpolated.
      --parties N        Split the daemon's account into N parties (1 to 16, default 1): the
                         same total funds divided evenly, each party with its own key, wallet
                         and placement pipeline, run as one market maker (firm.parties).
      --regimes [SUITE]  Run the scenario in every market regime of SUITE (default
                         ${DEFAULT_SUITE}: ${(SUITES[DEFAULT_SUITE] ?? []).map((r) => r.name).join(', ')}) on every
                         seed of --seeds (default 1-4), beside cancel-then-replace and the tuned
                         plain spread model (tuned-spread): per regime the mean PnL, spread
                         captured, markout, inventory std, uptime and halts, the worst regime
                         named, and the targets. DIR/report.json and DIR/report.html over the
                         regimes, each regime's multi-seed report in DIR/<regime>/. See
                         docs/lab/market-regimes.md.
${JOBS_HELP}
      --json             Print the report (without its chart series) as JSON instead of tables.
  -h, --help             Show this help.

Runs go in worker threads (see --jobs), each with a bounded heap. Progress goes to stderr (a
bar on a terminal, a line per tenth otherwise), and so does each run's wall time and peak heap.

Exit codes: 0 done; 1 an invariant was broken (duplicate live orders, overlapping placements) or
the simulation failed; 2 bad usage or invalid configuration.
`;

/** The parsed command line. */
interface SimulateArgs {
  readonly hours: number;
  readonly seed: number | string;
  /** `--seeds`, or null for one seed. */
  readonly seeds: readonly number[] | null;
  readonly configFiles: string[];
  readonly latency: SimLatency;
  readonly market: string | null;
  readonly out: string;
  readonly compare: boolean;
  /** `--baseline`: the baselines `--compare` runs (null: all). */
  readonly baselines: readonly StrategyName[] | null;
  readonly json: boolean;
  /** `--jobs`: runs at once (null: the default). */
  readonly jobs: number | null;
  /** `--regimes SUITE`, or null. */
  readonly regimes: string | null;
  /** `--prices`: pair → file (absent: none). */
  readonly prices?: Readonly<Record<string, string>>;
  /** `--max-gap`, ms (absent: the default). */
  readonly maxGapMs?: number;
  /** `--parties`: the daemon's funds split over this many parties (absent: one). */
  readonly parties?: number;
}

/** Seams of {@link runSimulate} (tests). */
export interface SimulateSeams {
  /** Whether stderr is a terminal (default `process.stderr.isTTY`). */
  readonly stderrIsTTY?: boolean;
  /** Run strategies in worker threads when possible (default true). */
  readonly workers?: boolean;
}

function parseSeed(text: string): number | string {
  if (/^\d{1,10}$/.test(text) && Number(text) <= 0xffffffff) return Number(text);
  return text;
}

function parse(argv: string[]): SimulateArgs | 'help' | { error: string } {
  let v: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values: v } = parseArgs({
      args: withDefaultSuite(argv),
      options: {
        hours: { type: 'string' },
        seed: { type: 'string', short: 's' },
        seeds: { type: 'string' },
        config: { type: 'string', short: 'c', multiple: true },
        latency: { type: 'string' },
        market: { type: 'string' },
        out: { type: 'string' },
        compare: { type: 'boolean', default: false },
        baseline: { type: 'string', multiple: true },
        regimes: { type: 'string' },
        prices: { type: 'string', multiple: true },
        'max-gap': { type: 'string' },
        parties: { type: 'string' },
        jobs: { type: 'string' },
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
  const hoursText = (v['hours'] as string | undefined) ?? String(DEFAULT_HOURS);
  const hours = /^(\d+\.?\d*|\.\d+)$/.test(hoursText) ? Number(hoursText) : NaN;
  if (!(hours > 0 && hours <= MAX_HOURS))
    return { error: `--hours must be a number in (0, ${MAX_HOURS}], got "${hoursText}"` };
  const latency = (v['latency'] as string | undefined) ?? 'realistic';
  if (!(SIM_LATENCIES as readonly string[]).includes(latency)) {
    return { error: `--latency must be one of ${SIM_LATENCIES.join(', ')}` };
  }
  const seed = v['seed'] as string | undefined;
  if (seed === '') return { error: '--seed must not be empty' };
  const seedsText = v['seeds'] as string | undefined;
  if (seedsText !== undefined && seed !== undefined) return { error: 'give --seed or --seeds, not both' };
  const seeds = seedsText === undefined ? null : parseSeedList(seedsText);
  if (seeds !== null && 'error' in seeds) return { error: `--seeds: ${seeds.error}` };
  const baselines = (v['baseline'] as string[] | undefined) ?? null;
  const unknown = baselines?.find((b) => !(BASELINE_NAMES as readonly string[]).includes(b));
  if (unknown !== undefined)
    return { error: `--baseline must be one of ${BASELINE_NAMES.join(', ')}, got "${unknown}"` };
  const regimes = (v['regimes'] as string | undefined) ?? null;
  if (regimes !== null && SUITES[regimes] === undefined)
    return { error: `--regimes: unknown suite "${regimes}" (suites: ${Object.keys(SUITES).join(', ')})` };
  if (regimes !== null && seed !== undefined)
    return { error: '--regimes runs --seeds (default 1-4), not --seed' };
  if (baselines !== null && v['compare'] !== true && regimes === null)
    return { error: '--baseline needs --compare or --regimes' };
  const jobs = parseJobs(v['jobs'] as string | undefined);
  if (jobs === undefined) return { error: `--jobs must be an integer in [1, ${MAX_JOBS}]` };
  const prices: Record<string, string> = {};
  for (const text of (v['prices'] as string[] | undefined) ?? []) {
    const p = parsePriceArg(text);
    if ('error' in p) return { error: p.error };
    if (prices[p.pair] !== undefined) return { error: `--prices ${p.pair} is given twice` };
    prices[p.pair] = p.file;
  }
  const gapText = v['max-gap'] as string | undefined;
  const maxGap = gapText === undefined ? null : /^(\d+\.?\d*|\.\d+)$/.test(gapText) ? Number(gapText) : NaN;
  if (maxGap !== null && !(maxGap > 0))
    return { error: `--max-gap must be a number of seconds > 0, got "${gapText}"` };
  if (maxGap !== null && Object.keys(prices).length === 0) return { error: '--max-gap needs --prices' };
  const partiesText = v['parties'] as string | undefined;
  const parties = partiesText === undefined ? 1 : /^\d{1,2}$/.test(partiesText) ? Number(partiesText) : NaN;
  if (!(parties >= 1 && parties <= 16))
    return { error: `--parties must be an integer from 1 to 16, got "${partiesText ?? ''}"` };
  return {
    ...(parties === 1 ? {} : { parties }),
    ...(Object.keys(prices).length === 0 ? {} : { prices }),
    ...(maxGap === null ? {} : { maxGapMs: maxGap * 1000 }),
    hours,
    seed: seed === undefined ? DEFAULT_SEED : parseSeed(seed),
    seeds,
    configFiles: (v['config'] as string[] | undefined) ?? [],
    latency: latency as SimLatency,
    market: (v['market'] as string | undefined) ?? null,
    out: (v['out'] as string | undefined) ?? DEFAULT_OUT,
    compare: v['compare'] === true,
    baselines: baselines as StrategyName[] | null,
    json: v['json'] === true,
    jobs,
    regimes,
  };
}

/** `--regimes` with no suite after it (last, or before another option) names the default suite. */
function withDefaultSuite(argv: string[]): string[] {
  return argv.flatMap((a, i) =>
    a === '--regimes' && (i === argv.length - 1 || argv[i + 1]!.startsWith('-')) ? [a, DEFAULT_SUITE] : [a],
  );
}

type SimulateModule = typeof SimulateModuleNs & typeof MultiSeedModuleNs & typeof RegimesModuleNs;

/**
 * The simulation modules, loaded on demand: they drive the daemon with @sinonjs/fake-timers, and
 * every other command must start without it. A string says why they cannot load.
 */
async function loadLab(): Promise<SimulateModule | string> {
  try {
    return {
      ...(await import('../lab/simulate/run/simulate.js')),
      ...(await import('../lab/simulate/run/multi-seed.js')),
      ...(await import('../lab/regimes/run-regimes.js')),
    };
  } catch (err) {
    const missing =
      (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String(err).includes('fake-timers');
    if (!missing) throw err;
    return 'this installation lacks @sinonjs/fake-timers, which simulations run on (install the package with its dependencies)';
  }
}

/** The command's body, with its seams. */
export async function runSimulate(argv: string[], io: CommandIo, seams: SimulateSeams = {}): Promise<number> {
  const args = parse(argv);
  if (args === 'help') {
    io.stdout(USAGE);
    return EXIT.OK;
  }
  if ('error' in args) {
    io.stderr(`ledger-mm simulate: ${args.error}\n\n${USAGE}`);
    return EXIT.USAGE;
  }
  const lab = await loadLab();
  if (typeof lab === 'string') {
    io.stderr(`ledger-mm simulate: ${lab}\n`);
    return EXIT.FAILED;
  }
  const started = performance.now();
  const costs = (label: string, c: RunCost): void =>
    io.stderr(
      `ledger-mm simulate: ${label} took ${(c.wallMs / 1000).toFixed(1)} s wall, peak heap ${c.peakHeapMb.toFixed(0)} MiB\n`,
    );
  const common = {
    input: { ...args, cwd: io.cwd, env: io.env },
    compare: args.compare,
    ...(args.baselines === null ? {} : { baselines: args.baselines }),
    progress: { write: io.stderr, tty: seams.stderrIsTTY ?? process.stderr.isTTY === true },
    onRunCost: costs,
    ...(seams.workers === undefined ? {} : { workers: seams.workers }),
    ...(args.jobs === null ? {} : { concurrency: args.jobs }),
  };
  const out = resolve(io.cwd, args.out);
  if (args.prices !== undefined) {
    // Read every series once here, so a bad file fails before any run starts.
    try {
      await loadReplays({
        prices: args.prices,
        cwd: io.cwd,
        durationMs: Math.round(args.hours * 3_600_000),
        ...(args.maxGapMs === undefined ? {} : { maxGapMs: args.maxGapMs }),
      });
    } catch (err) {
      if (!(err instanceof ReplayError)) throw err;
      io.stderr(`ledger-mm simulate: ${err.message}\n`);
      return EXIT.USAGE;
    }
  }
  let text: string;
  let json: unknown;
  let files: { json: string; html: string };
  let ok: boolean;
  try {
    if (args.regimes !== null) {
      const report = await lab.simulateRegimes({
        ...common,
        suite: args.regimes,
        seeds: args.seeds ?? [1, 2, 3, 4],
        dir: out,
        onRegime: (name, i, n) => io.stderr(`ledger-mm simulate: regime ${i + 1}/${n}: ${name}\n`),
      });
      files = lab.writeRegimesReport(report, out);
      text = formatRegimesSummary(report);
      json = report;
      // The targets are findings to read; a broken invariant is a failed run.
      ok = report.checks.every((c) => c.name !== 'zero invariant breaks' || c.ok);
    } else if (args.seeds === null) {
      const report = await lab.simulate(common);
      files = lab.writeReport(report, out);
      text = formatSummary(report);
      json = withoutSeries(report);
      ok = report.runs.every((r) => r.invariantBreaks.total === 0);
    } else {
      const report = await lab.simulateSeeds({
        ...common,
        seeds: args.seeds,
        onSeed: (r) => lab.writeReport(r, lab.seedDir(out, r.scenario.seed)),
      });
      files = lab.writeSeedsReport(report, out);
      text = formatSeedsSummary(report);
      json = report;
      ok = report.seeds.every((x) => x.runs.every((r) => r.invariantBreaks.total === 0));
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr(`ledger-mm simulate: invalid configuration:\n${formatConfigError(err)}\n`);
      return EXIT.USAGE;
    }
    if (err instanceof ScenarioError) {
      io.stderr(`ledger-mm simulate: ${err.message}\n`);
      return EXIT.USAGE;
    }
    io.stderr(
      `ledger-mm simulate: the simulation failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    return EXIT.FAILED;
  }
  const wall = ((performance.now() - started) / 1000).toFixed(1);
  const rss = (process.resourceUsage().maxRSS / 1024).toFixed(0);
  const written = `wrote ${files.json} and ${files.html}; wall time ${wall} s, peak RSS of the process ${rss} MiB`;
  if (args.json) {
    io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    io.stderr(`ledger-mm simulate: ${written}\n`);
  } else io.stdout(`${text}\n${written}\n`);
  return ok ? EXIT.OK : EXIT.FAILED;
}

/** The `simulate` command. */
export const simulateCommand: Command = {
  name: 'simulate',
  usage: USAGE,
  run: (argv, io) => runSimulate(argv, io),
};

/**
 * `npm run bench` (`scripts/bench.cjs` → {@link main}): prints figures, it is not a test.
 *
 * - placement: local CPU per placement and per cancel (execution layer + journal, instant venue);
 * - polls: CPU per book, trades, orders and balances poll and per quote cycle;
 * - scrape: the metrics scrape (`lab/bench/metrics-bench.ts`);
 * - memory: RSS and heap of `ledger-mm paper --latency fast` (a child process, real time, 10 min;
 *   its growth is judged only on runs of 111 minutes or more: an 81-minute warm-up, then 30);
 * - longrun: the live heap over simulated hours of paper trading in-process (growth per hour),
 *   as shipped and with the bounds off;
 * - sim: simulated hours per wall-clock second of the `ledger-mm simulate` runner.
 *
 * The memory run is real time; the CPU parts run meanwhile in this process (the child barely
 * uses a core), unless `--serial`.
 */
import { parseArgs } from 'node:util';
import { runMetricsBench } from './metrics-bench.js';
import { runLongRun } from './long-run.js';
import { machineInfo } from './measure.js';
import { runPaperMemory, type PaperMemoryResult } from './paper-memory.js';
import { runPlacementBench } from './placement-bench.js';
import { runPollBench } from './poll-bench.js';
import { checksOf, formatReport, type BenchReport } from './report.js';
import { runSimSpeed } from './sim-speed.js';

export const BENCH_PARTS = ['placement', 'polls', 'scrape', 'memory', 'longrun', 'sim'] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

/** Parsed command line. */
export interface BenchArgs {
  readonly quick: boolean;
  readonly json: boolean;
  readonly serial: boolean;
  readonly parts: readonly BenchPart[];
  readonly placements: number;
  readonly pollRuns: number;
  readonly scrapes: number;
  readonly memoryMs: number;
  readonly longRunHours: number;
  readonly simulatedMs: number;
  /** The CLI the memory part runs (default this build's). */
  readonly cli?: string;
  /** Where the placement part writes its journal (default the temp directory). */
  readonly journalDir?: string;
}

export const USAGE = `Usage: npm run bench -- [options]     (or, after a build: node scripts/bench.cjs [options])

Prints performance figures of ledger-mm on this machine (not a test; exit 0 unless a part fails).

  --quick            short runs: 500 placements, 2 minutes of paper mode, 2 simulated hours of
                     the long run, 30 simulated minutes of the speed run
  --json             one JSON document on stdout instead of the tables (progress on stderr)
  --only LIST        comma-separated parts: ${BENCH_PARTS.join(', ')} (default all)
  --serial           run the paper-mode memory part alone, after the CPU parts
  --placements N     placements (and cancels) measured (default 2000; quick 500)
  --minutes N        paper-mode duration in minutes (default 10; quick 2). Its growth is judged
                     from 111 minutes on: an 81-minute warm-up (the venue's retained history
                     filling), then at least 30 minutes of steady state; shorter runs show it
                     for information only
  --long-hours H     simulated hours of each long run (default 6; quick 2)
  --sim-hours H      simulated hours of the speed run (default 2; quick 0.5)
  --cli PATH         the ledger-mm CLI the memory part runs (default dist/cli/main.js)
  --journal-dir DIR  where the placement part writes its journal (default the temp directory;
                     e.g. /dev/shm to see the cost without the disk's fsyncs)
  -h, --help
`;

/** What the command line asks for: a run, the usage, or a usage error. */
export type ParsedBenchArgs =
  | { readonly kind: 'run'; readonly args: BenchArgs }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** Parses argv. */
export function parseBenchArgs(argv: readonly string[]): ParsedBenchArgs {
  const error = (message: string): ParsedBenchArgs => ({ kind: 'error', message });
  let v;
  try {
    ({ values: v } = parseArgs({
      args: [...argv],
      options: {
        quick: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        serial: { type: 'boolean', default: false },
        only: { type: 'string' },
        placements: { type: 'string' },
        minutes: { type: 'string' },
        'long-hours': { type: 'string' },
        'sim-hours': { type: 'string' },
        cli: { type: 'string' },
        'journal-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return error(err instanceof Error ? err.message : String(err));
  }
  if (v.help) return { kind: 'help' };
  const quick = v.quick;
  const num = (s: string | undefined, name: string, fallback: number): number | string => {
    if (s === undefined) return fallback;
    const n = Number(s);
    return Number.isFinite(n) && n > 0 ? n : `--${name} must be a positive number`;
  };
  const placements = num(v.placements, 'placements', quick ? 500 : 2000);
  const minutes = num(v.minutes, 'minutes', quick ? 2 : 10);
  const hours = num(v['sim-hours'], 'sim-hours', quick ? 0.5 : 2);
  const longHours = num(v['long-hours'], 'long-hours', quick ? 2 : 6);
  for (const x of [placements, minutes, hours, longHours]) if (typeof x === 'string') return error(x);
  const parts = v.only === undefined ? [...BENCH_PARTS] : v.only.split(',').map((s) => s.trim());
  const unknown = parts.filter((p) => !(BENCH_PARTS as readonly string[]).includes(p));
  if (unknown.length > 0)
    return error(`unknown part(s) ${unknown.join(', ')}; parts: ${BENCH_PARTS.join(', ')}`);
  const args: BenchArgs = {
    quick,
    json: v.json,
    serial: v.serial,
    parts: parts as BenchPart[],
    placements: Math.round(placements as number),
    pollRuns: quick ? 200 : 500,
    scrapes: quick ? 100 : 500,
    memoryMs: Math.round((minutes as number) * 60_000),
    longRunHours: longHours as number,
    simulatedMs: Math.round((hours as number) * 3_600_000),
    ...(v.cli === undefined ? {} : { cli: v.cli }),
    ...(v['journal-dir'] === undefined ? {} : { journalDir: v['journal-dir'] }),
  };
  return { kind: 'run', args };
}

/** Runs the parts asked for; `progress` gets one line per step. */
export async function runBench(a: BenchArgs, progress: (line: string) => void): Promise<BenchReport> {
  const startedAt = new Date().toISOString();
  const errors: { part: string; error: string }[] = [];
  const want = (p: BenchPart): boolean => a.parts.includes(p);
  const attempt = async <T>(part: BenchPart, fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (err) {
      errors.push({ part, error: err instanceof Error ? err.message : String(err) });
      progress(`${part}: failed`);
      return undefined;
    }
  };
  const memory = (): Promise<PaperMemoryResult | undefined> =>
    attempt('memory', () => {
      progress(`memory: ledger-mm paper --latency fast for ${a.memoryMs / 60_000} min (real time)`);
      return runPaperMemory({
        durationMs: a.memoryMs,
        ...(a.cli === undefined ? {} : { cli: a.cli }),
        onSample: (s, total) =>
          progress(
            `memory: ${(s.t / 60_000).toFixed(1)}/${total / 60_000} min  RSS ${(s.rssBytes / 2 ** 20).toFixed(1)} MiB  heap ${(s.heapUsedBytes / 2 ** 20).toFixed(1)} MiB  registry ${s.registryOrders ?? '-'}`,
          ),
      });
    });
  const memoryRun = want('memory') && !a.serial ? memory() : null;
  const placement = want('placement')
    ? await attempt('placement', () => {
        progress(`placement: ${a.placements} placements and cancels`);
        return runPlacementBench({
          placements: a.placements,
          ...(a.journalDir === undefined ? {} : { journalDir: a.journalDir }),
        });
      })
    : undefined;
  const polls = want('polls')
    ? await attempt('polls', () => {
        progress(`polls: ${a.pollRuns} runs per loop`);
        return runPollBench({ runs: a.pollRuns });
      })
    : undefined;
  const scrape = want('scrape')
    ? await attempt('scrape', () => {
        progress(`scrape: ${a.scrapes} scrapes`);
        return runMetricsBench(a.scrapes);
      })
    : undefined;
  const longRun = want('longrun')
    ? await attempt('longrun', () => {
        progress(
          `longrun: ${a.longRunHours} simulated hours of paper trading, twice (as shipped, unbounded)`,
        );
        return runLongRun({
          hours: a.longRunHours,
          sampleMs: a.longRunHours <= 2 ? 900_000 : 1_800_000,
          onSample: (config, hours, heapMiB) =>
            progress(`longrun: ${config}: ${hours.toFixed(2)} h, live heap ${heapMiB.toFixed(1)} MiB`),
        });
      })
    : undefined;
  const simSpeed = want('sim')
    ? await attempt('sim', () => {
        progress(`sim: ${a.simulatedMs / 3_600_000} simulated hours at realistic latency`);
        return runSimSpeed({ simulatedMs: a.simulatedMs });
      })
    : undefined;
  const mem = memoryRun !== null ? await memoryRun : want('memory') ? await memory() : undefined;
  const base = {
    bench: 'ledger-mm' as const,
    startedAt,
    quick: a.quick,
    machine: machineInfo(),
    ...(placement === undefined ? {} : { placement }),
    ...(polls === undefined ? {} : { polls }),
    ...(scrape === undefined ? {} : { scrape }),
    ...(mem === undefined ? {} : { memory: mem }),
    ...(longRun === undefined ? {} : { longRun }),
    ...(simSpeed === undefined ? {} : { simSpeed }),
    errors,
  };
  return { ...base, checks: checksOf(base) };
}

/** The script's entry: parse, run, print. Resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseBenchArgs(argv);
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`bench: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  const a = parsed.args;
  const report = await runBench(a, (line) => process.stderr.write(`bench: ${line}\n`));
  process.stdout.write(a.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.errors.length > 0 ? 1 : 0;
}

/**
 * The figures of `npm run bench`, as one JSON document (`--json`) or as readable tables, with the
 * acceptance checks of the issue: ≤ 2 ms of local CPU per placement; paper mode's RSS ≤ 150 MB
 * and no growth beyond noise over at least 30 minutes after its warm-up.
 */
import type { MetricsBenchResult } from './metrics-bench.js';
import type { LongRunResult } from './long-run.js';
import type { MachineInfo } from './measure.js';
import { MIN_STEADY_MS, type PaperMemoryResult } from './paper-memory.js';
import type { OpFigures, PlacementBenchResult } from './placement-bench.js';
import type { PollBenchResult } from './poll-bench.js';
import type { SimSpeedResult } from './sim-speed.js';

/** Everything one run measured (a part left out by `--only` is absent). */
export interface BenchReport {
  readonly bench: 'ledger-mm';
  readonly startedAt: string;
  readonly quick: boolean;
  readonly machine: MachineInfo;
  readonly placement?: PlacementBenchResult;
  readonly polls?: PollBenchResult;
  readonly scrape?: MetricsBenchResult;
  readonly memory?: PaperMemoryResult;
  readonly longRun?: LongRunResult;
  readonly simSpeed?: SimSpeedResult;
  readonly checks: readonly Check[];
  /** Parts that failed, with the error. */
  readonly errors: readonly { readonly part: string; readonly error: string }[];
}

/** One acceptance check; `pass` null: shown for information (the run was too short to judge). */
export interface Check {
  readonly check: string;
  readonly limit: string;
  readonly measured: string;
  readonly pass: boolean | null;
}

/** The acceptance limits. */
export const LIMITS = { placementLocalUs: 2_000, rssMiB: 150 } as const;

/** The checks a report's figures allow. */
export function checksOf(r: Omit<BenchReport, 'checks'>): Check[] {
  const out: Check[] = [];
  if (r.placement !== undefined) {
    const p = r.placement.placements;
    out.push({
      check: 'local CPU per placement',
      limit: `≤ ${ms(LIMITS.placementLocalUs)}`,
      measured: ms(p.localUs),
      pass: p.localUs <= LIMITS.placementLocalUs && p.failures === 0,
    });
  }
  if (r.memory !== undefined) {
    const m = r.memory;
    const window = `${windowText(m)}${m.judged ? '' : ' (warm-up)'}`;
    out.push({
      check: 'paper RSS (steady state)',
      limit: `≤ ${LIMITS.rssMiB} MiB`,
      measured: `${m.rssMiB.toFixed(1)} MiB (peak ${m.peakRssMiB.toFixed(1)})`,
      pass: m.peakRssMiB <= LIMITS.rssMiB,
    });
    for (const [name, g] of [
      ['RSS', m.rss],
      ['heap', m.heap],
    ] as const) {
      out.push({
        check: `paper ${name} growth, ${window}`,
        limit: 'within noise',
        measured: `${signed(g.slopeMiBPerMin * 60)} MiB/h (Δ ${signed(g.deltaMiB)} MiB, noise ±${g.noiseMiB.toFixed(2)})`,
        pass: m.judged ? !g.growing : null,
      });
    }
  }
  return out;
}

/** The readable report. */
export function formatReport(r: BenchReport): string {
  const out: string[] = [];
  const m = r.machine;
  out.push(`ledger-mm bench${r.quick ? ' (--quick)' : ''}  ${r.startedAt}`);
  out.push(
    `machine: ${m.cpu}, ${m.cores} cores, ${(m.totalMemoryMiB / 1024).toFixed(1)} GiB, Node ${m.node}, ${m.platform}`,
  );
  if (r.placement !== undefined) out.push('', ...placementSection(r.placement));
  if (r.polls !== undefined) out.push('', ...pollSection(r.polls));
  if (r.scrape !== undefined) out.push('', ...scrapeSection(r.scrape));
  if (r.memory !== undefined) out.push('', ...memorySection(r.memory));
  if (r.longRun !== undefined) out.push('', ...longRunSection(r.longRun));
  if (r.simSpeed !== undefined) out.push('', ...simSection(r.simSpeed));
  if (r.checks.length > 0) {
    out.push('', 'Acceptance');
    out.push(
      ...table(
        ['check', 'limit', 'measured', ''],
        r.checks.map((c) => [
          c.check,
          c.limit,
          c.measured,
          c.pass === null ? 'info' : c.pass ? 'PASS' : 'FAIL',
        ]),
        [false, false, false, false],
      ),
    );
  }
  if (r.memory !== undefined && !r.memory.judged) {
    const judgedFrom = (r.memory.warmupMs + MIN_STEADY_MS) / 60_000;
    out.push(
      `  info: paper mode's memory fills bounded windows for ${minutes(r.memory.warmupMs)} (the venue keeps ended orders 60 min and dead commands 80 min, the registry terminal orders 10 min); growth is judged over at least ${minutes(MIN_STEADY_MS)} after that: --minutes ${Math.ceil(judgedFrom)} or more.`,
    );
  }
  for (const e of r.errors) out.push('', `${e.part}: FAILED: ${e.error}`);
  return `${out.join('\n')}\n`;
}

function placementSection(p: PlacementBenchResult): string[] {
  const row = (name: string, f: OpFigures): string[] => [
    name,
    String(f.count),
    us(f.cpuUs),
    us(f.venueUs),
    us(f.localUs),
    us(f.sysUs),
    us(f.signUs),
    `${f.journalWrites.toFixed(1)} × ${us(f.journalCpuUs / Math.max(1, f.journalWrites))}`,
    f.journalCommits.toFixed(1),
    us(f.localUs - f.signUs - f.journalCpuUs),
    us(f.journalWallUs),
    us(f.wallUs),
    f.perSecond.toFixed(0),
    `${us(f.firstQuarterLocalUs)} → ${us(f.lastQuarterLocalUs)}`,
  ];
  return [
    'Local CPU per order (execution layer + SQLite journal vs the simulated venue at INSTANT latency, in-process, fake clock; µs per order)',
    ...table(
      [
        'operation',
        'n',
        'CPU',
        'venue',
        'local',
        'of which sys',
        'sign',
        'journal writes × CPU',
        'commits',
        'rest',
        'journal wall',
        'wall',
        'per s (wall)',
        'local 1st → last ¼',
      ],
      [row('placement', p.placements), row('cancel', p.cancels)],
    ),
    `  local = process CPU − the in-process venue's share, from a pass with no other meter; sign and journal come from a`,
    `  second, metered pass; rest = local − sign − journal (client, pipeline, registry, timers, timer-driven group commits).`,
    `  commits: fsynced journal commits per order (relaxed writes wait for the next durable one, or 250 ms); wall includes the fsync waits.`,
    `  clear signing (included in local): ${us(p.verify.placementUs)} per placement (decode ${us(p.verify.decodeUs)}, V2 hash ${us(p.verify.hashUs)}, checks the rest), ${us(p.verify.cancelUs)} per cancel; re-run one at a time on ${p.verify.placements} + ${p.verify.cancels} captured prepares (${p.verify.failures} not verified).`,
    `  ${p.venueCallsPerRoundTrip.toFixed(1)} venue calls per placement + cancel; registry at the end: ${p.registrySize} orders (terminal ones kept for the retention); journal under ${p.journalDir}; failures: ${p.placements.failures} placements, ${p.cancels.failures} cancels.`,
  ];
}

function pollSection(p: PollBenchResult): string[] {
  return [
    'CPU per poll cycle (paper config vs the paper venue at INSTANT latency, market stopped; µs per run)',
    ...table(
      ['loop', 'runs', 'CPU', 'venue', 'local', 'local p50', 'local p95', 'local max'],
      p.loops.map((l) => [
        l.loop,
        String(l.runs),
        us(l.cpuUs),
        us(l.venueUs),
        us(l.localUs),
        us(l.perRun.p50),
        us(l.perRun.p95),
        us(l.perRun.max),
      ]),
    ),
    `  p50/p95/max: wall time of single runs minus the venue's share. Resting orders of ours: ${p.restingOrders}; orders asked for by the measured cycles: ${p.cycleActions}.`,
  ];
}

function scrapeSection(s: MetricsBenchResult): string[] {
  return [
    'Scrape cost (a fully populated registry; lab/bench/metrics-bench.ts)',
    ...table(
      ['scrapes', 'samples', 'KiB', 'mean', 'p50', 'p95', 'max'],
      [
        [
          String(s.scrapes),
          String(s.samples),
          (s.bytes / 1024).toFixed(1),
          ms(s.meanMs * 1000),
          ms(s.p50Ms * 1000),
          ms(s.p95Ms * 1000),
          ms(s.maxMs * 1000),
        ],
      ],
    ),
  ];
}

function memorySection(m: PaperMemoryResult): string[] {
  const rows = m.samples
    .filter((_, i) => i % Math.max(1, Math.round(m.samples.length / 10)) === 0 || i === m.samples.length - 1)
    .map((s) => [
      minutes(s.t),
      (s.rssBytes / 1024 / 1024).toFixed(1),
      (s.heapUsedBytes / 1024 / 1024).toFixed(1),
      s.heapTotalBytes === null ? '-' : (s.heapTotalBytes / 1024 / 1024).toFixed(1),
      s.externalBytes === null ? '-' : (s.externalBytes / 1024 / 1024).toFixed(1),
      s.registryOrders === null ? '-' : String(s.registryOrders),
    ]);
  const g = (name: string, x: PaperMemoryResult['rss']): string[] => [
    name,
    `${signed(x.slopeMiBPerMin * 60)} MiB/h`,
    `${signed(x.deltaMiB)} MiB`,
    `±${x.noiseMiB.toFixed(2)} MiB`,
    x.growing ? 'growing' : 'flat',
  ];
  return [
    `Paper mode memory (ledger-mm paper --latency fast, child process, real time: ${minutes(m.durationMs)}, /metrics every ${minutes(m.sampleMs)})`,
    ...table(['t', 'RSS MiB', 'heap used MiB', 'heap total MiB', 'external MiB', 'registry orders'], rows),
    `  end: RSS ${m.rssMiB.toFixed(1)} MiB (peak ${m.peakRssMiB.toFixed(1)}), heap used ${m.heapUsedMiB.toFixed(1)} MiB; registry ${m.registryOrders ?? '-'} orders (peak ${m.peakRegistryOrders ?? '-'}); ${m.placements} placements; exit code ${String(m.exitCode)}`,
    `  growth over ${windowText(m)} (least-squares slope, first/last delta, residual noise)${m.judged ? `, after the ${minutes(m.warmupMs)} warm-up:` : `: inside the ${minutes(m.warmupMs)} warm-up, not judged`}`,
    ...table(
      ['series', 'slope', 'delta', 'noise', ''],
      [g('RSS', m.rss), g('heap used', m.heap)],
      undefined,
      '    ',
    ),
  ];
}

function longRunSection(l: LongRunResult): string[] {
  const hours = [...new Set(l.runs.flatMap((r) => r.samples.map((s) => s.hours)))].sort((a, b) => a - b);
  const h = (x: number): string => `${Number.isInteger(x) ? x.toFixed(0) : x.toFixed(2)} h`;
  const at = (r: LongRunResult['runs'][number], h: number): string => {
    const s = r.samples.find((x) => x.hours === h);
    return s === undefined ? '-' : `${s.heapMiB.toFixed(1)} (${s.registry})`;
  };
  return [
    `Long run in-process (paper config and venue, FAST latency, fake clock, ${l.hours} simulated h): live heap MiB after a full GC (registry orders)`,
    ...table(
      ['configuration', ...hours.map(h)],
      l.runs.map((r) => [r.config, ...hours.map((x) => at(r, x))]),
    ),
    ...table(
      ['configuration', 'growth', 'per day', 'venue orders', 'venue commands', 'registry', 'evicted', 'wall'],
      l.runs.map((r) => [
        r.config,
        `${signed(r.growthMiBPerHour)} MiB/h`,
        `${signed(r.growthMiBPerHour * 24)} MiB`,
        String(r.orders),
        String(r.commands),
        String(r.registryAtEnd),
        String(r.evicted),
        `${r.wallSeconds.toFixed(0)} s`,
      ]),
    ),
    `  growth: least-squares slope after the 81-minute warm-up. "as shipped": registry eviction on, the venue's ground truth and`,
    `  history bounded as ${'`'}ledger-mm paper${'`'} bounds them (ended orders and dead commands kept an hour); "unbounded":`,
    `  all off. venue orders / commands: what the simulated venue holds at the end.`,
  ];
}

function simSection(s: SimSpeedResult): string[] {
  return [
    'Simulation speed (ledger-mm simulate runner: paper config, sim.json market, REALISTIC latency, fake timers)',
    ...table(
      ['simulated', 'wall', 'CPU', 'sim h per wall s', 'speed-up', 'cycles', 'orders', 'trades'],
      [
        [
          `${s.simulatedHours.toFixed(2)} h`,
          `${s.wallSeconds.toFixed(1)} s`,
          `${s.cpuSeconds.toFixed(1)} s`,
          s.hoursPerWallSecond.toFixed(3),
          `${s.speedup.toFixed(0)}×`,
          String(s.cycles),
          String(s.orders),
          String(s.trades),
        ],
      ],
    ),
  ];
}

/** A table with numeric-looking cells right-aligned unless `align` says otherwise. */
function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  align?: readonly boolean[],
  indent = '  ',
): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const right = headers.map(
    (_, i) => align?.[i] ?? (i > 0 && rows.every((r) => /^[-+±≤]?[\d.]/.test(r[i] ?? ''))),
  );
  const line = (cells: readonly string[]): string =>
    `${indent}${widths
      .map((w, i) => (right[i] ? (cells[i] ?? '').padStart(w) : (cells[i] ?? '').padEnd(w)))
      .join('  ')
      .trimEnd()}`;
  return [line(headers), ...rows.map(line)];
}

function us(x: number): string {
  return x >= 100 ? x.toFixed(0) : x.toFixed(1);
}

function ms(usValue: number): string {
  return `${(usValue / 1000).toFixed(3)} ms`;
}

/** "min 81.0-115.3": the growth window in minutes since the child started. */
function windowText(m: PaperMemoryResult): string {
  const at = (x: number): string => (x / 60_000).toFixed(1);
  return `min ${at(m.windowStartMs)}-${at(m.windowStartMs + m.windowMs)}`;
}

function minutes(msValue: number): string {
  return msValue >= 60_000
    ? `${(msValue / 60_000).toFixed(msValue % 60_000 === 0 ? 0 : 1)} min`
    : `${Math.round(msValue / 1000)} s`;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
}

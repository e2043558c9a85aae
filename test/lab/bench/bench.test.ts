import { describe, expect, it } from 'vitest';
import { linearFit, machineInfo, summarise } from '../../../src/lab/bench/measure.js';
import {
  growth,
  metric,
  MIN_STEADY_MS,
  sumOf,
  summarisePaperMemory,
  verdictWindow,
  type MemorySample,
} from '../../../src/lab/bench/paper-memory.js';
import { runPlacementBench } from '../../../src/lab/bench/placement-bench.js';
import { runPollBench } from '../../../src/lab/bench/poll-bench.js';
import { checksOf, formatReport, LIMITS } from '../../../src/lab/bench/report.js';
import { parseBenchArgs } from '../../../src/lab/bench/run-bench.js';
import { PAPER_WARMUP_MS } from '../../../src/lab/rig/paper-venue.js';

/** The benchmark's plumbing (its figures are printed by `npm run bench`, never asserted here). */

describe('bench arguments', () => {
  it('defaults to every part at full length; --quick shortens', () => {
    const full = parseBenchArgs([]);
    expect(full.kind).toBe('run');
    if (full.kind !== 'run') return;
    expect(full.args.parts).toEqual(['placement', 'polls', 'scrape', 'memory', 'longrun', 'sim']);
    expect(full.args.longRunHours).toBe(6);
    expect(full.args.memoryMs).toBe(600_000);
    expect(full.args.placements).toBe(2000);
    expect(full.args.simulatedMs).toBe(7_200_000);
    const quick = parseBenchArgs(['--quick', '--only', 'memory,placement', '--minutes', '1.5']);
    if (quick.kind !== 'run') throw new Error('expected a run');
    expect(quick.args.parts).toEqual(['memory', 'placement']);
    expect(quick.args.memoryMs).toBe(90_000);
    expect(quick.args.placements).toBe(500);
  });

  it('refuses unknown parts and bad numbers', () => {
    expect(parseBenchArgs(['--only', 'disk']).kind).toBe('error');
    expect(parseBenchArgs(['--minutes', '0']).kind).toBe('error');
    expect(parseBenchArgs(['--nope']).kind).toBe('error');
    expect(parseBenchArgs(['-h']).kind).toBe('help');
  });
});

describe('figures', () => {
  it('fits a line and summarises a sample', () => {
    const fit = linearFit([0, 1, 2, 3], [1, 3, 5, 7]);
    expect(fit.slope).toBeCloseTo(2);
    expect(fit.intercept).toBeCloseTo(1);
    expect(fit.residualSd).toBeCloseTo(0);
    expect(summarise([5, 1, 3]).p50).toBe(3);
    expect(summarise([]).n).toBe(0);
    expect(machineInfo().cores).toBeGreaterThan(0);
  });

  it('calls a noisy plateau flat and a steady rise growing', () => {
    const MiB = 1024 * 1024;
    const series = (f: (i: number) => number): MemorySample[] =>
      Array.from({ length: 30 }, (_, i) => ({
        t: i * 10_000,
        rssBytes: f(i) * MiB,
        heapUsedBytes: 0,
        heapTotalBytes: null,
        externalBytes: null,
        registryOrders: null,
      }));
    const flat = growth(
      series((i) => 100 + (i % 2 === 0 ? 1.5 : -1.5)),
      (s) => s.rssBytes,
    );
    expect(flat.growing).toBe(false);
    const rising = growth(
      series((i) => 100 + i * 0.5),
      (s) => s.rssBytes,
    );
    expect(rising.growing).toBe(true);
    expect(rising.slopeMiBPerMin).toBeCloseTo(3);
    expect(rising.deltaMiB).toBeCloseTo(14.5);
  });

  it('reads samples from an exposition', () => {
    const text = [
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      'process_resident_memory_bytes 104857600',
      'nodejs_heap_size_used_bytes 2.5e7',
      'ledger_mm_orders{state="OPEN"} 4',
      'ledger_mm_orders{state="CANCELLED"} 7',
      'ledger_mm_orders_total 99',
    ].join('\n');
    expect(metric(text, 'process_resident_memory_bytes')).toBe(104_857_600);
    expect(metric(text, 'nodejs_heap_size_used_bytes')).toBe(25_000_000);
    expect(sumOf(text, 'ledger_mm_orders')).toBe(11);
    expect(sumOf(text, 'absent')).toBeNull();
  });
});

describe('paper memory verdict', () => {
  const MIN = 60_000;
  const MiB = 1024 * 1024;

  it('judges growth only after the warm-up, over at least 30 minutes', () => {
    // The venue's commands stay 20 min (token) + 60 min (retention), swept each minute.
    expect(PAPER_WARMUP_MS).toBe(81 * MIN);
    expect(MIN_STEADY_MS).toBe(30 * MIN);
    const cases: [number, { startMs: number; judged: boolean }][] = [
      [10 * MIN, { startMs: 5 * MIN, judged: false }],
      [30 * MIN, { startMs: 25 * MIN, judged: false }],
      [110 * MIN, { startMs: 105 * MIN, judged: false }],
      [111 * MIN, { startMs: 81 * MIN, judged: true }],
      [130 * MIN, { startMs: 81 * MIN, judged: true }],
    ];
    for (const [end, want] of cases) expect(verdictWindow(end, PAPER_WARMUP_MS)).toEqual(want);
    expect(verdictWindow(10 * MIN, PAPER_WARMUP_MS, 2 * MIN)).toEqual({ startMs: 8 * MIN, judged: false });
  });

  /** Samples every 15 s until `minutes`: RSS from `rss(min)` plus a ±0.5 MiB zigzag. */
  const run = (minutes: number, rss: (min: number) => number): ReturnType<typeof summarisePaperMemory> =>
    summarisePaperMemory(
      Array.from({ length: minutes * 4 }, (_, i) => ({
        t: (i + 1) * 15_000,
        rssBytes: (rss((i + 1) / 4) + (i % 2 === 0 ? 0.5 : -0.5)) * MiB,
        heapUsedBytes: 40 * MiB,
        heapTotalBytes: 60 * MiB,
        externalBytes: 4 * MiB,
        registryOrders: 180,
      })),
      { durationMs: minutes * MIN, warmupMs: PAPER_WARMUP_MS, sampleMs: 15_000, placements: 0, exitCode: 0 },
    );
  const rssCheck = (m: ReturnType<typeof run>): boolean | null | undefined =>
    checksOf({
      bench: 'ledger-mm',
      startedAt: 'now',
      quick: false,
      machine: machineInfo(),
      memory: m,
      errors: [],
    }).find((c) => c.check.startsWith('paper RSS growth'))?.pass;
  /** A warm-up that fills 25 MiB over 81 minutes, then flat. */
  const fill = (min: number): number => 100 + 25 * Math.min(1, min / 81);

  it('reports the warm-up fill of a short run without calling it a leak', () => {
    const short = run(10, fill);
    // The fill is a rise (this was the old 10-minute FAIL), shown for information only.
    expect(short.rss.growing).toBe(true);
    expect(short.judged).toBe(false);
    expect(rssCheck(short)).toBeNull();
    const text = formatReport({
      bench: 'ledger-mm',
      startedAt: 'now',
      quick: false,
      machine: machineInfo(),
      memory: short,
      errors: [],
      checks: [],
    });
    expect(text).toContain('inside the 81 min warm-up, not judged');
    expect(text).toContain('--minutes 111 or more');
  });

  it('passes a flat steady state after the warm-up and fails a rise there', () => {
    const flat = run(120, fill);
    expect([flat.judged, flat.windowStartMs]).toEqual([true, 81 * MIN]);
    expect(rssCheck(flat)).toBe(true);
    // 3 MiB an hour after the fill: a leak, however slow, over 39 minutes.
    const leaking = run(120, (min) => fill(min) + (min > 81 ? (min - 81) * 0.05 : 0));
    expect(rssCheck(leaking)).toBe(false);
  });
});

describe('the benchmarks run', () => {
  it('measures placements and cancels, with the venue, journal and signing apart', async () => {
    const r = await runPlacementBench({ placements: 20, batch: 5, warmupBatches: 1 });
    for (const f of [r.placements, r.cancels]) {
      expect(f.count).toBe(20);
      expect(f.failures).toBe(0);
      expect(f.cpuUs).toBeGreaterThan(0);
      expect(f.venueUs).toBeGreaterThan(0);
      expect(f.signUs).toBeGreaterThan(0);
    }
    // Every step of a placement is journalled first (intent, preparing … open); the
    // relaxed ones share commits with the durable ones (intent, SubmitStarted).
    expect(r.placements.journalWrites).toBeGreaterThanOrEqual(7);
    expect(r.cancels.journalWrites).toBeGreaterThanOrEqual(3);
    expect(r.placements.journalCommits).toBeGreaterThanOrEqual(2);
    expect(r.placements.journalCommits).toBeLessThan(r.placements.journalWrites);
    expect(r.venueCallsPerRoundTrip).toBeGreaterThanOrEqual(4);
    const base = {
      bench: 'ledger-mm' as const,
      startedAt: 'now',
      quick: true,
      machine: machineInfo(),
      placement: r,
      errors: [],
    };
    const checks = checksOf(base);
    expect(checks[0]?.pass).toBe(r.placements.localUs <= LIMITS.placementLocalUs);
    const text = formatReport({ ...base, checks });
    expect(text).toContain('placement');
    expect(text).toContain('machine:');
  });

  it('measures each poll loop and the quote cycle', async () => {
    const r = await runPollBench({ runs: 5, warmup: 1 });
    expect(r.loops.map((l) => l.loop)).toHaveLength(5);
    for (const l of r.loops) {
      expect(l.failures).toBe(0);
      expect(l.cpuUs).toBeGreaterThan(0);
    }
    expect(r.restingOrders).toBeGreaterThan(0);
  }, 60_000);
});

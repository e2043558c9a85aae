import { describe, expect, it } from 'vitest';
import { linearFit, machineInfo, summarise } from '../../../src/lab/bench/measure.js';
import { growth, metric, sumOf, type MemorySample } from '../../../src/lab/bench/paper-memory.js';
import { runPlacementBench } from '../../../src/lab/bench/placement-bench.js';
import { runPollBench } from '../../../src/lab/bench/poll-bench.js';
import { checksOf, formatReport, LIMITS } from '../../../src/lab/bench/report.js';
import { parseBenchArgs } from '../../../src/lab/bench/run-bench.js';

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

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSimulate } from '../../../src/cli/simulate.js';
import { FIGURES } from '../../../src/lab/simulate/figures/figure-catalogue.js';
import type { SimulationReport } from '../../../src/lab/simulate/figures/report.js';
import type { SeedsReport } from '../../../src/lab/simulate/figures/seeds-report.js';
import { runCaptured, type CapturedRun } from '../../support/captured-io.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-simulate-seeds-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('simulate --seeds: two seeds, a tenth of an hour at fast latencies, with --compare', () => {
  let run: CapturedRun;
  let report: SeedsReport;
  let html: string;
  beforeAll(async () => {
    run = await runCaptured(
      (io) =>
        runSimulate(['--hours', '0.1', '--latency', 'fast', '--seeds', '3,1', '--compare', '--out', 's'], io),
      {},
      dir,
    );
    report = JSON.parse(fs.readFileSync(path.join(dir, 's', 'report.json'), 'utf8')) as SeedsReport;
    html = fs.readFileSync(path.join(dir, 's', 'report.html'), 'utf8');
  }, 180_000);

  it('runs every strategy on every seed, in the order given', () => {
    expect(run.code).toBe(0);
    expect(report.kind).toBe('seeds');
    expect(report.scenario.seeds).toEqual([3, 1]);
    expect(report.seeds.map((s) => [s.seed, s.runs.map((r) => r.strategy)])).toEqual([
      [3, ['daemon', 'cancel-then-replace', 'no-tolerance']],
      [1, ['daemon', 'cancel-then-replace', 'no-tolerance']],
    ]);
  });

  it('each seed has its own full report beside the summary, the same as a one-seed run gives', () => {
    for (const seed of [3, 1]) {
      const one = JSON.parse(
        fs.readFileSync(path.join(dir, 's', `seed-${seed}`, 'report.json'), 'utf8'),
      ) as SimulationReport;
      expect(one.scenario.seed).toBe(seed);
      expect(one.runs).toEqual(report.seeds.find((s) => s.seed === seed)!.runs);
      expect(one.series.pairs.length).toBeGreaterThan(0);
    }
  });

  it('the spread: mean, min and max of every figure per strategy over the seeds', () => {
    expect(report.spread).toHaveLength(3 * FIGURES.length);
    const pnl = report.spread.find((x) => x.strategy === 'daemon' && x.key === 'pnl')!;
    const values = report.seeds.map((s) => Number(s.runs[0]!.pnl));
    expect(pnl.n).toBe(2);
    expect(pnl.mean).toBeCloseTo((values[0]! + values[1]!) / 2, 6);
    expect(pnl.min).toBe(Math.min(...values));
    expect(pnl.max).toBe(Math.max(...values));
  });

  it('prints the per-seed rows, the spread and the targets', () => {
    const text = run.stdout;
    expect(text).toMatch(/^seed +strategy +PnL +captured +markout 60 s/m);
    expect(text).toMatch(/^3 +daemon +-?\d/m);
    expect(text).toMatch(/^1 +no-tolerance +-?\d/m);
    expect(text).toMatch(/^figure +daemon mean +min +max +cancel-then-replace mean/m);
    expect(text).toMatch(/^PASS {2}no halts of the daemon on any seed/m);
    expect(run.stderr).toMatch(/seed 3 daemon took \d+\.\d s wall, peak heap \d+ MiB/);
  });

  it('report.html: the per-seed table, the spread and a chart per main figure, self-contained', () => {
    expect(html).toContain('<h2>Per seed</h2>');
    expect((html.match(/<svg/g) ?? []).length).toBe(5);
    expect(html).toContain('seed-3/report.html');
    expect(html).not.toMatch(/https?:/i);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
  });
});

describe('simulate --seeds: usage', () => {
  it.each([
    [['--seed', '1', '--seeds', '1-2'], /--seed or --seeds, not both/],
    [['--seeds', '4-2'], /runs backwards/],
    [['--seeds', 'x'], /not a seed or a range/],
    [['--seeds', '1-2', '--jobs', '0'], /--jobs must be an integer in \[1, 64\]/],
    [['--jobs', 'many'], /--jobs must be an integer/],
  ])('%o is refused', async (argv, message) => {
    const r = await runCaptured((io) => runSimulate(argv, io), {}, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

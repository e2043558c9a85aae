import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSimulate } from '../../../src/cli/simulate.js';
import { FIGURES } from '../../../src/lab/simulate/figures/figure-catalogue.js';
import type { SimulationReport } from '../../../src/lab/simulate/figures/report.js';
import { collectingIo, type CollectingIo } from '../../support/captured-io.js';
import { tempDirPerFile } from '../../support/temp-dir.js';

const dir = tempDirPerFile('ledger-mm-simulate-cmp-');
const io = (): CollectingIo => collectingIo(dir);

describe('simulate --compare: a quarter of an hour at fast latencies', () => {
  const run = io();
  let code = -1;
  let report: SimulationReport;
  let html: string;
  beforeAll(async () => {
    code = await runSimulate(['--hours', '0.25', '--latency', 'fast', '--compare', '--out', 'cmp'], run, {
      stderrIsTTY: true,
    });
    report = JSON.parse(fs.readFileSync(path.join(dir, 'cmp', 'report.json'), 'utf8')) as SimulationReport;
    html = fs.readFileSync(path.join(dir, 'cmp', 'report.html'), 'utf8');
  }, 120_000);

  it('prints one table: each figure for the daemon and each baseline, with its ratio to the daemon', () => {
    expect(code).toBe(0);
    const text = run.out.join('');
    const lines = text.split('\n');
    const header = lines.findIndex((l) => l.startsWith('figure '));
    expect(lines[header]!.split(/\s{2,}/)).toEqual([
      'figure',
      'daemon',
      'cancel-then-replace',
      '× daemon',
      'no-tolerance',
      '× daemon',
    ]);
    const rows = lines.slice(header + 1, header + 1 + FIGURES.length);
    expect(rows).toHaveLength(FIGURES.length);
    rows.forEach((r, i) => expect(r.startsWith(`${FIGURES[i]!.label}  `)).toBe(true));
    // Every row has a value per run and a ratio (or "-") per baseline.
    for (const r of rows) expect(r.split(/\s{2,}/).length).toBe(6);
    expect(text).toMatch(/Venue limit \(one placement in flight/);
    expect(text).toMatch(/least time to two-sided: /);
    expect(text).toMatch(/most placements per hour: /);
    expect(text).toMatch(/PASS {2}zero invariant breaks/);
  });

  it('report.json holds the three runs and the compare rows', () => {
    expect(report.runs.map((r) => r.strategy)).toEqual(['daemon', 'cancel-then-replace', 'no-tolerance']);
    expect(report.compare).toHaveLength(FIGURES.length);
    for (const row of report.compare!) {
      expect(row.baselines.map((b) => b.strategy)).toEqual(['cancel-then-replace', 'no-tolerance']);
      for (const b of row.baselines) expect(b.ratio === null || Number.isFinite(b.ratio)).toBe(true);
    }
    const uptime = report.compare!.find((r) => r.key === 'twoSidedAfterFirst')!;
    const ctr = report.runs[1]!;
    expect(uptime.baselines[0]!.ratio).toBeCloseTo(
      ctr.twoSidedAfterFirst / report.runs[0]!.twoSidedAfterFirst,
      3,
    );
    expect(report.runs.every((r) => r.invariantBreaks.total === 0)).toBe(true);
    expect(report.checks.map((c) => c.name)).toContain('zero invariant breaks');
  });

  it('report.html is one self-contained page with inline SVG charts', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<svg');
    expect(html).toContain('<h2>Halts and guard trips</h2><p>None (daemon: 0 halt(s), 0 inventory trip(s);');
    expect((html.match(/<svg/g) ?? []).length).toBe(report.series.pairs.length + 3);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/https?:/i);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
  });

  it('a terminal gets one progress line redrawn in place', () => {
    const err = run.err.join('');
    expect(err).toContain('\r');
    expect(err).toMatch(/daemon \[#+\] 0\.3 h/);
    expect(err.endsWith('\n')).toBe(true);
  });
});

describe('simulate, the command line', () => {
  it('--json prints the report without its series', async () => {
    const run = io();
    expect(
      await runSimulate(['--hours', '0.1', '--latency', 'fast', '--json', '--out', 'json'], run, {
        stderrIsTTY: false,
      }),
    ).toBe(0);
    const printed = JSON.parse(run.out.join('')) as Record<string, unknown>;
    expect(printed['tool']).toBe('ledger-mm simulate');
    expect(printed['series']).toBeUndefined();
    expect(printed['compare']).toBeNull();
  }, 60_000);

  it('refuses bad usage and invalid configuration with exit 2', async () => {
    for (const argv of [
      ['--hours', '0'],
      ['--hours', 'x'],
      ['--latency', 'instant'],
      ['--seed', ''],
      ['--nope'],
    ]) {
      const run = io();
      expect(await runSimulate(argv, run)).toBe(2);
      expect(run.err.join('')).toMatch(/^ledger-mm simulate: /);
    }
    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ pairs: ['DOGE/USDC'] }));
    const run = io();
    expect(await runSimulate(['--config', 'bad.json', '--hours', '0.1'], run)).toBe(2);
    expect(run.err.join('')).toMatch(/DOGE\/USDC/);
  });
});

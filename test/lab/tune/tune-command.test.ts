import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTune } from '../../../src/cli/tune.js';
import type { TuneReport } from '../../../src/lab/tune/tune.js';
import { runCaptured, type CapturedRun } from '../../support/captured-io.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-tune-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('tune: two spreads, one training seed, one test seed, three minutes at fast latencies', () => {
  let run: CapturedRun;
  let report: TuneReport;
  beforeAll(async () => {
    run = await runCaptured(
      (io) =>
        runTune(
          [
            ...['--param', 'strategy.spread.bidBps=10,30', '--param', 'strategy.spread.askBps=30'],
            ...['--train', '1', '--test', '2', '--top', '1', '--hours', '0.05', '--latency', 'fast'],
            ...['--min-uptime', '0', '--min-captured=-10000', '--out', 't'],
          ],
          io,
        ),
      {},
      dir,
    );
    report = JSON.parse(fs.readFileSync(path.join(dir, 't', 'report.json'), 'utf8')) as TuneReport;
  }, 240_000);

  it('ranks the config as it is and both candidates on the training seed, by mean PnL', () => {
    expect(run.code).toBe(0);
    expect(report.trainRanking.map((s) => s.index).sort()).toEqual([0, 1, 2]);
    const pnl = report.trainRanking.map((s) => s.meanPnl);
    expect(pnl).toEqual([...pnl].sort((a, b) => b - a));
    expect(report.trainRanking.every((s) => s.seeds.join() === '1')).toBe(true);
    expect(report.objective.text).toMatch(/^maximise the mean PnL/);
  });

  it('runs the best and the config as it is on the test seed only', () => {
    const best = report.trainRanking[0]!.index;
    expect(report.testScores.map((s) => s.index).sort()).toEqual([...new Set([best, 0])].sort());
    expect(report.testScores.every((s) => s.seeds.join() === '2')).toBe(true);
  });

  it('each candidate is a config layer of its values; a different layer gives a different run', () => {
    const c1 = JSON.parse(fs.readFileSync(path.join(dir, 't', 'candidates', 'c1.json'), 'utf8')) as unknown;
    expect(c1).toEqual({ strategy: { defaults: { spread: { bidBps: 10, askBps: 30 } } } });
    const [a, b] = [1, 2].map((i) => report.trainRanking.find((s) => s.index === i)!);
    expect(a!.meanPnl === b!.meanPnl && a!.meanCapturedBps === b!.meanCapturedBps).toBe(false);
  });

  it('prints the objective, the training ranking and the test table', () => {
    expect(run.stdout).toMatch(/^objective: maximise the mean PnL/m);
    expect(run.stdout).toMatch(/^Training seeds 1: 3 candidates/m);
    expect(run.stdout).toMatch(/^Test seeds 2 \(never seen by the ranking\)/m);
    expect(run.stdout).toMatch(/^c1 +spread\.bidBps=10 spread\.askBps=30 /m);
  });
});

describe('tune: usage', () => {
  it.each([
    [[], /at least one --param/],
    [['--param', 'strategy.spread.bidBps=1', '--train', '1-2', '--test', '2-3'], /must not share a seed/],
    [['--param', 'strategy.spread.bidBps=1', '--param', 'strategy.defaults.spread.bidBps=2'], /given twice/],
    [['--param', 'strategy.spread.bidBps=1,2', '--random', '0'], /--random must be/],
    [['--param', 'strategy.spread.bidBps=1,2', '--jobs', '65'], /--jobs must be an integer in \[1, 64\]/],
  ])('%o is refused', async (argv, message) => {
    const r = await runCaptured((io) => runTune(argv, io), {}, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('a candidate the config refuses stops the search before any run', async () => {
    const r = await runCaptured(
      (io) => runTune(['--param', 'strategy.spread.minBps=500', '--hours', '0.01', '--out', 'bad'], io),
      {},
      dir,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid configuration/);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTune } from '../../../src/cli/tune.js';
import type { RunFigures } from '../../../src/lab/simulate/figures/figures.js';
import { parseShard } from '../../../src/lab/tune/shards.js';
import { rank, score } from '../../../src/lab/tune/tune.js';
import { runCaptured } from '../../support/captured-io.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-shards-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SEARCH = [
  ...['--param', 'strategy.spread.bidBps+strategy.spread.askBps=10,30'],
  ...['--train', '1-2', '--test', 'none', '--hours', '0.05', '--latency', 'fast'],
  ...['--min-uptime', '0', '--min-captured=-10000'],
];

const tune = (args: string[]) => runCaptured((io) => runTune([...SEARCH, ...args], io), {}, dir);
const read = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));

describe('tune --shard i/N and --collect DIR', () => {
  beforeAll(async () => {
    expect((await tune(['--out', 'one'])).code).toBe(0);
    expect((await tune(['--out', 'shards', '--shard', '1/2'])).code).toBe(0);
    expect((await tune(['--out', 'shards', '--shard', '2/2'])).code).toBe(0);
  }, 600_000);

  it('the shards split the six training runs between them', () => {
    const a = read('shards/shard-1-of-2.json') as { runs: { job: { position: number } }[] };
    const b = read('shards/shard-2-of-2.json') as { runs: { job: { position: number } }[] };
    expect(a.runs.map((r) => r.job.position)).toEqual([0, 2, 4]);
    expect(b.runs.map((r) => r.job.position)).toEqual([1, 3, 5]);
  });

  it('collected, they give the same report as one run', async () => {
    const r = await tune(['--out', 'collected', '--collect', 'shards']);
    expect(r.code).toBe(0);
    expect(read('collected/report.json')).toEqual(read('one/report.json'));
  });

  it('refuses a missing shard, and the shards of another search', async () => {
    fs.mkdirSync(path.join(dir, 'half'));
    fs.copyFileSync(path.join(dir, 'shards/shard-1-of-2.json'), path.join(dir, 'half/shard-1-of-2.json'));
    const missing = await tune(['--out', 'x', '--collect', 'half']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing shards 2\/2/);
    const other = await runCaptured(
      (io) => runTune([...SEARCH, '--hours', '0.1', '--out', 'y', '--collect', 'shards'], io),
      {},
      dir,
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/a shard of another search/);
  });

  it('parses i/N', () => {
    expect(parseShard('3/8')).toEqual({ index: 3, count: 8 });
    expect(parseShard('0/8')).toEqual({ error: expect.stringMatching(/--shard must be i\/N/) as string });
    expect(parseShard('9/8')).toHaveProperty('error');
  });
});

describe('ranking over regimes', () => {
  const run = (pnl: number): RunFigures =>
    ({
      pnl: String(pnl),
      spreadCapturedBps: 5,
      twoSidedAfterFirst: 1,
      halts: { count: 0 },
      markouts: [],
      inventoryValueStd: '0',
    }) as unknown as RunFigures;
  const objective = { minCapturedBps: 0, minUptime: 0, maxHalts: 0 };
  // Two seeds in each of two regimes: calm then informed.
  const steady = [100, 100, 50, 50].map(run);
  const lopsided = [900, 900, -200, -200].map(run);

  it('"mean" ranks on the mean of the regimes’ means, "worst" on the worst regime', () => {
    const names = ['calm', 'informed'];
    const mean = { names, rankOn: 'mean' as const };
    const worst = { names, rankOn: 'worst' as const };
    const a = score(1, {}, [1, 2], steady, objective, mean);
    const b = score(2, {}, [1, 2], lopsided, objective, mean);
    expect(a.regimePnl).toEqual({ calm: 100, informed: 50 });
    expect([a.objectivePnl, b.objectivePnl]).toEqual([75, 350]);
    expect(rank([a, b]).map((s) => s.index)).toEqual([2, 1]);
    const aw = score(1, {}, [1, 2], steady, objective, worst);
    const bw = score(2, {}, [1, 2], lopsided, objective, worst);
    expect([aw.objectivePnl, bw.objectivePnl]).toEqual([50, -200]);
    expect(rank([aw, bw]).map((s) => s.index)).toEqual([1, 2]);
  });
});

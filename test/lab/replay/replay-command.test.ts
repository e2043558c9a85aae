import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSimulate } from '../../../src/cli/simulate.js';
import { runCaptured, type CapturedRun } from '../../support/captured-io.js';

const EXAMPLE = path.resolve('config/examples/replay-btc-usdc');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-replay-run-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const simulate = (args: string[]) =>
  runCaptured(
    (io) => runSimulate(['--hours', '0.1', '--latency', 'fast', '--json', ...args], io, { workers: false }),
    {},
    dir,
  );

interface Report {
  scenario: { prices?: Record<string, string> };
  runs: { pnl: string; fills: number }[];
  series: unknown;
}
const read = (out: string): Report =>
  JSON.parse(fs.readFileSync(path.join(dir, out, 'report.json'), 'utf8')) as Report;
const withoutFile = (r: Report) => ({ ...r, scenario: { ...r.scenario, prices: undefined } });

describe('simulate --prices: replay of the example from CSV and from Parquet', () => {
  let csv: CapturedRun;
  let parquet: CapturedRun;
  beforeAll(async () => {
    csv = await simulate(['--prices', `BTC/USDC=${EXAMPLE}.csv`, '--out', 'csv']);
    parquet = await simulate(['--prices', `BTC/USDC=${EXAMPLE}.parquet`, '--out', 'parquet']);
    await simulate(['--out', 'model']);
  }, 300_000);

  it('both run, and give the same report', () => {
    expect([csv.code, parquet.code]).toEqual([0, 0]);
    expect(read('csv').scenario.prices).toEqual({ 'BTC/USDC': `${EXAMPLE}.csv` });
    expect(withoutFile(read('parquet'))).toEqual(withoutFile(read('csv')));
  });

  it('the replayed reference is not the model’s', () => {
    expect(read('csv').series).not.toEqual(read('model').series);
  });
});

describe('simulate --prices: bad input is refused before any run', () => {
  it.each([
    [['--prices', 'BTC=x.csv'], /--prices must be PAIR=FILE/],
    [['--max-gap', '5'], /--max-gap needs --prices/],
    [['--prices', `BTC/USDC=${EXAMPLE}.csv`, '--max-gap', '0'], /--max-gap must be a number of seconds > 0/],
    [
      ['--prices', `BTC/USDC=${EXAMPLE}.csv`, '--max-gap', '2'],
      /replay-btc-usdc\.csv:3: a gap of 3 s since line 2/,
    ],
    [['--prices', `BTC/USDC=${EXAMPLE}.csv`, '--hours', '4'], /the series covers 3\.167 h .* the run 4 h/],
  ])('%o', async (argv, message) => {
    const r = await runCaptured((io) => runSimulate(argv, io, { workers: false }), {}, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

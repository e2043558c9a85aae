import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsvSeries } from '../../../src/lab/replay/csv-series.js';
import { loadReplays, parsePriceArg, readSeries } from '../../../src/lab/replay/load-replays.js';
import { parseTimestamp, ReplayError, toReplay } from '../../../src/lab/replay/price-series.js';
import { MarketConfigSchema } from '../../../src/sim/market/market-config.js';
import { MarketModel } from '../../../src/sim/market/market-model.js';
import { Rng } from '../../../src/sim/rng.js';
import { newFakeClock, num, RecordingPort } from '../../sim/market/support/recording-port.js';

const EXAMPLE = path.resolve('config/examples/replay-btc-usdc');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-replay-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('timestamps', () => {
  it.each([
    ['2025-01-06T00:00:01.500Z', 1736121601500],
    ['2025-01-06 00:00:01', 1736121601000],
    ['2025-01-06T01:00:00+01:00', 1736121600000],
    ['1736121601', 1736121601000],
    ['1736121601.25', 1736121601250],
    ['1736121601500', 1736121601500],
    ['1736121601500000', 1736121601500],
    ['1736121601500000000', 1736121601500],
    [1736121601500, 1736121601500],
    [1736121601500000n, 1736121601500],
    [new Date(1736121601500), 1736121601500],
    ['yesterday', null],
    ['-5', null],
    ['', null],
  ])('%o is %o ms', (text, ms) => {
    expect(parseTimestamp(text)).toBe(ms);
  });
});

describe('CSV: a price series and trades', () => {
  it('reads timestamp,price', () => {
    const rows = parseCsvSeries(
      'p.csv',
      'timestamp,price\n1736121600000,100.5\n\n# a comment\n1736121601000,101\n',
    );
    expect(rows).toEqual([
      { line: 2, timeMs: 1736121600000, price: 100.5 },
      { line: 5, timeMs: 1736121601000, price: 101 },
    ]);
  });

  it('reads trades as Tardis writes them (µs timestamps, side and amount ignored)', () => {
    const text = [
      'exchange,symbol,timestamp,local_timestamp,id,side,price,amount',
      'binance,BTCUSDT,1736121600000000,1736121600001000,1,buy,60000.1,0.01',
      'binance,BTCUSDT,1736121600500000,1736121600501000,2,sell,59999.9,0.20',
    ].join('\n');
    expect(parseCsvSeries('t.csv', text).map((r) => [r.timeMs, r.price])).toEqual([
      [1736121600000, 60000.1],
      [1736121600500, 59999.9],
    ]);
  });

  it('reads trades as Binance writes them (a "time" column in ms)', () => {
    const text = 'id,price,qty,quote_qty,time,is_buyer_maker\n7,3000.5,1,3000.5,1736121600123,true\n';
    expect(parseCsvSeries('b.csv', text)).toEqual([{ line: 2, timeMs: 1736121600123, price: 3000.5 }]);
  });
});

const limits = { maxGapMs: 60_000, durationMs: 2000 };

describe('bad input: a clear error with the file and line', () => {
  it.each([
    [
      'no time column',
      'when,price\n1,2\n',
      /x\.csv:1: the header must name a time column .* got when, price/,
    ],
    ['a bad price', 'timestamp,price\n1736121600000,abc\n', /x\.csv:2: not a price > 0: "abc"/],
    ['a zero price', 'timestamp,price\n1736121600000,0\n', /x\.csv:2: not a price > 0: "0"/],
    ['a negative price', 'timestamp,price\n1736121600000,-3\n', /x\.csv:2: not a price > 0: "-3"/],
    ['a bad timestamp', 'timestamp,price\nnoon,100\n', /x\.csv:2: not a timestamp: "noon"/],
    ['a short row', 'timestamp,price\n1736121600000\n', /x\.csv:2: 1 fields where the header has 2/],
    ['no header', '\n\n', /x\.csv: empty \(no header row\)/],
  ])('%s', (_, text, message) => {
    expect(() => parseCsvSeries('x.csv', text)).toThrow(message);
    expect(() => parseCsvSeries('x.csv', text)).toThrow(ReplayError);
  });

  it.each([
    [
      'unsorted rows',
      'timestamp,price\n1736121600000,1\n1736121602000,1\n1736121601000,1\n1736121603000,1\n',
      /x\.csv:4: rows are not sorted by time \(2025-01-06T00:00:01\.000Z comes after 2025-01-06T00:00:02\.000Z on line 3\)/,
    ],
    [
      'a gap beyond the maximum',
      'timestamp,price\n1736121600000,1\n1736121600500,1\n1736121661000,1\n',
      /x\.csv:4: a gap of 60\.5 s since line 3, more than the maximum of 60 s \(--max-gap\); nothing is interpolated/,
    ],
    ['no rows', 'timestamp,price\n', /x\.csv: no rows/],
    [
      'a series shorter than the run',
      'timestamp,price\n1736121600000,1\n1736121601000,1\n',
      /x\.csv: the series covers 1 s \(2025-01-06T00:00:00\.000Z to 2025-01-06T00:00:01\.000Z\), the run 2 s: shorten --hours/,
    ],
  ])('%s', (_, text, message) => {
    expect(() => toReplay('x.csv', parseCsvSeries('x.csv', text), limits)).toThrow(message);
  });

  it('rows at the same time are kept (trades in one millisecond); the gap is configurable', () => {
    const text = 'timestamp,price\n1736121600000,1\n1736121600000,2\n1736121690000,3\n';
    expect(() => toReplay('x.csv', parseCsvSeries('x.csv', text), limits)).toThrow(/gap of 90 s/);
    const r = toReplay('x.csv', parseCsvSeries('x.csv', text), { maxGapMs: 90_000, durationMs: 0 });
    expect(r).toEqual({ source: 'x.csv', times: [0, 0, 90_000], prices: [1, 2, 3] });
  });

  it('an unknown extension and a missing file are refused', async () => {
    await expect(readSeries(path.join(dir, 'p.txt'))).rejects.toThrow(
      /unknown format "\.txt" \(\.csv or \.parquet\)/,
    );
    await expect(readSeries(path.join(dir, 'none.csv'))).rejects.toThrow(/cannot read .*none\.csv/);
    fs.writeFileSync(path.join(dir, 'bad.parquet'), 'not parquet');
    await expect(readSeries(path.join(dir, 'bad.parquet'))).rejects.toThrow(
      /cannot read .*bad\.parquet as Parquet/,
    );
  });

  it('PAIR=FILE', () => {
    expect(parsePriceArg('BTC/USDC=a.csv')).toEqual({ pair: 'BTC/USDC', file: 'a.csv' });
    expect(parsePriceArg('BTC=a.csv')).toHaveProperty('error');
    expect(parsePriceArg('BTC/USDC=')).toHaveProperty('error');
  });
});

describe('the shipped example', () => {
  it('reads the same rows from CSV and from Parquet', async () => {
    const csv = await readSeries(`${EXAMPLE}.csv`);
    const parquet = await readSeries(`${EXAMPLE}.parquet`);
    expect(csv.length).toBe(3801);
    expect(parquet.map((r) => [r.timeMs, r.price])).toEqual(csv.map((r) => [r.timeMs, r.price]));
    const replays = await loadReplays({
      prices: { 'BTC/USDC': `${EXAMPLE}.csv` },
      cwd: '/',
      durationMs: 3 * 3_600_000,
    });
    expect(replays['BTC/USDC']!.times[1]).toBe(3000);
  });

  it('drives the reference the venue sees: each tick publishes the last recorded price', async () => {
    const replay = (await loadReplays({ prices: { 'BTC/USDC': `${EXAMPLE}.csv` }, cwd: '/', durationMs: 0 }))[
      'BTC/USDC'
    ]!;
    const { fake, clock } = newFakeClock();
    const port = new RecordingPort(clock, ['BTC/USDC']);
    const config = MarketConfigSchema.parse({
      pairs: {
        'BTC/USDC': {
          initialPrice: '1',
          background: { sizeBase: '1' },
          takers: { meanSizeBase: '0.05', A: 1 },
          replay,
        },
      },
    });
    const model = new MarketModel({ port, clock, rng: new Rng(1), config });
    model.start();
    fake.tick(600_000);
    model.close();
    expect(port.references).toHaveLength(601);
    for (const r of port.references) {
      const i = Math.floor(r.at / 3000);
      expect(num(r.price)).toBe(replay.prices[i]);
    }
    expect(port.takes.length).toBeGreaterThan(450);
    expect(port.backgrounds.length).toBeGreaterThan(100);
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillsCommand, parseTimeBound } from '../../src/cli/fills.js';
import { csvField, spreadCapturedBps } from '../../src/cli/support/fill-rows.js';
import { dec } from '../../src/core/decimal.js';
import { openJournal } from '../../src/orders/journal/index.js';
import { runCaptured } from '../support/captured-io.js';
import { tempDirPerTest } from '../support/temp-dir.js';
import { csvRows } from './support/fills-csv.js';

const dir = tempDirPerTest('ledger-mm-fills-');
const NOW = Date.parse('2026-11-28T12:00:00.000Z');

describe('fills: the pieces', () => {
  it.each([
    ['2026-11-28', Date.parse('2026-11-28T00:00:00Z')],
    ['2026-11-28T09:30:00Z', Date.parse('2026-11-28T09:30:00Z')],
    ['today', Date.parse('2026-11-28T00:00:00Z')],
    ['90s', NOW - 90_000],
    ['30m', NOW - 1_800_000],
    ['8h', NOW - 8 * 3_600_000],
    ['7d', NOW - 7 * 86_400_000],
    ['yesterday', null],
    ['12', null],
    ['2026-13-45', null],
  ])('--since %s is %s', (text, ms) => {
    expect(parseTimeBound(text, NOW)).toBe(ms);
  });

  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['', ''],
  ])('the CSV field %j is written %j (RFC 4180)', (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it.each([
    ['BUY', '99', '100', '100.00'],
    ['BUY', '101', '100', '-100.00'],
    ['SELL', '100.5', '100', '50.00'],
    ['SELL', '99.5', '100', '-50.00'],
    ['BUY', '99', null, ''],
    ['SELL', null, '100', ''],
  ])('a %s at %s against the reference %s captured %j bps', (side, price, ref, bps) => {
    expect(spreadCapturedBps(side, price, ref)).toBe(bps);
  });
});

describe('fills: the command', () => {
  function store(): string {
    const p = path.join(dir(), 'store.sqlite');
    const j = openJournal({ path: p, clock: { now: () => NOW } });
    const f = (orderId: string, pair: string, side: string, price: string, qty: string, at: number) =>
      j.recordFill({ orderId, pair, side, price: dec(price), quantity: dec(qty), filled: dec(qty), at });
    f('o-1', 'BTC/USDC', 'BUY', '99', '0.5', Date.parse('2026-11-27T23:00:00Z'));
    f('o-2', 'BTC/USDC', 'SELL', '101', '0.25', Date.parse('2026-11-28T01:00:00Z'));
    f('o-3', 'ETH/USDC', 'SELL', '10', '3', Date.parse('2026-11-28T02:00:00Z'));
    j.recordFillMarks([
      { orderId: 'o-2', filled: dec('0.25'), kind: 'reference', value: '100', at: NOW },
      { orderId: 'o-2', filled: dec('0.25'), kind: 'fee', value: '0', at: NOW },
      { orderId: 'o-2', filled: dec('0.25'), kind: 'markout_30s', value: '-3.5', at: NOW },
    ]);
    j.close();
    return p;
  }
  const fills = (args: string[], storePath: string) =>
    runCaptured((io) => fillsCommand.run(args, io), { LEDGER_MM_STORE_PATH: storePath }, dir());

  it('writes CSV with a header, ISO times, the marks once known, and filters by time and pair', async () => {
    const p = store();
    const all = await fills(['--format', 'csv'], p);
    expect(all.code).toBe(0);
    expect(csvRows(all.stdout).records.map((r) => r.orderId)).toEqual(['o-1', 'o-2', 'o-3']);
    const some = await fills(['--format', 'csv', '--since', '2026-11-28', '--pair', 'BTC/USDC'], p);
    const rows = csvRows(some.stdout).records;
    expect(rows).toEqual([
      {
        time: '2026-11-28T01:00:00.000Z',
        pair: 'BTC/USDC',
        side: 'SELL',
        price: '101',
        quantity: '0.25',
        fee: '0',
        orderId: 'o-2',
        clientOrderId: '',
        reference: '100',
        spreadBps: '100.00',
        markout5s: '',
        markout30s: '-3.5',
        markout60s: '',
        markout300s: '',
        party: '',
      },
    ]);
  });

  it('prints JSON and a table; --party matches no fill while the journal records no party', async () => {
    const p = store();
    const json = await fills(['--format', 'json', '--until', '2026-11-28T01:30:00Z'], p);
    expect((JSON.parse(json.stdout) as { orderId: string }[]).map((r) => r.orderId)).toEqual(['o-1', 'o-2']);
    const table = await fills([], p);
    expect(table.stdout).toMatch(/^TIME +PAIR +SIDE +PRICE/);
    expect(table.stdout).toContain('\n3 fills\n');
    const party = await fills(['--format', 'json', '--party', 'someone'], p);
    expect(party.stdout).toBe('[]\n');
  });

  it('refuses a bad --since or --format with exit 2, and says when there is no journal', async () => {
    const p = path.join(dir(), 'none.sqlite');
    const bad = await fills(['--since', 'yesterday'], p);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since must be an ISO time');
    expect((await fills(['--format', 'xml'], p)).stderr).toContain('--format must be table, csv or json');
    const none = await fills(['--format', 'csv'], p);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe(
      'time,pair,side,price,quantity,fee,orderId,clientOrderId,reference,spreadBps,markout5s,markout30s,markout60s,markout300s,party\r\n',
    );
  });
});

import { describe, expect, it } from 'vitest';
import {
  ControlNotReady,
  PauseBook,
  foldControlLog,
  type ControlLogPort,
} from '../../../src/daemon/control/pause-book.js';
import type { ControlChange, ControlChangeInput } from '../../../src/orders/journal/index.js';
import { describeScope } from '../../../src/risk/pause-set.js';

/**
 * The pause book: journal first, then in force; the set after a restart is the fold of the log;
 * an operator's change the log cannot take is refused (not made), the kill switch's is made anyway.
 */
function memoryLog(failWrites = false): ControlLogPort & { rows: ControlChange[] } {
  const rows: ControlChange[] = [];
  return {
    rows,
    record: (c: ControlChangeInput) => {
      if (failWrites) throw new Error('disk full');
      return rows.push({ ...c, seq: rows.length + 1 });
    },
    changes: () => [...rows],
  };
}

const change = (
  action: 'pause' | 'resume',
  pair: string | null,
  side: 'BUY' | 'SELL' | null,
  reason = 'operator',
): ControlChange => ({
  seq: 0,
  action,
  pair,
  side,
  reason,
  by: 'x',
  detail: '',
  at: 1,
});

describe('foldControlLog', () => {
  it.each<{ name: string; log: ControlChange[]; left: string[] }>([
    { name: 'empty', log: [], left: [] },
    { name: 'a pause', log: [change('pause', 'BTC/USDC', null)], left: ['BTC/USDC'] },
    {
      name: 'resume of a pair lifts its sides, not a wider pause',
      log: [
        change('pause', null, null, 'kill-switch'),
        change('pause', 'BTC/USDC', 'BUY'),
        change('resume', 'BTC/USDC', null),
      ],
      left: ['all pairs'],
    },
    {
      name: 'paused again after a resume',
      log: [
        change('pause', 'ETH/USDC', 'SELL'),
        change('resume', null, null),
        change('pause', 'ETH/USDC', null),
      ],
      left: ['ETH/USDC'],
    },
  ])('$name', ({ log, left }) => {
    expect(foldControlLog(log).map(describeScope)).toEqual(left);
  });
});

describe('PauseBook', () => {
  it('reads the log once it opens, journals before it changes the set, and refuses before the log opens', () => {
    let log: ControlLogPort | null = null;
    const errors: string[] = [];
    const book = new PauseBook({
      clock: { now: () => 5 },
      log: () => log,
      onLogError: (w) => errors.push(w),
    });
    expect(() => book.pause({ pair: 'BTC/USDC', side: null }, 'op')).toThrow(ControlNotReady);
    expect(book.pauses()).toEqual([]);
    const stored = memoryLog();
    stored.record({
      action: 'pause',
      pair: 'ETH/USDC',
      side: 'SELL',
      reason: 'operator',
      by: 'before',
      detail: '',
      at: 1,
    });
    log = stored;
    expect(book.pauses().map(describeScope)).toEqual(['ETH/USDC SELL']);
    book.pause({ pair: 'BTC/USDC', side: null }, 'op');
    expect(stored.rows.map((r) => [r.action, r.pair])).toEqual([
      ['pause', 'ETH/USDC'],
      ['pause', 'BTC/USDC'],
    ]);
    const r = book.resume({ pair: null, side: 'SELL' }, 'op');
    expect(r.lifted.map(describeScope)).toEqual(['ETH/USDC SELL']);
    expect(r.still.map(describeScope)).toEqual(['BTC/USDC']);
    expect(errors).toEqual([]);
  });

  it("an operator's change the log cannot take is not made; the kill switch's is made anyway and reported", () => {
    const errors: string[] = [];
    const book = new PauseBook({
      clock: { now: () => 5 },
      log: () => memoryLog(true),
      onLogError: (w) => errors.push(w),
    });
    expect(() => book.pause({ pair: 'BTC/USDC', side: null }, 'op')).toThrow('disk full');
    expect(book.pauses()).toEqual([]);
    const t = book.trip({ pair: null, side: null }, 'drawdown: …');
    expect(t.journaled).toBe(false);
    expect(book.pauses().map((p) => [describeScope(p), p.reason])).toEqual([['all pairs', 'kill-switch']]);
    expect(errors).toEqual(["writing the kill switch's pause of all pairs"]);
  });
});

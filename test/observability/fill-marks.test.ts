import { expect, it } from 'vitest';
import type { FillMarkInput } from '../../src/orders/journal/index.js';
import { FillMarks } from '../../src/observability/fill-marks.js';
import { book, d, market, snapshot } from '../strategy/support/fixtures.js';

/**
 * The daemon's fill marks: at a fill, the reference the last cycle quoted around and the fee
 * (0 once the fee-exemption preflight passed); then each markout as the cycles' ownless mids
 * pass its horizon, keyed by the fill's orderId and cumulative filled.
 */
it('marks a fill with its reference and fee, then its markouts at 5, 30, 60 and 300 s', () => {
  let now = 1_000_000;
  const written: FillMarkInput[] = [];
  let open = false;
  const marks = new FillMarks({
    now: () => now,
    sink: () => (open ? (m) => written.push(...m) : null),
    reference: (pair) => (pair === 'BTC/USDC' ? d('100') : null),
    feeExempt: () => true,
  });
  const cycle = (bid: number, ask: number): void => {
    const s = { ...snapshot([market({ book: book([[bid, 1]], [[ask, 1]], now) })]), now };
    marks.observe({ type: 'cycle', report: { snapshot: s, own: [] } });
  };
  const fill = { orderId: 'o-1', pair: 'BTC/USDC', side: 'BUY' as const, filled: d('0.5') };
  open = true;
  cycle(99, 101);
  marks.observe({ type: 'fill', fill });
  for (const [t, bid, ask] of [
    [6_000, 100, 102], // +6 s: the mid is up 1 from 100 → +100 bps for a buy (the 5 s horizon)
    [31_000, 98, 100], // +31 s: down 1 → −100 bps
    [61_000, 99, 101], // +61 s: unchanged → 0
    [301_000, 99.5, 101.5], // +301 s: up 0.5 → +50 bps
  ] as const) {
    now = 1_000_000 + t;
    cycle(bid, ask);
  }
  expect(written.map((m) => [m.orderId, m.filled.toFixed(), m.kind, m.value])).toEqual([
    ['o-1', '0.5', 'reference', '100'],
    ['o-1', '0.5', 'fee', '0'],
    ['o-1', '0.5', 'markout_5s', '100.00'],
    ['o-1', '0.5', 'markout_30s', '-100.00'],
    ['o-1', '0.5', 'markout_60s', '0.00'],
    ['o-1', '0.5', 'markout_300s', '50.00'],
  ]);
});

it('writes nothing without a journal, and never throws into the daemon', () => {
  const errors: unknown[] = [];
  const marks = new FillMarks({
    now: () => 0,
    sink: () => () => {
      throw new Error('journal closed');
    },
    reference: () => d('1'),
    feeExempt: () => false,
    onError: (e) => errors.push(e),
  });
  marks.observe({ type: 'fill', fill: { orderId: 'o', pair: 'X/Y', side: 'SELL', filled: d('1') } });
  expect(errors.map(String)).toEqual(['Error: journal closed']);
  // Before the engine has a journal the sink is null: nothing is written, and nothing fails.
  const written: FillMarkInput[] = [];
  let sink: ((m: readonly FillMarkInput[]) => void) | null = null;
  const later = new FillMarks({
    now: () => 0,
    sink: () => sink,
    reference: () => d('2'),
    feeExempt: () => false,
  });
  later.observe({ type: 'fill', fill: { orderId: 'a', pair: 'X/Y', side: 'BUY', filled: d('1') } });
  sink = (m) => written.push(...m);
  later.observe({ type: 'fill', fill: { orderId: 'b', pair: 'X/Y', side: 'BUY', filled: d('1') } });
  expect(written.map((m) => `${m.orderId} ${m.kind} ${m.value}`)).toEqual(['b reference 2']);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAPER_TRUTH_LIMIT, startPaperVenue, type PaperVenue } from '../../../src/lab/rig/paper-venue.js';
import { GroundTruth, type TradeTruth } from '../../../src/sim/truth/ground-truth.js';

/** The simulated venue's ground-truth logs, bounded for paper mode (a session runs for days). */

function trade(i: number): TradeTruth {
  return {
    tradeId: `t${i}`,
    pair: 'BTC/USDC',
    price: '100',
    quantity: '1',
    at: i,
    executedAt: new Date(i).toISOString(),
    takerSide: 'BUY',
    maker: { orderId: null, partyId: null },
    taker: { orderId: null, partyId: null },
  };
}

/** Fills every log of `truth` with `n` entries each. */
function fill(truth: GroundTruth, n: number): void {
  for (let i = 0; i < n; i++) {
    truth.event('tick', { i });
    const call = truth.startCall({ endpoint: 'orderbook', host: 'api', method: 'GET', path: '/x' });
    truth.endCall(call, 200, null);
    truth.commit({ kind: 'place', commandId: `c${i}`, orderId: `o${i}`, partyId: 'p', ok: true });
    truth.balances('p', 'acme', 'test', { USDC: { available: String(i), locked: '0' } });
    truth.trade(trade(i));
    truth.reference('BTC/USDC', String(i));
  }
}

describe('GroundTruth.bound', () => {
  it('keeps everything by default', () => {
    let now = 0;
    const truth = new GroundTruth(() => ++now);
    fill(truth, 500);
    expect(truth.limit).toBeNull();
    expect(truth.calls()).toHaveLength(500);
    expect(truth.trades()).toHaveLength(500);
    expect(truth.referencePrices('BTC/USDC')).toHaveLength(500);
  });

  it('keeps the most recent entries of every log, within an eighth over the bound', () => {
    let now = 0;
    const truth = new GroundTruth(() => ++now);
    truth.bound(80);
    fill(truth, 1_000);
    const logs = [
      truth.events(),
      truth.calls(),
      truth.commits(),
      truth.balanceHistory(),
      truth.trades(),
      truth.referencePrices('BTC/USDC'),
    ];
    for (const log of logs) {
      expect(log.length).toBeGreaterThanOrEqual(80);
      expect(log.length).toBeLessThanOrEqual(90);
    }
    // The newest survive, in order, and numbering goes on.
    expect(truth.trades().at(-1)?.tradeId).toBe('t999');
    expect(truth.calls().at(-1)?.id).toBe(1_000);
    expect(truth.referencePrices('BTC/USDC').at(-1)?.price).toBe('999');
    const seqs = truth.events().map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('trims at once when bound, refuses a non-positive bound, and unbounds with null', () => {
    let now = 0;
    const truth = new GroundTruth(() => ++now);
    fill(truth, 300);
    truth.bound(50);
    expect(truth.calls()).toHaveLength(50);
    expect(() => truth.bound(0)).toThrow(RangeError);
    expect(() => truth.bound(1.5)).toThrow(RangeError);
    truth.bound(null);
    fill(truth, 100);
    expect(truth.calls()).toHaveLength(150);
  });
});

describe('paper venue', () => {
  let paper: PaperVenue | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await paper?.close();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
    paper = undefined;
  });

  it(`bounds its ground truth (${PAPER_TRUTH_LIMIT} entries a log by default; configurable)`, async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-paper-truth-'));
    paper = await startPaperVenue({ storePath: path.join(dir, 'store.sqlite'), latency: 'instant' });
    expect(paper.venue.engine.core.truth.limit).toBe(PAPER_TRUTH_LIMIT);
    await paper.close();
    paper = await startPaperVenue({
      storePath: path.join(dir, 'store.sqlite'),
      latency: 'instant',
      truthLimit: null,
    });
    expect(paper.venue.engine.core.truth.limit).toBeNull();
  });
});

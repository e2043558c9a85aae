import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  ExecutionEventHub,
  type CancelOutcome,
  type ExecutionEvent,
  type PlacementOutcome,
} from '../../src/execution/execution-events.js';
import { bindExecutionEvents, observeEvent } from '../../src/observability/bind-events.js';
import { samplesOf } from './support/exposition.js';
import { T0, testMetrics, type TestMetrics } from './support/test-metrics.js';

let t: TestMetrics;
let hub: ExecutionEventHub;
let unbind: () => void;

beforeEach(() => {
  t = testMetrics();
  hub = new ExecutionEventHub();
  unbind = bindExecutionEvents(t.metrics, hub);
});
afterEach(() => t.close());

const ref = (slot: string) => ({ intentId: 'i-1', slot, key: 'k-1', clientOrderId: 'c-1', orderId: 'o-1' });
const placement = (outcome: PlacementOutcome): ExecutionEvent => ({
  type: 'placement',
  outcome,
  ms: 30_000,
  at: T0,
});
const cancel = (outcome: CancelOutcome): ExecutionEvent => ({ type: 'cancel', outcome, ms: 20_000, at: T0 });

describe('bindExecutionEvents', () => {
  it('observes venue stages in the venue histogram, signing in its own, in seconds', async () => {
    hub.emit({ type: 'stage', stage: 'prepare', key: 'k', ms: 11_500, ok: true, at: T0 });
    hub.emit({ type: 'stage', stage: 'cancel-confirm', key: 'k', ms: 40_000, ok: false, code: 'X', at: T0 });
    hub.emit({ type: 'stage', stage: 'sign', key: 'k', ms: 0.3, ok: true, at: T0 });
    hub.emit({ type: 'stage', stage: 'cancel-sign', key: 'k', ms: 2, ok: true, at: T0 });
    const f = await t.scrape();
    const stage = 'ledger_mm_stage_duration_seconds';
    const v = (name: string, labels: Record<string, string>) =>
      samplesOf(f, name).find((s) => Object.entries(labels).every(([k, x]) => s.labels[k] === x))?.value;
    expect(v(`${stage}_count`, { stage: 'prepare', outcome: 'ok' })).toBe(1);
    expect(v(`${stage}_sum`, { stage: 'prepare', outcome: 'ok' })).toBe(11.5);
    expect(v(`${stage}_bucket`, { stage: 'prepare', outcome: 'ok', le: '9' })).toBe(0);
    expect(v(`${stage}_bucket`, { stage: 'prepare', outcome: 'ok', le: '12' })).toBe(1);
    expect(v(`${stage}_count`, { stage: 'cancel_confirm', outcome: 'error' })).toBe(1);
    expect(v(`${stage}_bucket`, { stage: 'cancel_confirm', outcome: 'error', le: '30' })).toBe(0);
    expect(v(`${stage}_bucket`, { stage: 'cancel_confirm', outcome: 'error', le: '45' })).toBe(1);
    const sign = 'ledger_mm_sign_duration_seconds';
    expect(v(`${sign}_bucket`, { stage: 'sign', outcome: 'ok', le: '0.0005' })).toBe(1);
    expect(v(`${sign}_count`, { stage: 'cancel_sign', outcome: 'ok' })).toBe(1);
    expect(samplesOf(f, `${stage}_count`).some((s) => s.labels.stage?.includes('sign'))).toBe(false);
  });

  it('sets the queue gauges and projects the oldest wait to the scrape time', async () => {
    hub.emit({ type: 'queue', queue: 'placement', depth: 3, inFlight: 1, oldestWaitMs: 2_000, at: T0 });
    hub.emit({ type: 'queue', queue: 'cancel', depth: 0, inFlight: 4, oldestWaitMs: 0, at: T0 });
    t.now = T0 + 5_000;
    expect(await t.value('ledger_mm_placement_queue_depth')).toBe(3);
    expect(await t.value('ledger_mm_placements_in_flight')).toBe(1);
    expect(await t.value('ledger_mm_placement_queue_oldest_age_seconds')).toBe(7);
    expect(await t.value('ledger_mm_cancel_queue_depth')).toBe(0);
    expect(await t.value('ledger_mm_cancels_in_flight')).toBe(4);
    expect(await t.value('ledger_mm_cancel_queue_oldest_age_seconds')).toBe(0);
    // An older report never overwrites a newer one.
    hub.emit({ type: 'queue', queue: 'placement', depth: 9, inFlight: 1, oldestWaitMs: 0, at: T0 - 1 });
    expect(await t.value('ledger_mm_placement_queue_depth')).toBe(3);
    hub.emit({ type: 'queue', queue: 'placement', depth: 0, inFlight: 0, oldestWaitMs: 0, at: T0 + 6_000 });
    expect(await t.value('ledger_mm_placement_queue_oldest_age_seconds')).toBe(0);
  });

  it('counts placements by pair, side and outcome, from quote or registry slots', async () => {
    hub.emit(placement({ ...ref('BTC/USDC:BUY:0'), kind: 'placed', state: 'OPEN', alreadyLive: false }));
    hub.emit(placement({ ...ref('BTC/USDC:BUY:1#1'), kind: 'placed', state: 'OPEN', alreadyLive: true }));
    hub.emit(placement({ ...ref('ETH/USDC:SELL:2#0'), kind: 'never-committed', state: 'REJECTED' }));
    hub.emit(placement({ ...ref('ETH/USDC:SELL:0'), kind: 'refused', code: 'PAIR_NOT_ALLOWED' }));
    hub.emit(placement({ ...ref('garbage'), kind: 'failed', code: 'INTERNAL' }));
    hub.emit(placement({ ...ref('DOGE/USDC:BUY:0'), kind: 'insufficient-balance' }));
    const f = await t.scrape();
    const rows = samplesOf(f, 'ledger_mm_placements_total').map((s) => [
      s.labels.pair,
      s.labels.side,
      s.labels.outcome,
      s.value,
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['BTC/USDC', 'buy', 'placed', 2],
        ['ETH/USDC', 'sell', 'never_committed', 1],
        ['ETH/USDC', 'sell', 'refused', 1],
        ['other', 'other', 'failed', 1],
        // Not a configured pair: never its own series.
        ['other', 'buy', 'insufficient_balance', 1],
      ]),
    );
    expect(rows).toHaveLength(5);
  });

  it('counts cancels, abandoned prepares, refused echoes, alarms, unknowns and retries', async () => {
    hub.emit(cancel({ key: 'k', orderId: 'o', filled: null, kind: 'cancelled' }));
    hub.emit(cancel({ key: 'k', orderId: 'o', filled: null, kind: 'stranded', attempts: 5 }));
    hub.emit(cancel({ key: 'k', orderId: 'o', filled: null, kind: 'unknown-order' }));
    hub.emit({ type: 'prepare-abandoned', key: 'k', reason: 'not-wanted', at: T0 });
    hub.emit({ type: 'prepare-abandoned', key: 'k', reason: 'not-wanted', cause: 'toxic', at: T0 });
    hub.emit({ type: 'echo-refused', operation: 'place', key: 'k', detail: 'price', at: T0 });
    hub.emit({ type: 'echo-refused', operation: 'cancel', key: 'k', detail: 'id', at: T0 });
    hub.emit({ type: 'alarm', reason: 'unknown-unresolved', key: null, detail: 'x', at: T0 });
    hub.emit({ type: 'unknown', key: 'k', code: 'CLIENT_TIMEOUT', at: T0 });
    hub.emit({
      type: 'unknown-resolved',
      key: 'k',
      resolution: 'never-committed',
      state: 'REJECTED',
      at: T0,
    });
    hub.emit({ type: 'retry', operation: 're-prepare', key: 'k', code: 'CACHE_EXPIRED', attempt: 1, at: T0 });
    hub.emit({ type: 'retry', operation: 'resubmit', key: 'k', code: 'RATE_LIMITED', attempt: 1, at: T0 });
    hub.emit({ type: 'retry', operation: 'cancel', key: 'k', code: 'cancel-retry', attempt: 2, at: T0 });
    hub.emit({ type: 'backoff', queue: 'placement', reason: 'x', delayMs: 100, at: T0 });
    expect(await t.value('ledger_mm_cancels_total', { outcome: 'cancelled' })).toBe(1);
    expect(await t.value('ledger_mm_cancels_total', { outcome: 'stranded' })).toBe(1);
    expect(await t.value('ledger_mm_cancels_total', { outcome: 'unknown_order' })).toBe(1);
    expect(
      await t.value('ledger_mm_prepares_abandoned_total', { reason: 'not_wanted', cause: 'toxic' }),
    ).toBe(1);
    expect(await t.value('ledger_mm_prepares_abandoned_total', { reason: 'not_wanted', cause: 'none' })).toBe(
      1,
    );
    expect(await t.value('ledger_mm_echo_refused_total', { stage: 'prepare' })).toBe(1);
    expect(await t.value('ledger_mm_echo_refused_total', { stage: 'cancel_prepare' })).toBe(1);
    expect(await t.value('ledger_mm_execution_alarms_total', { reason: 'unknown_unresolved' })).toBe(1);
    expect(await t.value('ledger_mm_unknown_orders_total', { code: 'CLIENT_TIMEOUT' })).toBe(1);
    expect(await t.value('ledger_mm_unknown_resolved_total', { outcome: 'never_committed' })).toBe(1);
    expect(
      await t.value('ledger_mm_execution_retries_total', { stage: 'prepare', code: 'CACHE_EXPIRED' }),
    ).toBe(1);
    expect(
      await t.value('ledger_mm_execution_retries_total', { stage: 'submit', code: 'RATE_LIMITED' }),
    ).toBe(1);
    expect(
      await t.value('ledger_mm_execution_retries_total', { stage: 'cancel_prepare', code: 'CANCEL_RETRY' }),
    ).toBe(1);
  });

  it('stops counting once unbound, ignores unknown types, and survives malformed events', async () => {
    observeEvent(t.metrics, { type: 'daemon-phase' });
    observeEvent(t.metrics, { type: 'placement' }); // no outcome: counted as an error, not thrown
    expect(await t.value('ledger_mm_metrics_collect_errors_total')).toBe(1);
    unbind();
    hub.emit(cancel({ key: 'k', orderId: 'o', filled: null, kind: 'cancelled' }));
    expect(await t.value('ledger_mm_cancels_total', { outcome: 'cancelled' })).toBeUndefined();
  });

  it('bounds the code label: past the cap, new codes are "other" and the overflow is counted', async () => {
    const small = testMetrics({ maxCodes: 3 });
    try {
      for (const code of ['A', 'B', 'C', 'D', 'E', 'A', 'not a code!']) {
        observeEvent(small.metrics, { type: 'unknown', key: 'k', code, at: T0 } as ExecutionEvent);
      }
      const f = await small.scrape();
      const codes = samplesOf(f, 'ledger_mm_unknown_orders_total').map((s) => [s.labels.code, s.value]);
      expect(codes).toEqual([
        ['A', 2],
        ['B', 1],
        ['C', 1],
        ['other', 3],
      ]);
      expect(await small.value('ledger_mm_metrics_label_overflow_total')).toBe(3);
    } finally {
      small.close();
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/observability/metrics/create-metrics.js';
import { observeExecutionEvent } from '../../../src/observability/bind-events.js';
import type { VerifyPreparedPolicy } from '../../../src/signing/prepared-verifier.js';
import type { TamperKind } from '../../../src/sim/engine/prepared-transaction.js';
import { buy, execHarness, type ExecHarness } from '../support/exec-harness.js';
import { closeChecked, partyOrders } from '../support/ground-truth.js';
import { editData, isPlacementPrepare, rewritingTransport } from '../support/transports.js';

/**
 * Clear signing against the simulated venue, whose every prepare carries a real Canton
 * PreparedTransaction and its V2 hash. Each `tamper-prepared` fault lies one way while the JSON
 * echo stays honest (so the echo check alone would sign): the daemon refuses to sign, the
 * venue's ground truth shows no submission for that command, the refusal is journaled, alarmed
 * and counted, and the next placement (or cancel) goes ahead.
 */

let h: ExecHarness | undefined;
afterEach(async () => {
  await closeChecked(h);
  h = undefined;
});

/** The metrics the daemon would show for the events seen so far. */
async function metricsOf(harness: ExecHarness): Promise<string> {
  const metrics = createMetrics({ defaultMetrics: false });
  for (const e of harness.events) observeExecutionEvent(metrics, e);
  return metrics.registry.metrics();
}

/** The command ids the venue prepared, of one kind. */
function commandsOf(harness: ExecHarness, kind: 'place' | 'cancel'): string[] {
  return harness.venue.truth
    .prepares()
    .filter((c) => c.commandKind === kind && c.commandId !== undefined)
    .map((c) => c.commandId!);
}

function submittedCommands(harness: ExecHarness): string[] {
  return harness.venue.truth.submits().map((c) => c.commandId ?? '');
}

describe('without faults every placement and cancel verifies and signs', () => {
  it.each<VerifyPreparedPolicy>(['if-present', 'required'])('policy %s', async (policy) => {
    h = execHarness({ verifyPrepared: policy });
    const placed = await h.settle(h.pipeline.place(buy('s-a')));
    expect(placed).toMatchObject({ kind: 'placed', state: 'OPEN' });
    const cancelled = await h.settle(h.pool.cancel(placed.key!, { reason: 'test' }));
    expect(cancelled.kind).toBe('cancelled');
    expect(h.eventsOf('stage').map((e) => e.stage)).toEqual(
      expect.arrayContaining(['prepare', 'sign', 'submit', 'cancel-prepare', 'cancel-sign', 'cancel-submit']),
    );
    expect(h.eventsOf('signing-unverified')).toHaveLength(0);
    expect(h.eventsOf('alarm')).toHaveLength(0);
    // The venue sent the transaction: it is what was checked.
    expect(h.venue.truth.events().filter((e) => e.type === 'command.tampered')).toHaveLength(0);
  });
});

describe.each<[TamperKind, VerifyPreparedPolicy, RegExp]>([
  ['price', 'if-present', /prepared transaction: price 60600 ≠ 60000/],
  ['quantity', 'if-present', /prepared transaction: quantity 0.02 ≠ 0.01/],
  ['hash', 'if-present', /preparedTransactionHash \S+ ≠ \S+, the V2 hash of the prepared transaction/],
  ['extra-party', 'if-present', /party intruder::1220e+ submits/],
  ['scheme', 'required', /hashingSchemeVersion HASHING_SCHEME_VERSION_V99 cannot be recomputed/],
])('a placement whose prepared transaction lies (%s, policy %s)', (tamper, policy, diff) => {
  it('is never signed nor submitted; journaled, alarmed, counted; the next placement goes ahead', async () => {
    h = execHarness({
      verifyPrepared: policy,
      config: { faults: [{ kind: 'tamper-prepared', endpoint: 'prepare', tamper, at: 1 }] },
    });
    const refused = await h.settle(h.pipeline.place(buy('s-a')));
    expect(refused.kind).toBe('echo-mismatch');
    expect(refused.kind === 'echo-mismatch' && refused.detail).toMatch(diff);

    // Zero signatures, zero submissions for that command, from the venue's ground truth.
    expect(h.eventsOf('stage').map((e) => e.stage)).toEqual(['prepare']);
    const [command] = commandsOf(h, 'place');
    expect(h.venue.truth.events()).toContainEqual(
      expect.objectContaining({ type: 'command.tampered', tamper }),
    );
    expect(submittedCommands(h)).not.toContain(command);
    expect(submittedCommands(h)).toHaveLength(0);

    // Terminal, with the reason journaled.
    const order = h.registry.get(refused.key!)!;
    expect([order.state, order.rejectCode]).toEqual(['REJECTED', 'ECHO_MISMATCH']);
    const rows = h.journal.transitions(refused.key!);
    expect(rows.at(-1)).toMatchObject({ toState: 'REJECTED', eventType: 'EchoMismatch' });
    expect((rows.at(-1)!.event as { detail: string }).detail).toMatch(diff);

    // Alarmed (the error log line) and counted.
    expect(h.eventsOf('alarm')).toMatchObject([{ reason: 'echo-mismatch', key: refused.key }]);
    expect(h.eventsOf('alarm')[0]!.detail).toMatch(diff);
    const text = await metricsOf(h);
    expect(text).toContain('ledger_mm_echo_refused_total{stage="prepare"} 1');
    expect(text).toContain('ledger_mm_execution_alarms_total{reason="echo_mismatch"} 1');

    // The next placement goes ahead, verified and signed.
    const next = await h.settle(h.pipeline.place(buy('s-a')));
    expect(next).toMatchObject({ kind: 'placed', state: 'OPEN' });
    expect(partyOrders(h.venue, h.partyId).filter((o) => o.committed)).toHaveLength(1);
    expect(submittedCommands(h)).toEqual([commandsOf(h, 'place')[1]]);
  });
});

describe.each<[TamperKind, VerifyPreparedPolicy, RegExp]>([
  ['other-contract', 'if-present', /node 0 exercises Cancel on 00\w+, not 00\w+/],
  ['extra-party', 'if-present', /party intruder::1220e+ authorises node 0 \(exercise.actingParties\)/],
  ['hash', 'if-present', /preparedTransactionHash \S+ ≠ \S+/],
  ['scheme', 'required', /HASHING_SCHEME_VERSION_V99 cannot be recomputed/],
])('a cancel whose prepared transaction lies (%s, policy %s)', (tamper, policy, diff) => {
  it('is never signed nor submitted; journaled, alarmed, counted; the next cancel goes ahead', async () => {
    h = execHarness({ verifyPrepared: policy });
    const placed = await h.settle(h.pipeline.place(buy('s-a')));
    expect(placed.kind).toBe('placed');
    h.venue.addFault({ kind: 'tamper-prepared', endpoint: 'cancelPrepare', tamper, at: 1 });

    const refused = await h.settle(h.pool.cancel(placed.key!, { reason: 'test' }));
    expect(refused.kind).toBe('echo-mismatch');
    expect(refused.kind === 'echo-mismatch' && refused.detail).toMatch(diff);
    expect(h.eventsOf('stage').map((e) => e.stage)).not.toContain('cancel-sign');
    const [command] = commandsOf(h, 'cancel');
    expect(submittedCommands(h)).not.toContain(command);
    expect(h.venue.truth.restingOrders(h.partyId)).toHaveLength(1);

    const retry = h.journal.transitions(placed.key!).find((r) => r.eventType === 'CancelRetry');
    expect(retry?.event).toMatchObject({ code: 'ECHO_MISMATCH' });
    expect((retry?.event as { detail?: string } | undefined)?.detail).toMatch(diff);
    expect(h.eventsOf('alarm')).toMatchObject([{ reason: 'echo-mismatch', key: placed.key }]);
    expect(await metricsOf(h)).toContain('ledger_mm_echo_refused_total{stage="cancel_prepare"} 1');

    const again = await h.settle(h.pool.cancel(placed.key!, { reason: 'test' }));
    expect(again.kind).toBe('cancelled');
    expect(submittedCommands(h)).toContain(commandsOf(h, 'cancel')[1]);
  });
});

describe('policy if-present with what cannot be verified', () => {
  it('an unknown hashing scheme is warned about once and left to the echo check', async () => {
    h = execHarness({
      config: {
        faults: [{ kind: 'tamper-prepared', endpoint: 'prepare', tamper: 'scheme', probability: 1 }],
      },
    });
    for (const slot of ['s-a', 's-b']) {
      expect(await h.settle(h.pipeline.place(buy(slot, slot === 's-a' ? '60000' : '59990')))).toMatchObject({
        kind: 'placed',
      });
    }
    const warned = h.eventsOf('signing-unverified');
    expect(warned).toMatchObject([{ operation: 'place', reason: 'unknown-scheme' }]);
    expect(warned[0]!.detail).toContain('HASHING_SCHEME_VERSION_V99');
    expect(h.eventsOf('alarm')).toHaveLength(0);
  });

  it('a prepare without its transaction is warned about once; required refuses it', async () => {
    const strip = (policy: VerifyPreparedPolicy) =>
      execHarness({
        verifyPrepared: policy,
        wrap: (inner) =>
          rewritingTransport(inner, (req, res) =>
            isPlacementPrepare(req) && res.status === 202
              ? editData(res, (data) => Object.assign(data['signing'] as object, { prepared: {} }))
              : undefined,
          ),
      });
    h = strip('if-present');
    expect(await h.settle(h.pipeline.place(buy('s-a')))).toMatchObject({ kind: 'placed' });
    expect(await h.settle(h.pipeline.place(buy('s-b', '59990')))).toMatchObject({ kind: 'placed' });
    expect(h.eventsOf('signing-unverified')).toMatchObject([{ reason: 'absent' }]);
    await h.close();

    h = strip('required');
    const refused = await h.settle(h.pipeline.place(buy('s-a')));
    expect(refused.kind).toBe('echo-mismatch');
    expect(refused.kind === 'echo-mismatch' && refused.detail).toContain('no prepared transaction');
    expect(submittedCommands(h)).toHaveLength(0);
  });
});

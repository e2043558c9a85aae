import { afterEach, describe, expect, it } from 'vitest';
import { BalancesGate } from '../../../src/daemon/startup/balances-gate.js';
import { buy, execHarness, type ExecHarness } from '../support/exec-harness.js';
import { closeChecked } from '../support/ground-truth.js';

/**
 * The pipeline's sign gate: after its prepare (and the prepared transaction's checks), a
 * placement asks the gate before its sign-time freshness check, and waits while it is held. The
 * venue's ground truth shows what was signed: a submission. Nothing reaches the submission host
 * while the gate is held; refused, or held past the prepared transaction's age limit, the order
 * is abandoned unsigned and journaled so.
 */

let h: ExecHarness | undefined;
afterEach(async () => {
  await closeChecked(h);
  h = undefined;
});

const submits = (harness: ExecHarness): number => harness.venue.truth.submits().length;
const prepares = (harness: ExecHarness): number =>
  harness.venue.truth.prepares().filter((c) => c.status === 202).length;

describe('the sign gate', () => {
  it('a held gate keeps the prepared order unsigned; opening it lets the freshness check, the signature and the submission follow', async () => {
    const gate = new BalancesGate();
    gate.hold();
    const stages: string[] = [];
    h = execHarness({
      latency: 'fast',
      policy: {
        maySign: (signal) => gate.wait(signal),
        isWanted: (_intent, stage) => {
          stages.push(`${stage}:${gate.state}`);
          return true;
        },
      },
    });
    const placing = h.pipeline.place(buy('s-a'));
    await h.advance(60_000);
    expect(prepares(h)).toBe(1);
    expect(submits(h)).toBe(0);
    expect(gate.waiting).toBe(1);
    const [order] = h.registry.active();
    expect(order?.state).toBe('PREPARED');
    // The sign-time freshness check has not run yet: it runs once the gate opens.
    expect(stages).toEqual(['queued:held', 'queued:held']);

    gate.open();
    const placed = await h.settle(placing);
    expect(placed).toMatchObject({ kind: 'placed', state: 'OPEN' });
    expect(stages).toEqual(['queued:held', 'queued:held', 'prepared:open']);
    expect(submits(h)).toBe(1);
    expect(h.eventsOf('stage').map((e) => e.stage)).toEqual(['prepare', 'sign', 'submit', 'confirm']);
  });

  it.each<{ name: string; act: (gate: BalancesGate, harness: ExecHarness) => Promise<void> }>([
    { name: 'refused', act: async (gate) => gate.refuse() },
    // 240 s from the prepare's send is the default submit age limit.
    { name: 'held past the prepared transaction age limit', act: (_g, harness) => harness.advance(240_000) },
  ])('$name: the prepared order is abandoned unsigned and journaled', async ({ act }) => {
    const gate = new BalancesGate();
    gate.hold();
    h = execHarness({
      latency: 'fast',
      policy: { isWanted: () => true, maySign: (signal) => gate.wait(signal) },
    });
    const placing = h.pipeline.place(buy('s-a'));
    await h.advance(10_000);
    expect(prepares(h)).toBe(1);
    await act(gate, h);
    const outcome = await h.settle(placing);
    expect(outcome).toMatchObject({ kind: 'not-wanted', stage: 'prepared' });
    expect(submits(h)).toBe(0);
    expect(h.eventsOf('stage').map((e) => e.stage)).toEqual(['prepare']);
    const rows = h.journal.transitions(outcome.key!);
    expect(rows.at(-1)).toMatchObject({
      fromState: 'PREPARED',
      toState: 'ABANDONED',
      eventType: 'Abandoned',
    });
    expect((rows.at(-1)!.event as { reason: string }).reason).toBe('not-signable');
    expect(h.eventsOf('prepare-abandoned')).toMatchObject([{ key: outcome.key, reason: 'not-signable' }]);
    expect(gate.waiting).toBe(0);
  });

  it('a placement cancelled while it waits at the gate is abandoned unsigned (aborted)', async () => {
    const gate = new BalancesGate();
    gate.hold();
    h = execHarness({
      latency: 'fast',
      policy: { isWanted: () => true, maySign: (signal) => gate.wait(signal) },
    });
    const abort = new AbortController();
    const placing = h.pipeline.place(buy('s-a'), { signal: abort.signal });
    await h.advance(10_000);
    abort.abort();
    const outcome = await h.settle(placing);
    expect(outcome).toMatchObject({ kind: 'aborted', reason: 'signal' });
    expect(submits(h)).toBe(0);
    expect(h.registry.get(outcome.key!)?.state).toBe('ABANDONED');
    expect(gate.waiting).toBe(0);
  });

  it('an open gate holds nothing: the order is signed within the same turn as without a gate', async () => {
    const gate = new BalancesGate();
    h = execHarness({
      latency: 'fast',
      policy: { isWanted: () => true, maySign: (signal) => gate.wait(signal) },
    });
    const placed = await h.settle(h.pipeline.place(buy('s-a')));
    expect(placed).toMatchObject({ kind: 'placed', state: 'OPEN' });
    const [prepare, sign] = h.eventsOf('stage');
    expect(sign?.stage).toBe('sign');
    expect(sign!.at).toBe(prepare!.at);
  });
});

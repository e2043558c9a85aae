import { afterEach, describe, expect, it } from 'vitest';
import type { TransportRequest, TransportResponse } from '../../../src/venue/transport.js';
import { buy, execHarness, type ExecHarness } from '../support/exec-harness.js';
import { closeChecked, partyOrders } from '../support/ground-truth.js';
import { editData, isPlacementPrepare, rewritingTransport } from '../support/transports.js';

/**
 * Invariant 2: nothing is signed unless the prepared order equals the intent. A transport between
 * the client and the simulator rewrites one prepare response (the sim has no "tamper" fault): the
 * pipeline refuses to sign, the order ends with an echo-mismatch alarm, and the venue's ground
 * truth shows no submission for that command.
 */

let h: ExecHarness | undefined;
afterEach(async () => {
  await closeChecked(h);
  h = undefined;
});

/** Rewrites the `n`-th placement prepare's echoed order with `patch`. */
function tamperNth(n: number, patch: Record<string, unknown>) {
  let seen = 0;
  return (req: TransportRequest, res: TransportResponse): TransportResponse | undefined => {
    if (!isPlacementPrepare(req) || res.status !== 202 || ++seen !== n) return undefined;
    return editData(res, (data) => Object.assign(data['order'] as Record<string, unknown>, patch));
  };
}

describe('echo check', () => {
  it.each([
    ['price', { price: '60001' }],
    ['quantity', { quantity: '0.011' }],
    ['side', { side: 'SELL' }],
    ['pair', { pair: 'ETH/USDC' }],
  ])(
    'a tampered %s is never signed: order ends with an alarm, no submit for its command',
    async (_f, patch) => {
      h = execHarness({ wrap: (inner) => rewritingTransport(inner, tamperNth(1, patch)) });
      const tampered = await h.settle(h.pipeline.place(buy('s-a')));

      expect(tampered.kind).toBe('echo-mismatch');
      const order = h.registry.get(tampered.key!)!;
      // Refused to sign: recorded as rejected; the unsigned prepare commits nothing.
      expect([order.state, order.rejectCode]).toEqual(['REJECTED', 'ECHO_MISMATCH']);
      expect(order.flags.alarms).toContain('echo-mismatch');
      expect(h.eventsOf('echo-refused')).toMatchObject([{ operation: 'place', key: tampered.key }]);
      expect(h.eventsOf('alarm')).toMatchObject([{ reason: 'echo-mismatch', key: tampered.key }]);
      expect(h.eventsOf('stage').map((e) => e.stage)).toEqual(['prepare']);

      // Ground truth: the command was prepared, and no submission ever named it.
      const commandId = h.venue.truth.prepares()[0]!.commandId!;
      expect(h.venue.truth.submits().some((s) => s.commandId === commandId)).toBe(false);
      expect(h.venue.truth.submits()).toHaveLength(0);

      // The slot is free again; the next placement goes through untouched.
      const next = await h.settle(h.pipeline.place(buy('s-a')));
      expect(next).toMatchObject({ kind: 'placed', state: 'OPEN' });
      expect(partyOrders(h.venue, h.partyId).filter((o) => o.committed)).toHaveLength(1);
    },
  );

  it('compares decimals exactly as decimals: trailing zeros are the same order', async () => {
    h = execHarness({
      wrap: (inner) => rewritingTransport(inner, tamperNth(1, { price: '60000.000', quantity: '0.0100' })),
    });
    const outcome = await h.settle(h.pipeline.place(buy('s-a')));
    expect(outcome).toMatchObject({ kind: 'placed', state: 'OPEN' });
    expect(h.eventsOf('alarm')).toHaveLength(0);
  });

  it('a 202 that claims to be committed already is refused too', async () => {
    h = execHarness({
      wrap: (inner) => rewritingTransport(inner, tamperNth(1, { status: 'OPEN', contractId: 'c-x' })),
    });
    const outcome = await h.settle(h.pipeline.place(buy('s-a')));
    expect(outcome).toMatchObject({ kind: 'echo-mismatch' });
    expect(h.registry.get(outcome.key!)!.state).toBe('REJECTED');
    expect(h.venue.truth.submits()).toHaveLength(0);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, dec } from '../../src/core/decimal.js';
import {
  IllegalTransitionError,
  ORDER_EVENT_TYPES,
  TRANSITIONS,
  countsAsExposure,
  isTerminal,
} from '../../src/orders/fsm/index.js';
import type { OrderEvent, OrderEventType, OrderState, TrackedOrder } from '../../src/orders/fsm/index.js';
import { OrderRegistry } from '../../src/orders/order-registry.js';
import { SlotOccupiedError } from '../../src/orders/registry-errors.js';
import { PAIR, T0, TO_OPEN, echoOf, wireOrder } from './support/fixtures.js';

/**
 * Random command sequences against a registry. Events are plausible (ids belong to the order,
 * amounts are on a small grid) but are often illegal for the order's state: those must throw
 * IllegalTransitionError and change nothing.
 */

const SLOTS = ['BTC/USDC:BUY:0', 'BTC/USDC:BUY:1', 'BTC/USDC:SELL:0'] as const;
const FILLS = ['0', '0.25', '0.5', '0.75', '1', '1.25'] as const;
const STATUSES = [
  'OPEN',
  'PARTIALLY_FILLED',
  'PENDING_TRIGGER',
  'FILLED',
  'CANCELLED',
  'EXPIRED',
  'REJECTED',
  null,
  'SOMETHING_NEW',
] as const;
const STEPS_MS = [0, 1_000, 60_000, 301_000] as const;
const PIPELINE = TO_OPEN;

type Cmd =
  /** A new intent, then `advance` steps down the placement pipeline (as the pipeline would). */
  | { readonly kind: 'create'; readonly slot: number; readonly advance: number; readonly ambiguous: boolean }
  | { readonly kind: 'adopt'; readonly partly: boolean }
  | {
      readonly kind: 'event';
      readonly target: number;
      /** Choose among the types the table allows in the current state (else among all). */
      readonly legal: boolean;
      readonly pick: number;
      readonly status: number;
      readonly filled: number;
      readonly contract: number | null;
      readonly mismatch: boolean;
      readonly step: number;
    };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      slot: fc.nat(SLOTS.length - 1),
      advance: fc.nat(PIPELINE.length),
      ambiguous: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('adopt' as const), partly: fc.boolean() }) },
  {
    weight: 20,
    arbitrary: fc.record({
      kind: fc.constant('event' as const),
      target: fc.nat(),
      legal: fc.nat(3).map((x) => x > 0),
      pick: fc.nat(),
      status: fc.nat(STATUSES.length - 1),
      filled: fc.nat(FILLS.length - 1),
      contract: fc.option(fc.nat(3), { nil: null }),
      mismatch: fc.nat(4).map((x) => x === 0),
      step: fc.nat(STEPS_MS.length - 1),
    }),
  },
);

function buildEvent(
  o: TrackedOrder,
  type: OrderEventType,
  c: Extract<Cmd, { kind: 'event' }>,
  at: number,
): OrderEvent {
  const filled = dec(FILLS[c.filled]!);
  const contractId = c.contract === null ? null : `${o.key}:c${c.contract}`;
  const status = STATUSES[c.status]!;
  const clientOrderId = o.clientOrderId ?? 'none';
  const echo = echoOf(o, c.mismatch ? { price: dec('101') } : {});
  const orderId = c.mismatch ? `ord-${o.key}-b` : `ord-${o.key}`;
  switch (type) {
    case 'Prepared':
      return { type, orderId, clientOrderId, echo, at };
    case 'PreparedLive':
      return { type, orderId, clientOrderId, echo, status, contractId, filled, at };
    case 'ConfirmedResting':
      return { type, status: c.mismatch ? status : 'OPEN', contractId, filled, at };
    case 'VenueSnapshot':
      return { type, status, contractId, filled, quantity: o.quantity, at };
    case 'PrepareFailed':
    case 'SubmitRejected':
    case 'SubmitAmbiguous':
      return { type, code: 'X', at };
    case 'EchoMismatch':
    case 'CancelStranded':
      return { type, detail: 'x', at };
    case 'Abandoned':
      return { type, reason: 'x', at };
    case 'CancelRequested':
      return { type, reason: 'x', at };
    case 'CancelConfirmed':
    case 'CancelFailedFilled':
    case 'CancelFailedCancelled':
      return { type, filled, at };
    case 'ContractRotated':
      return { type, contractId: contractId ?? `${o.key}:c0`, at };
    case 'CancelRetry':
      return { type, at };
    default:
      return { type, at };
  }
}

const remainingOf = (o: TrackedOrder): Dec => o.quantity.minus(o.filled);

describe('invariants under random event sequences', () => {
  it('hold for every sequence', () => {
    const visited = new Set<OrderState>();
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 1, maxLength: 80, size: 'max' }), (cmds) => {
        const reg = new OrderRegistry();
        const fillSums = new Map<string, Dec>();
        reg.onTransition((r) => {
          let sum = fillSums.get(r.key) ?? r.order.filled;
          for (const e of r.effects) if (e.type === 'fill') sum = sum.plus(e.quantity);
          fillSums.set(r.key, sum);
        });
        let now = T0;
        let n = 0;
        for (const c of cmds) {
          n += 1;
          if (c.kind === 'create') {
            const slot = SLOTS[c.slot]!;
            const occupied = reg.inSlot(slot).length > 0;
            const make = (): TrackedOrder =>
              reg.createIntent({
                slot,
                pair: PAIR,
                side: slot.includes('SELL') ? 'SELL' : 'BUY',
                price: dec('100'),
                quantity: dec('1'),
                clientOrderId: `acme-${n}`,
                at: now,
              });
            if (occupied) {
              expect(make).toThrow(SlotOccupiedError);
            } else {
              const { key } = make();
              const path = PIPELINE.slice(0, c.advance).map((t) =>
                t === 'SubmitAccepted' && c.ambiguous ? 'SubmitAmbiguous' : t,
              );
              for (const type of path) {
                const o = reg.get(key)!;
                const step = {
                  kind: 'event',
                  target: 0,
                  legal: true,
                  pick: 0,
                  status: 0,
                  filled: 0,
                  contract: 0,
                  mismatch: false,
                  step: 0,
                } as const;
                reg.apply(key, buildEvent(o, type, step, now));
              }
            }
          } else if (c.kind === 'adopt') {
            reg.adoptForeign(
              wireOrder({
                orderId: `foreign-${n}`,
                clientOrderId: null,
                contractId: `foreign-${n}:c0`,
                filled: c.partly ? '0.5' : '0',
                status: c.partly ? 'PARTIALLY_FILLED' : 'OPEN',
              }),
              now,
            );
          } else {
            const orders = reg.all();
            if (orders.length === 0) continue;
            now += STEPS_MS[c.step]!;
            const before = orders[c.target % orders.length]!;
            const legalTypes = Object.keys(TRANSITIONS[before.state]) as OrderEventType[];
            const pool = c.legal && legalTypes.length > 0 ? legalTypes : ORDER_EVENT_TYPES;
            const event = buildEvent(before, pool[c.pick % pool.length]!, c, now);
            const countsBefore = JSON.stringify(reg.countsByState());
            let after: TrackedOrder;
            try {
              const r = reg.apply(before.key, event);
              after = r.order;
              // Each applied event: one version, fills exactly account for the filled delta.
              expect(after.version).toBe(before.version + 1);
              const fills = r.effects.filter((e) => e.type === 'fill');
              expect(fills.length).toBe(after.fills - before.fills);
            } catch (err) {
              expect(err).toBeInstanceOf(IllegalTransitionError);
              expect(reg.get(before.key)).toBe(before);
              expect(JSON.stringify(reg.countsByState())).toBe(countsBefore);
              continue;
            }
            if (isTerminal(before.state)) expect(after.state).toBe(before.state);
            expect(after.filled.gte(before.filled)).toBe(true);
            expect(after.contractIds.slice(0, before.contractIds.length)).toEqual(before.contractIds);
          }
          checkRegistry(reg, fillSums, visited);
        }
      }),
      { numRuns: 300 },
    );
    // The generator is only useful if it reaches every state.
    expect([...visited].sort()).toEqual(Object.keys(TRANSITIONS).sort());
  });
});

function checkRegistry(reg: OrderRegistry, fillSums: Map<string, Dec>, visited: Set<OrderState>): void {
  expect(reg.slotViolations()).toEqual([]);
  for (const slot of SLOTS) expect(reg.inSlot(slot).length).toBeLessThanOrEqual(1);
  const expected = { BUY: new Dec(0), SELL: new Dec(0) };
  for (const o of reg.all()) {
    visited.add(o.state);
    expect(o.filled.gte(0)).toBe(true);
    expect(o.filled.lte(o.quantity)).toBe(true);
    expect(new Set(o.contractIds).size).toBe(o.contractIds.length);
    for (const c of o.contractIds) expect(reg.byContractId(c)).toBe(o);
    if (o.orderId !== null) expect(reg.byOrderId(o.orderId)).toBe(o);
    expect(fillSums.get(o.key)!.eq(o.filled)).toBe(true);
    // Which states count is pinned state by state in state-predicates.test.ts.
    if (countsAsExposure(o.state)) expected[o.side] = expected[o.side].plus(remainingOf(o));
  }
  const exposure = reg.exposure(PAIR);
  expect(exposure.BUY.quantity.eq(expected.BUY)).toBe(true);
  expect(exposure.SELL.quantity.eq(expected.SELL)).toBe(true);
  // Explicitly: an UNKNOWN order's remaining is inside its side's exposure.
  for (const o of reg.all().filter((x) => x.state === 'UNKNOWN')) {
    expect(exposure[o.side].quantity.gte(remainingOf(o))).toBe(true);
  }
}

/**
 * Recovery's decisions, one restored order at a time, against a scripted venue (the simulated
 * venue never answers 404 for its own orders, so these paths are driven here).
 */

import FakeTimers from '@sinonjs/fake-timers';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import {
  IgnoredOrders,
  UnknownOrders,
  type OrdersReader,
} from '../../../src/execution/resolve/orders-poller.js';
import { recover, type RecoveryReport } from '../../../src/execution/resolve/recovery.js';
import { OrderRegistry } from '../../../src/orders/order-registry.js';
import {
  ORDER_STATES,
  PREPARED_TX_LIFETIME_MS,
  holdsPreparedTransaction,
  isBeforeSubmission,
  type TrackedOrder,
} from '../../../src/orders/fsm/index.js';
import type { OrdersQuery } from '../../../src/venue/endpoints.js';
import { VenueError } from '../../../src/venue/errors.js';
import type { Order } from '../../../src/venue/schemas.js';
import { CLIENT_ID, ORDER_ID, orderIn, wireOrder } from '../../orders/support/fixtures.js';

interface Script {
  /** GET /orders/{orderId}: absent or null → 404. */
  readonly byId?: Record<string, Order | null>;
  readonly open?: Order[];
  readonly all?: Order[];
}

function scripted(s: Script): OrdersReader & { queries: OrdersQuery[]; reads: string[] } {
  const queries: OrdersQuery[] = [];
  const reads: string[] = [];
  return {
    queries,
    reads,
    async *iterateOrders(query: OrdersQuery = {}) {
      queries.push(query);
      await Promise.resolve();
      yield* query.status === 'ALL' ? (s.all ?? []) : (s.open ?? []);
    },
    async getOrder(orderId: string) {
      reads.push(orderId);
      const o = s.byId?.[orderId];
      if (o == null) throw new VenueError({ code: 'CONTRACT_NOT_FOUND', message: 'not found', status: 404 });
      return o;
    },
  };
}

async function recoverOne(
  order: TrackedOrder,
  script: Script,
  nowOffsetMs = 60_000,
): Promise<{
  report: RecoveryReport;
  after: TrackedOrder;
  registry: OrderRegistry;
  venue: ReturnType<typeof scripted>;
  cancels: string[];
}> {
  const registry = new OrderRegistry();
  const clock = fakeClock(FakeTimers.createClock(order.updatedAt + nowOffsetMs));
  const venue = scripted(script);
  const cancels: string[] = [];
  const report = await recover({
    journal: { loadOpenOrders: () => [{ key: order.key, order } as never] },
    registry,
    client: venue,
    clock,
    unknown: new UnknownOrders({
      registry,
      policy: 'adopt',
      ignored: new IgnoredOrders(),
      emit: () => undefined,
    }),
    requestCancel: (o) => cancels.push(o.key),
    historyMarginMs: 60_000,
  });
  return { report, after: registry.get(order.key)!, registry, venue, cancels };
}

const OPEN_WIRE = wireOrder({ status: 'OPEN', contractId: 'c-1', filled: '0' });

describe('recovery decisions', () => {
  it('SUBMITTED + 404 past the 5-minute rule → NeverCommitted; before it → left pending, nothing assumed', async () => {
    const submitted = orderIn('SUBMITTED');
    const late = await recoverOne(submitted, {}, PREPARED_TX_LIFETIME_MS + 60_000);
    expect(late.after).toMatchObject({ state: 'REJECTED', rejectCode: 'NEVER_COMMITTED' });
    const early = await recoverOne(submitted, {}, 60_000);
    expect(early.after.state).toBe('SUBMITTED');
    expect(early.report.pending).toEqual([submitted.key]);
  });

  it('UNKNOWN with a status null read stays pending until the deadline', async () => {
    const unknown = orderIn('UNKNOWN');
    const pending = wireOrder({ status: null, contractId: null });
    const r = await recoverOne(unknown, { byId: { [ORDER_ID]: pending } }, 60_000);
    expect(r.after.state).toBe('UNKNOWN');
    expect(r.report.orders[0]!.action).toBe('pending');
  });

  it('SUBMITTING is first marked ambiguous (its answer is lost), then read: OPEN on the venue → OPEN', async () => {
    const r = await recoverOne(orderIn('SUBMITTING'), { byId: { [ORDER_ID]: OPEN_WIRE }, open: [OPEN_WIRE] });
    expect(r.after.state).toBe('OPEN');
    expect(r.report.orders[0]).toMatchObject({ from: 'SUBMITTING', to: 'OPEN', action: 'resolved-by-read' });
  });

  it('OPEN + 404 is resolved through the OPEN list', async () => {
    const listed = wireOrder({ status: 'PARTIALLY_FILLED', contractId: 'c-2', filled: '0.25' });
    const r = await recoverOne(orderIn('OPEN'), { open: [listed] });
    expect(r.after.state).toBe('PARTIALLY_FILLED');
    expect(r.after.filled.toFixed()).toBe('0.25');
  });

  it('OPEN + 404 and not listed is resolved through the ALL history (bounded by `from`)', async () => {
    const open = orderIn('OPEN');
    const filled = wireOrder({ status: 'FILLED', filled: '1' });
    const r = await recoverOne(open, { all: [filled] });
    expect(r.after.state).toBe('FILLED');
    const history = r.venue.queries.find((q) => q.status === 'ALL')!;
    expect(new Date(history.from!).getTime()).toBe(open.createdAt - 60_000);
  });

  it('OPEN + 404 found nowhere → NotFound: alarm, still counted as exposure', async () => {
    const r = await recoverOne(orderIn('OPEN'), {});
    expect(r.after.state).toBe('OPEN');
    expect(r.after.flags.alarms).toContain('not-found-after-commit');
    expect(r.report.orders[0]!.action).toBe('not-found');
  });

  it('INTENT / PREPARING: looked up by clientOrderId in the ALL history, else Abandoned; never re-prepared', async () => {
    for (const state of ORDER_STATES.filter((s) => isBeforeSubmission(s) && !holdsPreparedTransaction(s))) {
      const none = await recoverOne(orderIn(state), {});
      expect(none.after.state).toBe('ABANDONED');
      const found = await recoverOne(orderIn(state), { all: [OPEN_WIRE], open: [OPEN_WIRE] });
      expect(found.after).toMatchObject({ state: 'OPEN', orderId: ORDER_ID, clientOrderId: CLIENT_ID });
      expect(found.report.orders[0]!.action).toBe('found-in-history');
    }
  });

  it('PREPARED / SIGNED: read by orderId; nothing committed → Abandoned; committed → escalated and tracked', async () => {
    for (const state of ORDER_STATES.filter(holdsPreparedTransaction)) {
      const nothing = await recoverOne(orderIn(state), {
        byId: { [ORDER_ID]: wireOrder({ status: null, contractId: null }) },
      });
      expect(nothing.after.state).toBe('ABANDONED');
      expect(nothing.venue.reads).toEqual([ORDER_ID]);
      const committed = await recoverOne(orderIn(state), {
        byId: { [ORDER_ID]: OPEN_WIRE },
        open: [OPEN_WIRE],
      });
      expect(committed.after.state).toBe('OPEN');
      expect(committed.report.orders[0]!.action).toBe('escalated');
    }
  });

  it('a cancel that was requested or in flight is handed to the cancel pool again', async () => {
    const requested = await recoverOne(orderIn('CANCEL_REQUESTED'), {
      byId: { [ORDER_ID]: OPEN_WIRE },
      open: [OPEN_WIRE],
    });
    expect(requested.cancels).toEqual([requested.after.key]);
    const cancelling = await recoverOne(orderIn('CANCELLING'), {
      byId: { [ORDER_ID]: OPEN_WIRE },
      open: [OPEN_WIRE],
    });
    expect(cancelling.after.state).toBe('CANCEL_REQUESTED');
    expect(cancelling.cancels).toEqual([cancelling.after.key]);
    const done = await recoverOne(orderIn('CANCELLING'), {
      byId: { [ORDER_ID]: wireOrder({ status: 'CANCELLED' }) },
    });
    expect(done.after.state).toBe('CANCELLED');
    expect(done.cancels).toEqual([]);
  });

  it('adopts a resting order nobody knows, after settling the journal', async () => {
    const stranger = wireOrder({ orderId: 'ord-x', clientOrderId: null, contractId: 'c-x', price: '90' });
    const r = await recoverOne(orderIn('OPEN'), {
      byId: { [ORDER_ID]: OPEN_WIRE },
      open: [OPEN_WIRE, stranger],
    });
    expect(r.after.state).toBe('OPEN');
    const adopted = r.registry.byOrderId('ord-x')!;
    expect(adopted).toMatchObject({ key: 'foreign:ord-x', slot: null, state: 'OPEN' });
    expect(adopted.flags.foreign).toBe(true);
    expect(adopted.price!.eq(dec('90'))).toBe(true);
  });
});

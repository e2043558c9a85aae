import { expect } from 'vitest';
import type { OrderRegistry } from '../../../src/orders/order-registry.js';
import type { CallRecord, OrderTruth } from '../../../src/sim/truth/ground-truth.js';
import type { SimVenue } from '../../../src/sim/sim-venue.js';
import type { ExecHarness } from './exec-harness.js';
import { liveInterval, maxConcurrent } from '../../../src/lab/simulate/figures/intervals.js';

/** When an order was on the book, from the venue's own history: [first resting, first end). */
export { liveInterval };

/** The party's orders in the ground truth. */
export function partyOrders(venue: SimVenue, partyId: string): OrderTruth[] {
  return venue.truth.orders().filter((o) => o.partyId === partyId);
}

/**
 * THE invariant, from the venue's ground truth: no clientOrderId ever committed twice, and no
 * quote slot ever had two orders on the book at the same time. Slots come from the registry
 * (clientOrderId → slot); orders that are not ours are ignored.
 */
export function expectNoDuplicateLive(venue: SimVenue, partyId: string, registry: OrderRegistry): void {
  const orders = partyOrders(venue, partyId);
  const committedByCid = new Map<string, number>();
  for (const o of orders) {
    if (o.clientOrderId === null || !o.committed) continue;
    committedByCid.set(o.clientOrderId, (committedByCid.get(o.clientOrderId) ?? 0) + 1);
  }
  for (const [cid, n] of committedByCid) expect(n, `clientOrderId ${cid} committed ${n} times`).toBe(1);

  const bySlot = new Map<string, { orderId: string; start: number; end: number }[]>();
  for (const o of orders) {
    const slot = o.clientOrderId === null ? undefined : registry.byClientOrderId(o.clientOrderId)?.slot;
    const live = liveInterval(o);
    if (slot == null || live === null) continue;
    const list = bySlot.get(slot) ?? [];
    list.push({ orderId: o.orderId, ...live });
    bySlot.set(slot, list);
  }
  for (const [slot, list] of bySlot) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i]!;
        const b = list[j]!;
        const overlap = a.start < b.end && b.start < a.end;
        expect(overlap, `slot ${slot}: ${a.orderId} and ${b.orderId} were live at once`).toBe(false);
      }
    }
  }
}

/** Calls of one endpoint for the party (or, for submits, of the party's commands). */
export function callsOf(venue: SimVenue, endpoint: CallRecord['endpoint'], partyId?: string): CallRecord[] {
  return venue.truth
    .calls()
    .filter((c) => c.endpoint === endpoint && (partyId === undefined || c.partyId === partyId));
}

/** The most calls of `calls` that were open at the same instant (touching calls do not overlap). */
export function maxOverlap(calls: readonly CallRecord[]): number {
  return maxConcurrent(calls.map((c) => ({ start: c.startedAt, end: c.endedAt ?? Infinity })));
}

/**
 * The end of every execution test on the simulator: invariant 1 on the venue's ground truth (no
 * slot ever held two live orders), then the harness closed. Nothing to do when the test made none.
 */
export async function closeChecked(h: ExecHarness | undefined): Promise<void> {
  if (h === undefined) return;
  expectNoDuplicateLive(h.venue, h.partyId, h.registry);
  await h.close();
}

/**
 * The firm's orders and inventory as one: read-only views over every party's registry and
 * inventory, with the shapes the single-party engine gives (`OrdersView`, `InventoryView`), so
 * the quote cycle, the risk gate, the status page and the metrics see the firm's book — its
 * orders on every party, its position summed over every party's holdings — without knowing there
 * are several parties.
 *
 * Keys are unique across parties: each party's clientOrderIds carry its account's own prefix,
 * and a registry key is made from its clientOrderId. Registry slots are the firm's: the dispatch
 * keeps one order per slot whichever party holds it.
 */
import { ORDER_STATES, type OrderState, type TrackedOrder } from '../../orders/fsm/index.js';
import type { OrderFilter, PairExposure, SideExposure, SlotViolation } from '../../orders/order-registry.js';
import type { OrdersView } from '../engine-types.js';
import { emptyInventory, type InventoryView, type PairInventory } from '../inventory.js';

function sumSide(a: SideExposure, b: SideExposure): SideExposure {
  return {
    quantity: a.quantity.plus(b.quantity),
    notional: a.notional.plus(b.notional),
    orders: a.orders + b.orders,
    unpriced: a.unpriced + b.unpriced,
  };
}

function firstDefined<T>(views: readonly OrdersView[], f: (v: OrdersView) => T | undefined): T | undefined {
  for (const v of views) {
    const r = f(v);
    if (r !== undefined) return r;
  }
  return undefined;
}

/** Every party's registry as one; see the module doc. */
export class FirmOrders implements OrdersView {
  constructor(private readonly views: () => readonly OrdersView[]) {}

  get size(): number {
    return this.views().reduce((n, v) => n + v.size, 0);
  }

  get(key: string): TrackedOrder | undefined {
    return firstDefined(this.views(), (v) => v.get(key));
  }

  byOrderId(orderId: string): TrackedOrder | undefined {
    return firstDefined(this.views(), (v) => v.byOrderId(orderId));
  }

  byClientOrderId(clientOrderId: string): TrackedOrder | undefined {
    return firstDefined(this.views(), (v) => v.byClientOrderId(clientOrderId));
  }

  byContractId(contractId: string): TrackedOrder | undefined {
    return firstDefined(this.views(), (v) => v.byContractId(contractId));
  }

  isCurrentContractId(contractId: string): boolean {
    return this.views().some((v) => v.isCurrentContractId(contractId));
  }

  inSlot(slot: string): TrackedOrder[] {
    return this.views().flatMap((v) => v.inSlot(slot));
  }

  /** Each party's own violations, and a slot held by orders of two parties. */
  slotViolations(): SlotViolation[] {
    const own = this.views().flatMap((v) => v.slotViolations());
    const bySlot = new Map<string, string[]>();
    for (const o of this.active()) {
      if (o.slot === null) continue;
      bySlot.set(o.slot, [...(bySlot.get(o.slot) ?? []), o.key]);
    }
    const seen = new Set(own.map((v) => v.slot));
    const across = [...bySlot]
      .filter(([slot, keys]) => keys.length > 1 && !seen.has(slot))
      .map(([slot, keys]) => ({ slot, keys }));
    return [...own, ...across];
  }

  all(filter: OrderFilter = {}): TrackedOrder[] {
    return this.views().flatMap((v) => v.all(filter));
  }

  active(filter: OrderFilter = {}): TrackedOrder[] {
    return this.views().flatMap((v) => v.active(filter));
  }

  live(filter: OrderFilter = {}): TrackedOrder[] {
    return this.views().flatMap((v) => v.live(filter));
  }

  exposure(pair: string): PairExposure {
    return this.views()
      .map((v) => v.exposure(pair))
      .reduce((a, b) => ({ BUY: sumSide(a.BUY, b.BUY), SELL: sumSide(a.SELL, b.SELL) }));
  }

  countsByState(): Record<OrderState, number> {
    const out = Object.fromEntries(ORDER_STATES.map((s) => [s, 0])) as Record<OrderState, number>;
    for (const v of this.views()) {
      const c = v.countsByState();
      for (const s of ORDER_STATES) out[s] += c[s];
    }
    return out;
  }
}

function sumPair(a: PairInventory, b: PairInventory): PairInventory {
  return {
    pair: a.pair,
    base: a.base.plus(b.base),
    quote: a.quote.plus(b.quote),
    bought: a.bought.plus(b.bought),
    sold: a.sold.plus(b.sold),
    buyNotional: a.buyNotional.plus(b.buyNotional),
    sellNotional: a.sellNotional.plus(b.sellNotional),
    fills: a.fills + b.fills,
    unpricedFills: a.unpricedFills + b.unpricedFills,
  };
}

/** Every party's inventory summed: the firm's position per pair. */
export class FirmInventory implements InventoryView {
  constructor(private readonly views: () => readonly InventoryView[]) {}

  get(pair: string): PairInventory {
    return this.views()
      .map((v) => v.get(pair))
      .reduce(sumPair, emptyInventory(pair));
  }

  all(): PairInventory[] {
    const pairs = new Set(this.views().flatMap((v) => v.all().map((p) => p.pair)));
    return [...pairs].sort().map((p) => this.get(p));
  }

  get fillCount(): number {
    return this.views().reduce((n, v) => n + v.fillCount, 0);
  }
}

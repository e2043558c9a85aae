/**
 * The read side of the simulated venue's ground truth: {@link GroundTruthView} serves copies of
 * what really happened (orders with their full histories, calls, commits, balances over time,
 * trades, events, reference prices) and each placement's span from prepare to settlement. Tests
 * assert on it, the admin endpoints serve it, and the lab's runs capture it for their figures.
 */
import type { EngineCore } from '../engine/engine-core.js';
import type {
  BalanceSnapshot,
  CallRecord,
  CommitRecord,
  OrderTruth,
  TradeTruth,
  TruthEvent,
} from './ground-truth.js';
import { isRestingOrder, orderToTruth } from '../engine/orders.js';

/** A placement's span for one party: from its prepare's arrival to its commit (or failure). */
export interface PlacementSpan {
  orderId: string;
  partyId: string;
  preparedAt: number;
  /** When the command committed or failed; null when it is still open or was abandoned. */
  settledAt: number | null;
  outcome: 'committed' | 'failed' | 'abandoned' | 'pending';
}

/**
 * Read-only accessors over the ground truth, for tests and the admin endpoints. Every accessor
 * returns copies: nothing a test does to them reaches the engine.
 */
export class GroundTruthView {
  constructor(private readonly core: EngineCore) {}

  /** Every order ever prepared, oldest first, with its full history of statuses, contracts and fills. */
  orders(): OrderTruth[] {
    return this.core.orders.all().map(orderToTruth);
  }

  /** One order's truth. */
  order(orderId: string): OrderTruth | undefined {
    const o = this.core.orders.get(orderId);
    return o ? orderToTruth(o) : undefined;
  }

  /** Orders resting right now (OPEN or PARTIALLY_FILLED). */
  restingOrders(partyId?: string): OrderTruth[] {
    return this.core.orders
      .all()
      .filter((o) => isRestingOrder(o) && (partyId === undefined || o.partyId === partyId))
      .map(orderToTruth);
  }

  /** Every call to the router with start and end times. */
  calls(): CallRecord[] {
    return this.core.truth.calls();
  }

  /** Calls to POST /orders and POST /orders/{contractId}/cancel. */
  prepares(): CallRecord[] {
    return this.calls().filter((c) => c.endpoint === 'prepare' || c.endpoint === 'cancelPrepare');
  }

  /** Calls to the submission host, each with its signature verdict. */
  submits(): CallRecord[] {
    return this.calls().filter((c) => c.endpoint === 'submit');
  }

  /** Every commit attempt. */
  commits(): CommitRecord[] {
    return this.core.truth.commits();
  }

  /** Balance snapshots after every change, optionally for one party. */
  balances(partyId?: string): BalanceSnapshot[] {
    return this.core.truth.balanceHistory(partyId);
  }

  /** Every trade with attribution. */
  trades(): TradeTruth[] {
    return this.core.truth.trades();
  }

  /** The engine's event log. */
  events(): TruthEvent[] {
    return this.core.truth.events();
  }

  /** The reference price series of a pair. */
  referencePrices(pair: string): { at: number; price: string }[] {
    return this.core.truth.referencePrices(pair);
  }

  /**
   * Each placement's span, from its prepare to its settlement, so tests can check that a
   * party's placements never overlapped.
   */
  placementSpans(partyId?: string): PlacementSpan[] {
    const out: PlacementSpan[] = [];
    const commits = new Map(this.core.truth.commits().map((c) => [c.commandId, c]));
    for (const cmd of this.core.commands.all()) {
      if (cmd.kind !== 'place' || (partyId !== undefined && cmd.partyId !== partyId)) continue;
      const commit = commits.get(cmd.commandId);
      out.push({
        orderId: cmd.orderId,
        partyId: cmd.partyId,
        preparedAt: cmd.preparedAt,
        settledAt: commit?.at ?? null,
        outcome:
          cmd.state === 'committed'
            ? 'committed'
            : cmd.state === 'failed'
              ? 'failed'
              : cmd.state === 'expired'
                ? 'abandoned'
                : 'pending',
      });
    }
    return out;
  }
}

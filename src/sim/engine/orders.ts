/**
 * Orders as the simulated venue keeps them.
 *
 * Status names are those of `src/core/order-status.ts`. The life of an order in the simulator:
 *
 * | phase | status | contractId | listed by GET /orders |
 * |---|---|---|---|
 * | prepared (202 answered, unsigned) | null | null | no |
 * | submitted (200 answered, awaiting commit) | null | null | yes |
 * | committed, resting | OPEN, or PARTIALLY_FILLED once filled in part | current contract | yes |
 * | fully filled | FILLED | the last contract | yes |
 * | cancel committed | CANCELLED | the last contract | yes |
 * | residual below minQuoteAmount, or a MARKET order's unfilled rest | EXPIRED | the last contract | yes |
 * | prepare abandoned (never submitted within 5 min) | EXPIRED | null | no |
 * | placement commit failed (funds, preapproval) or never confirmed by the deadline | REJECTED | null | yes |
 *
 * PENDING_TRIGGER is never produced: stop orders' request fields are "not shown" in the
 * contract, so the simulator does not accept them. `GET /orders/{orderId}` reads every phase,
 * the null-status ones included.
 */
import { type Dec, ZERO, toWire } from '../../core/decimal.js';
import type { Order } from '../../venue/schemas.js';
import { type KnownOrderStatus, isTerminalStatus } from '../../core/order-status.js';
import type { FillTruth, OrderHistoryEntry, OrderTruth } from '../truth/ground-truth.js';

/** See the module doc. */
export type SimOrderStatus = Exclude<KnownOrderStatus, 'PENDING_TRIGGER'>;

/** One order of an account. */
export interface OrderRecord {
  /** Creation sequence: sort key and cursor of GET /orders. */
  seq: number;
  orderId: string;
  partyId: string;
  accountSlug: string;
  pair: string;
  base: string;
  quote: string;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET';
  /** Null for MARKET. */
  price: Dec | null;
  quantity: Dec;
  filled: Dec;
  clientOrderId: string | null;
  correlationId: string;
  createdAt: number;
  updatedAt: number;
  status: SimOrderStatus | null;
  contractId: string | null;
  /** Every contract id the order has had, oldest first. */
  contractIds: string[];
  submitted: boolean;
  committed: boolean;
  /** Funds backing it were withdrawn: no cancel and no fill can complete any more. */
  stranded: boolean;
  /** The token this order spends (quote for BUY, base for SELL) and the amount still locked for it. */
  lockToken: string;
  lockAmount: Dec;
  /** The command id of the placement. */
  placeCommandId: string;
  history: OrderHistoryEntry[];
  fills: FillTruth[];
}

/** True for statuses that rest on the book. */
export function isRestingOrder(o: OrderRecord): boolean {
  return o.status === 'OPEN' || o.status === 'PARTIALLY_FILLED';
}

/** quantity − filled. */
export function remaining(o: OrderRecord): Dec {
  return o.quantity.minus(o.filled);
}

/**
 * Times written lately. Every GET /orders writes each listed order's creation and update times,
 * and the same open orders are listed poll after poll.
 */
const written = new Map<number, string>();
const WRITTEN_MAX = 4096;

/** ISO 8601 of a clock time. */
export function iso(ms: number): string {
  let text = written.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString();
    if (written.size >= WRITTEN_MAX) written.clear();
    written.set(ms, text);
  }
  return text;
}

/** Records a change of status and/or contract in the order's history. */
export function transition(
  o: OrderRecord,
  now: number,
  event: string,
  status: SimOrderStatus | null = o.status,
): void {
  o.status = status;
  o.updatedAt = now;
  o.history.push({ at: now, status, contractId: o.contractId, filled: toWire(o.filled), event });
}

/** The order as the API shows it (section 2, "Order"). */
export function orderToWire(o: OrderRecord): Order {
  return {
    contractId: o.contractId,
    orderId: o.orderId,
    pair: o.pair,
    side: o.side,
    type: o.type,
    price: o.price === null ? null : toWire(o.price),
    quantity: toWire(o.quantity),
    filled: toWire(o.filled),
    status: o.status,
    stopPrice: null,
    timestamp: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
    clientOrderId: o.clientOrderId,
    correlationId: o.correlationId,
    // Registered market makers are fee-exempt: the venue shows zero fees on place and cancel.
    providerFeeAmount: '0',
    cancelFee: { charged: false, amount: '0' },
  };
}

/** The order as the ground truth shows it. */
export function orderToTruth(o: OrderRecord): OrderTruth {
  return {
    orderId: o.orderId,
    partyId: o.partyId,
    accountSlug: o.accountSlug,
    clientOrderId: o.clientOrderId,
    pair: o.pair,
    side: o.side,
    type: o.type,
    price: o.price === null ? null : toWire(o.price),
    quantity: toWire(o.quantity),
    filled: toWire(o.filled),
    status: o.status,
    contractId: o.contractId,
    contractIds: [...o.contractIds],
    submitted: o.submitted,
    committed: o.committed,
    stranded: o.stranded,
    lock: { token: o.lockToken, amount: toWire(o.lockAmount) },
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    history: o.history.map((h) => ({ ...h })),
    fills: o.fills.map((f) => ({ ...f })),
  };
}

/** Every order ever created, with the indexes the endpoints need. */
export class OrderStore {
  private seq = 0;
  private readonly byId = new Map<string, OrderRecord>();
  /** Every contract id ever issued (current and archived) → order id. */
  private readonly byContract = new Map<string, string>();
  /** `${partyId}\n${clientOrderId}` → the latest order id with that clientOrderId. */
  private readonly byClientId = new Map<string, string>();
  /** partyId → its orders, oldest first (GET /orders reads one party's orders every poll). */
  private readonly byParty = new Map<string, OrderRecord[]>();
  /** partyId → its orders not seen in a final status yet, oldest first (see {@link notEnded}). */
  private readonly unended = new Map<string, Set<OrderRecord>>();

  /** Creates the record of a freshly prepared order. */
  create(
    init: Omit<
      OrderRecord,
      | 'seq'
      | 'filled'
      | 'status'
      | 'contractId'
      | 'contractIds'
      | 'submitted'
      | 'committed'
      | 'stranded'
      | 'lockAmount'
      | 'history'
      | 'fills'
      | 'updatedAt'
    >,
  ): OrderRecord {
    // Every field spelled out, not `{ ...init, … }`: V8 (Node 20) gives each object built by a
    // spread plus more fields a hidden class of its own (about 0.5 KiB each), and paper mode keeps
    // an hour of ended orders.
    const o: OrderRecord = {
      seq: ++this.seq,
      orderId: init.orderId,
      partyId: init.partyId,
      accountSlug: init.accountSlug,
      pair: init.pair,
      base: init.base,
      quote: init.quote,
      side: init.side,
      type: init.type,
      price: init.price,
      quantity: init.quantity,
      filled: ZERO,
      clientOrderId: init.clientOrderId,
      correlationId: init.correlationId,
      createdAt: init.createdAt,
      updatedAt: init.createdAt,
      status: null,
      contractId: null,
      contractIds: [],
      submitted: false,
      committed: false,
      stranded: false,
      lockToken: init.lockToken,
      lockAmount: ZERO,
      placeCommandId: init.placeCommandId,
      history: [],
      fills: [],
    };
    this.byId.set(o.orderId, o);
    const mine = this.byParty.get(o.partyId);
    if (mine === undefined) this.byParty.set(o.partyId, [o]);
    else mine.push(o);
    const open = this.unended.get(o.partyId);
    if (open === undefined) this.unended.set(o.partyId, new Set([o]));
    else open.add(o);
    if (o.clientOrderId !== null) this.byClientId.set(clientKey(o.partyId, o.clientOrderId), o.orderId);
    transition(o, o.createdAt, 'prepared', null);
    return o;
  }

  get(orderId: string): OrderRecord | undefined {
    return this.byId.get(orderId);
  }

  /** The order that ever had `contractId` (current or archived). */
  byContractId(contractId: string): OrderRecord | undefined {
    const id = this.byContract.get(contractId);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** The latest order of `partyId` created with `clientOrderId`. */
  byClientOrderId(partyId: string, clientOrderId: string): OrderRecord | undefined {
    const id = this.byClientId.get(clientKey(partyId, clientOrderId));
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Gives the order a new current contract id (first commit, or rotation on a partial fill). */
  assignContract(o: OrderRecord, contractId: string): void {
    o.contractId = contractId;
    o.contractIds.push(contractId);
    this.byContract.set(contractId, o.orderId);
  }

  /** All orders, oldest first. */
  all(): OrderRecord[] {
    return [...this.byId.values()];
  }

  /** Orders of a party, oldest first. */
  ofParty(partyId: string): OrderRecord[] {
    return [...(this.byParty.get(partyId) ?? [])];
  }

  /**
   * Orders of a party that have not ended (no final status: FILLED, CANCELLED, EXPIRED,
   * REJECTED), oldest first: every order that can still rest. A final status is never left, so
   * ended orders are dropped from the index as they are met.
   */
  notEnded(partyId: string): OrderRecord[] {
    const open = this.unended.get(partyId);
    if (open === undefined) return [];
    const out: OrderRecord[] = [];
    for (const o of open) {
      if (isTerminalStatus(o.status)) open.delete(o);
      else out.push(o);
    }
    return out;
  }

  /**
   * Forgets the orders that ended (a final status) before `cutoff`, from every index. Returns
   * how many. For a venue that runs for days; see `HistoryRetention`.
   */
  forgetEnded(cutoff: number): number {
    let forgotten = 0;
    for (const [partyId, list] of this.byParty) {
      const kept: OrderRecord[] = [];
      for (const o of list) {
        if (!isTerminalStatus(o.status) || o.updatedAt >= cutoff) {
          kept.push(o);
          continue;
        }
        forgotten += 1;
        this.byId.delete(o.orderId);
        for (const c of o.contractIds) this.byContract.delete(c);
        if (o.clientOrderId !== null) {
          const key = clientKey(o.partyId, o.clientOrderId);
          if (this.byClientId.get(key) === o.orderId) this.byClientId.delete(key);
        }
        this.unended.get(partyId)?.delete(o);
      }
      if (kept.length !== list.length) this.byParty.set(partyId, kept);
    }
    return forgotten;
  }
}

function clientKey(partyId: string, clientOrderId: string): string {
  return `${partyId}\n${clientOrderId}`;
}

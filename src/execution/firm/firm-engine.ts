/**
 * Several parties run as one market maker: an order engine per party — its own journal,
 * recovery, placement pipeline (one placement in flight), cancel pool, orders poller and
 * unknown-order resolution, all under its own API key and signing key — behind the one facade
 * the daemon trades through (`TradingEngine`). The daemon sees the firm: its orders on every
 * party, its inventory summed over every party's holdings.
 *
 * - `place` asks the allocator (`party-allocator.ts`) which party takes the placement: the one
 *   whose pipeline frees first and whose own wallet can fund it (or the configured fixed one);
 * - each party has its own rate budget, a token bucket sized to its account's `ordersPerMinute`
 *   (burst `rateBurst`): a placement handed to a party takes one of its tokens, and a party with
 *   none left is passed over until it refills, so no party's own limit is reached however the
 *   firm-wide budget (the sum, in the risk gate) is spent;
 * - `cancel` goes through the party that owns the order, always;
 * - a party whose placement is refused because its key is refused or its account suspended drops
 *   out for `dropoutMs`, loudly (a `party-state` event), and the others carry on; one refused
 *   for funds drops out until its next balances read. A party is tried again after that;
 * - a party whose account reads as not ACTIVE (`accountRead`, from the firm's account poll)
 *   drops out until a read shows it ACTIVE again, without spending a placement to find out.
 *
 * When a party drops out and comes back is its standing's (`party-standing.ts`).
 *
 * The first party is the primary: its journal's `meta` holds the firm's state (the daily loss
 * guard's), its recovery report is the one returned, its orders poller is reported first.
 */
import type { Clock } from '../../core/clock.js';
import type { Dec } from '../../core/decimal.js';
import type { Side } from '../../core/order-terms.js';
import { isCommitted } from '../../orders/fsm/index.js';
import type { FillMarkInput, FillRecord } from '../../orders/journal/index.js';
import {
  bucketForLimit,
  fullBucket,
  refill,
  take,
  type TokenBucketConfig,
  type TokenBucketState,
} from '../../risk/token-bucket.js';
import type { CancelOptions } from '../cancel/cancel-pool.js';
import type {
  CloseOptions,
  EngineEvent,
  EngineControlLog,
  EngineMeta,
  EnginePhase,
  OrdersView,
  TradingEngine,
} from '../engine-types.js';
import type { CancelOutcome, PlacementOutcome } from '../execution-events.js';
import type { InventoryView } from '../inventory.js';
import type { OrderEngine } from '../order-engine.js';
import type { PlaceOptions, PlacementIntent } from '../placement/placement-intent.js';
import type { OrdersPoller } from '../resolve/orders-poller.js';
import type { RecoveryReport } from '../resolve/recovery.js';
import { FirmFills } from './firm-fills.js';
import { FirmInventory, FirmOrders } from './firm-views.js';
import { allocate, type AllocationPolicy, type PartyLoad } from './party-allocator.js';
import type { FundsLock, PartyWallets } from './party-wallets.js';
import { PartyStanding } from './party-standing.js';

/** One party of the firm. */
export interface FirmParty {
  readonly name: string;
  readonly engine: OrderEngine;
  /** Pairs and sides it serves; null: all. */
  readonly pairs: readonly string[] | null;
  readonly sides: readonly Side[] | null;
  /** Its account's open-order cap (GET /account), null when unknown. */
  readonly maxOpenOrders: number | null;
  /** Its account's placements per minute (GET /account), null when unknown: no own budget. */
  readonly ordersPerMinute: number | null;
}

/** Options of {@link FirmEngine}. */
export interface FirmEngineOptions {
  /** At least one; the first is the primary. Names unique. */
  readonly parties: readonly FirmParty[];
  readonly clock: Clock;
  readonly policy: AllocationPolicy;
  readonly wallets: PartyWallets;
  /** Base and quote of a pair (from the market snapshot), for funding checks. */
  readonly pairOf: (pair: string) => { readonly base: string; readonly quote: string } | undefined;
  /** The burst of each party's own rate budget (the risk section's `rateBurst`). Default 5. */
  readonly rateBurst?: number;
  /** How long a party whose key or account was refused stays out, ms. Default 60 s. */
  readonly dropoutMs?: number;
}

/** A party's state, for the status page and metrics. */
export interface PartyReport {
  readonly name: string;
  readonly active: boolean;
  /** Why it is out, when it is. */
  readonly reason: string | null;
  readonly queued: number;
  readonly busySince: number | null;
  /** Busy ms since the engine started (placements queued or running), for the busy share. */
  readonly busyMs: number;
  readonly openOrders: number;
  readonly placed: number;
  readonly refused: number;
  readonly funds: ReadonlyMap<string, Dec> | null;
}

/** A party's own state inside the facade. */
interface PartySlot extends FirmParty {
  /** In, or out and why (`party-standing.ts`). */
  readonly standing: PartyStanding;
  readonly handedOut: Map<number, FundsLock & { readonly slot: string }>;
  /** Its own rate budget; null when its account states no per-minute limit. */
  readonly rate: TokenBucketConfig | null;
  bucket: TokenBucketState | null;
  busySince: number | null;
  busyMs: number;
  placed: number;
  refused: number;
}

/** See the module doc. */
export class FirmEngine implements TradingEngine {
  readonly orders: OrdersView;
  readonly inventory: InventoryView;
  private readonly slots: PartySlot[];
  private readonly listeners = new Set<(e: EngineEvent) => void>();
  private readonly fills: FirmFills;
  private nextHandout = 0;

  constructor(private readonly o: FirmEngineOptions) {
    if (o.parties.length === 0) throw new RangeError('a firm needs at least one party');
    const names = new Set(o.parties.map((p) => p.name));
    if (names.size !== o.parties.length) throw new RangeError('party names must be unique');
    const start = o.clock.now();
    this.slots = o.parties.map((p) => {
      const rate = p.ordersPerMinute === null ? null : bucketForLimit(p.ordersPerMinute, o.rateBurst ?? 5);
      return {
        ...p,
        standing: new PartyStanding(p.name, {
          dropoutMs: o.dropoutMs ?? 60_000,
          emit: (event) => this.emit(event),
        }),
        handedOut: new Map(),
        rate,
        bucket: rate === null ? null : fullBucket(rate, start),
        busySince: null,
        busyMs: 0,
        placed: 0,
        refused: 0,
      };
    });
    this.orders = new FirmOrders(() => this.liveEngines().map((e) => e.orders));
    this.inventory = new FirmInventory(() => this.liveEngines().map((e) => e.inventory));
    this.fills = new FirmFills(this.slots.map((s) => s.engine));
    for (const s of this.slots) s.engine.subscribe((e) => this.emit(e));
    o.wallets.trackOrders((party) => {
      const s = this.slots.find((x) => x.name === party);
      if (s === undefined || s.engine.state === 'created') return new Set();
      return new Set(
        s.engine.orders
          .active()
          .filter((x) => isCommitted(x.state))
          .map((x) => x.key),
      );
    });
  }

  /** The parties' names, primary first. */
  get parties(): readonly string[] {
    return this.slots.map((s) => s.name);
  }

  /** The engine of a party (status and tests), or undefined. */
  engineOf(party: string): OrderEngine | undefined {
    return this.slots.find((s) => s.name === party)?.engine;
  }

  /** The party that holds order `key`, or undefined. */
  partyOf(key: string): string | undefined {
    return this.slots.find((s) => s.engine.state !== 'created' && s.engine.orders.get(key) !== undefined)
      ?.name;
  }

  /** The firm's phase: the least advanced of its parties'. */
  get state(): EnginePhase {
    const order: EnginePhase[] = ['failed', 'created', 'recovering', 'closing', 'closed', 'ready'];
    const phases = this.slots.map((s) => s.engine.state);
    for (const p of order) if (phases.includes(p)) return p;
    return 'ready';
  }

  get meta(): EngineMeta {
    return this.primary.meta;
  }

  /** The control log (pauses and resumes) is the primary party's journal's, as the meta is. */
  get controlLog(): EngineControlLog {
    return this.primary.controlLog;
  }

  get ignoredOrders(): number {
    return this.slots.reduce((n, s) => n + s.engine.ignoredOrders, 0);
  }

  get ordersPoller(): OrdersPoller | null {
    return this.primary.ordersPoller;
  }

  /** Every party's orders poller, with its party (the primary's is `ordersPoller`). */
  ordersPollers(): { readonly party: string; readonly poller: OrdersPoller }[] {
    return this.slots.flatMap((s) =>
      s.engine.ordersPoller === null ? [] : [{ party: s.name, poller: s.engine.ordersPoller }],
    );
  }

  get evicted(): number {
    return this.slots.reduce((n, s) => n + s.engine.evicted, 0);
  }

  recordFillMarks(marks: readonly FillMarkInput[]): number {
    let n = 0;
    for (const s of this.slots) {
      const own = marks.filter((m) => s.engine.orders.byOrderId(m.orderId) !== undefined);
      if (own.length > 0) n += s.engine.recordFillMarks(own);
    }
    return n;
  }

  fillsAfter(seq: number): FillRecord[] {
    return this.fills.after(seq);
  }

  subscribe(listener: (e: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts every party's engine (their recoveries run at once); the primary's report. */
  async start(): Promise<RecoveryReport> {
    const reports = await Promise.all(this.slots.map((s) => s.engine.start()));
    return reports[0]!;
  }

  /** Hands `intent` to the party the allocator picks; see the module doc. Never rejects. */
  async place(intent: PlacementIntent, options: PlaceOptions = {}): Promise<PlacementOutcome> {
    const now = this.o.clock.now();
    for (const s of this.slots) s.standing.readmit(now, this.lastPollAt(s));
    const pair = this.o.pairOf(intent.pair);
    const ref = { intentId: 'firm', slot: intent.slot, key: null, clientOrderId: null, orderId: null };
    if (pair === undefined || intent.price === null) {
      // Nothing to fund it against (a pair not listed yet, a MARKET order): nothing is sent.
      const detail =
        pair === undefined ? `${intent.pair} is not listed` : 'a MARKET order has no price to fund';
      return { ...ref, kind: 'no-party', reason: 'no-party-serves', detail };
    }
    const request = {
      ...pair,
      pair: intent.pair,
      side: intent.side,
      price: intent.price,
      quantity: intent.quantity,
    };
    const chosen = allocate(
      this.slots.map((s) => this.load(s, now)),
      request,
      this.o.policy,
    );
    if (chosen.party === null)
      return { ...ref, kind: 'no-party', reason: chosen.reason, detail: chosen.detail };
    const slot = this.slots.find((s) => s.name === chosen.party)!;
    if (slot.rate !== null && slot.bucket !== null) slot.bucket = take(slot.bucket, slot.rate, now).state;
    const id = this.nextHandout++;
    slot.handedOut.set(id, { ...request, slot: intent.slot });
    if (slot.busySince === null) slot.busySince = now;
    try {
      const outcome = await slot.engine.place(intent, options);
      const counted = slot.standing.observe(outcome, this.o.clock.now(), this.lastPollAt(slot));
      if (counted === 'placed') slot.placed += 1;
      if (counted === 'refused') slot.refused += 1;
      return outcome;
    } finally {
      slot.handedOut.delete(id);
      const end = this.o.clock.now();
      if (slot.handedOut.size === 0 && slot.busySince !== null) {
        slot.busyMs += end - slot.busySince;
        slot.busySince = null;
      }
    }
  }

  /**
   * A read of party `name`'s account (GET /account). Not ACTIVE: the party drops out, loudly,
   * until a read shows it ACTIVE again (its orders are still managed and cancelled through it);
   * the others carry on. ACTIVE: a party out for its account comes back.
   */
  accountRead(name: string, status: string): void {
    this.slots.find((x) => x.name === name)?.standing.accountRead(status, this.o.clock.now());
  }

  /** Cancels `key` through the party that holds it (`unknown-order` when none does). */
  cancel(key: string, options: CancelOptions = {}): Promise<CancelOutcome> {
    const party = this.partyOf(key);
    const engine = this.slots.find((s) => s.name === party)?.engine;
    if (engine === undefined)
      return Promise.resolve({ key, orderId: null, filled: null, kind: 'unknown-order' });
    return engine.cancel(key, options);
  }

  async cancelAll(reason = 'cancel-all'): Promise<CancelOutcome[]> {
    const all = await Promise.all(this.slots.map((s) => s.engine.cancelAll(reason)));
    return all.flat();
  }

  /** Closes every party's engine within the one bound. */
  async close(options: CloseOptions = {}): Promise<void> {
    await Promise.all(this.slots.map((s) => s.engine.close(options)));
  }

  /** Every party's state, primary first. */
  report(): PartyReport[] {
    const now = this.o.clock.now();
    return this.slots.map((s) => ({
      name: s.name,
      active: s.standing.active,
      reason: s.standing.reason,
      queued: s.handedOut.size,
      busySince: s.busySince,
      busyMs: s.busyMs + (s.busySince === null ? 0 : now - s.busySince),
      openOrders: s.engine.state === 'created' ? 0 : s.engine.orders.active().length,
      placed: s.placed,
      refused: s.refused,
      funds: this.fundsOf(s),
    }));
  }

  private get primary(): OrderEngine {
    return this.slots[0]!.engine;
  }

  private liveEngines(): OrderEngine[] {
    return this.slots.map((s) => s.engine).filter((e) => e.state !== 'created' && e.state !== 'failed');
  }

  private fundsOf(s: PartySlot): Map<string, Dec> | null {
    const orders = s.engine.state === 'created' ? [] : s.engine.orders.active();
    return this.o.wallets.funds(s.name, orders, [...s.handedOut.values()], this.o.pairOf);
  }

  private load(s: PartySlot, now: number): PartyLoad {
    const tokens = s.rate === null || s.bucket === null ? Infinity : refill(s.bucket, s.rate, now).tokens;
    return {
      name: s.name,
      active: s.standing.active,
      // The bucket's own epsilon (`take`): a token refilled in fractions counts as whole.
      rateLimited: tokens + 1e-9 < 1,
      pairs: s.pairs,
      sides: s.sides,
      queued: s.handedOut.size,
      busySince: s.busySince,
      openOrders: (s.engine.state === 'created' ? 0 : s.engine.orders.active().length) + s.handedOut.size,
      maxOpenOrders: s.maxOpenOrders,
      funds: this.fundsOf(s),
    };
  }

  /** When party `s`'s balances were last read; null: never. */
  private lastPollAt(s: PartySlot): number | null {
    return this.o.wallets.last(s.name)?.at ?? null;
  }

  private emit(event: EngineEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // Observers observe; a broken one never breaks execution.
      }
    }
  }
}

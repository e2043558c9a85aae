/**
 * The simulated venue's state and its settlement rules: {@link EngineCore} owns the accounts,
 * wallets, books and their lagging projection, orders, prepared commands, public trades,
 * reference prices, the ledger offset and the ground truth, and settles a fill (both legs in one
 * step, a residual resting under a new contract id or expiring below the minimum). The flows
 * (placement, submission, cancellation, operator) operate on it; `VenueEngine` is its face.
 */
import type { Clock } from '../../core/clock.js';
import { type Dec, ZERO, toWire } from '../../core/decimal.js';
import type { Rng } from '../rng.js';
import { AccountRegistry } from './accounts.js';
import { BookProjection } from './book-projection.js';
import { CommandStore } from './commands.js';
import { GroundTruth, type TradeTruth } from '../truth/ground-truth.js';
import { IdSource } from './ids.js';
import { type BookEntry, PairBook, entryQty } from './order-book.js';
import { type OrderRecord, OrderStore, iso, remaining, transition } from './orders.js';
import { TimerSet } from './timers.js';
import { Wallets } from './wallets.js';

/** A listed pair (section 2, "Pair"). */
export interface PairSpec {
  pair: string;
  base: string;
  quote: string;
  minQuoteAmount: Dec | null;
  feeSymbol: string | null;
  /** Optional price tick; prices off the tick are refused with VALIDATION_ERROR. */
  tick: Dec | null;
}

/** Lifetimes and knobs of the engine; every duration in clock milliseconds. */
export interface EngineSettings {
  /** Prepared-transaction cache lifetime (contract: 5 minutes). */
  preparedTtlMs: number;
  /** submitToken lifetime (contract: 20 minutes). */
  submitTokenTtlMs: number;
  /** The book projection refresh period. */
  bookProjectionLagMs: number;
  /** How long GET /balances stays warm after a call. */
  balanceCacheTtlMs: number;
  hashingSchemeVersion: string;
}

/** Defaults of {@link EngineSettings}, as the contract states them. */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  preparedTtlMs: 5 * 60_000,
  submitTokenTtlMs: 20 * 60_000,
  bookProjectionLagMs: 500,
  balanceCacheTtlMs: 10 * 60_000,
  hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
};

/** A trade as GET /trades shows it, plus its pair and sequence. */
export interface PublicTradeRecord {
  seq: number;
  pair: string;
  tradeId: string;
  price: string;
  quantity: string;
  executedAt: string;
}

/** A planned execution against one resting entry. */
export interface PlannedFill {
  entry: BookEntry;
  qty: Dec;
}

/** Who is taking: an account order (at its commit), an outside taker, or background liquidity. */
export interface Taker {
  side: 'BUY' | 'SELL';
  order: OrderRecord | null;
  /** Background liquidity crossing the book only executes against account orders. */
  accountsOnly?: boolean;
}

/**
 * The state of the simulated venue and the settlement rules every flow shares: the wallets, the
 * books, the orders, the prepared commands, and fills that move both legs in one step.
 * Flows (placement, submission, cancellation, operator) live in their own modules and operate
 * on this core; {@link import('./venue-engine.js').VenueEngine} is the public face.
 */
export class EngineCore {
  readonly ids: IdSource;
  readonly truth: GroundTruth;
  readonly timers: TimerSet;
  readonly accounts: AccountRegistry;
  readonly wallets = new Wallets();
  readonly orders = new OrderStore();
  readonly commands = new CommandStore();
  readonly pairs = new Map<string, PairSpec>();
  readonly books = new Map<string, PairBook>();
  readonly projection: BookProjection;
  readonly publicTrades: PublicTradeRecord[] = [];
  readonly referencePrices = new Map<string, Dec>();
  readonly settings: EngineSettings;
  /** Committed ledger transactions so far (the projection's `asOf.updateId`). */
  ledgerOffset = 0;
  private bookSeq = 0;
  private tradeSeq = 0;
  private readonly settlementFailuresLogged = new Set<string>();

  constructor(
    readonly clock: Clock,
    rng: Rng,
    pairs: PairSpec[],
    settings: Partial<EngineSettings> = {},
  ) {
    this.settings = { ...DEFAULT_ENGINE_SETTINGS, ...settings };
    this.ids = new IdSource(rng.fork('venue/ids'));
    this.truth = new GroundTruth(() => clock.now());
    this.timers = new TimerSet(clock);
    this.accounts = new AccountRegistry(this.ids);
    this.projection = new BookProjection(
      this.settings.bookProjectionLagMs,
      () => clock.now(),
      () => this.ledgerOffset,
    );
    for (const p of pairs) {
      this.pairs.set(p.pair, p);
      this.books.set(p.pair, new PairBook(p.pair, (b) => this.projection.beforeChange(b)));
    }
  }

  now(): number {
    return this.clock.now();
  }

  book(pair: string): PairBook {
    const b = this.books.get(pair);
    if (!b) throw new RangeError(`unknown pair ${pair}`);
    return b;
  }

  pair(pair: string): PairSpec {
    const p = this.pairs.get(pair);
    if (!p) throw new RangeError(`unknown pair ${pair}`);
    return p;
  }

  nextBookSeq(): number {
    return ++this.bookSeq;
  }

  /** True when resting `qty` at `price` on `pair` would be below the pair's minQuoteAmount. */
  belowMinimum(pair: string, qty: Dec, price: Dec): boolean {
    const min = this.pair(pair).minQuoteAmount;
    return min !== null && qty.times(price).lt(min);
  }

  /** Records a balance snapshot for every party touched since the last one. */
  snapshotBalances(reason: string): void {
    for (const partyId of this.wallets.takeDirty()) {
      const account = this.accounts.byPartyId(partyId);
      this.truth.balances(partyId, account?.slug ?? '', reason, this.wallets.view(partyId));
    }
  }

  /** Ends one ledger transaction: the offset advances and balances are snapshotted. */
  endTransaction(reason: string): void {
    this.ledgerOffset += 1;
    this.snapshotBalances(reason);
  }

  /**
   * Whether a fill against `entry` can settle. The ledger asserts each side's transfer
   * preapproval at settlement, and funds withdrawn from under an order (stranded) cannot move.
   * Outside parties (background makers, takers) always can.
   */
  canSettle(entry: BookEntry, taker: Taker): boolean {
    const o = entry.order;
    if (!o) return !taker.accountsOnly;
    if (o.stranded) return false;
    const receives = o.side === 'BUY' ? o.base : o.quote;
    if (!this.accounts.byPartyId(o.partyId)?.preapprovals.has(receives)) {
      if (!this.settlementFailuresLogged.has(o.orderId)) {
        this.settlementFailuresLogged.add(o.orderId);
        this.truth.event('settlement.failed', {
          orderId: o.orderId,
          partyId: o.partyId,
          reason: `no preapproval for ${receives}`,
        });
      }
      return false;
    }
    return true;
  }

  /**
   * Plans a sweep of the side opposite `taker.side`, best price first then time, up to `qty`,
   * never beyond `limit` (null: no limit). Entries that cannot settle are skipped. Nothing
   * changes until {@link EngineCore.executeFill} runs for each planned fill.
   */
  plan(book: PairBook, taker: Taker, qty: Dec, limit: Dec | null): PlannedFill[] {
    const out: PlannedFill[] = [];
    let left = qty;
    for (const entry of book.side(taker.side === 'BUY' ? 'SELL' : 'BUY')) {
      if (left.lte(0)) break;
      if (limit !== null && (taker.side === 'BUY' ? entry.price.gt(limit) : entry.price.lt(limit))) break;
      if (!this.canSettle(entry, taker)) continue;
      const q = minDec(left, entryQty(entry));
      if (q.lte(0)) continue;
      out.push({ entry, qty: q });
      left = left.minus(q);
    }
    return out;
  }

  /**
   * Executes `qty` against a resting entry at the entry's price: the maker's leg moves here in
   * the same step as the trade is recorded (a BUY maker's locked quote goes out and base comes
   * in; a SELL maker's locked base goes out and quote comes in). The taker's leg is the
   * caller's (outside takers have unlimited funds). Returns the trade.
   */
  executeFill(book: PairBook, fill: PlannedFill, taker: Taker): TradeTruth {
    const { entry, qty } = fill;
    const price = entry.price;
    const now = this.now();
    book.beforeChange();
    const trade: TradeTruth = {
      tradeId: this.ids.tradeId(),
      pair: book.pair,
      price: toWire(price),
      quantity: toWire(qty),
      at: now,
      executedAt: iso(now),
      takerSide: taker.side,
      maker: { orderId: entry.order?.orderId ?? null, partyId: entry.order?.partyId ?? null },
      taker: { orderId: taker.order?.orderId ?? null, partyId: taker.order?.partyId ?? null },
    };
    const maker = entry.order;
    if (maker) {
      const party = maker.partyId;
      if (maker.side === 'BUY') {
        const cost = price.times(qty);
        this.wallets.spendLocked(party, maker.quote, cost);
        maker.lockAmount = maker.lockAmount.minus(cost);
        this.wallets.credit(party, maker.base, qty);
      } else {
        this.wallets.spendLocked(party, maker.base, qty);
        maker.lockAmount = maker.lockAmount.minus(qty);
        this.wallets.credit(party, maker.quote, price.times(qty));
      }
      maker.filled = maker.filled.plus(qty);
      const before = maker.contractId;
      this.settleResidual(book, maker, entry, price);
      maker.fills.push({
        at: now,
        tradeId: trade.tradeId,
        price: trade.price,
        quantity: trade.quantity,
        role: 'maker',
        contractIdBefore: before,
        contractIdAfter: maker.contractId,
      });
    } else {
      entry.qty = entry.qty.minus(qty);
      if (entry.qty.lte(0)) book.remove(entry);
    }
    this.recordTrade(trade);
    return trade;
  }

  /**
   * After a maker fill: fully filled → FILLED; a residual below minQuoteAmount → EXPIRED with
   * its lock released; otherwise the residual rests under a new contract id (same orderId).
   */
  private settleResidual(book: PairBook, o: OrderRecord, entry: BookEntry, price: Dec): void {
    const now = this.now();
    const rest = remaining(o);
    if (rest.lte(0)) {
      book.remove(entry);
      this.releaseLock(o);
      transition(o, now, 'filled', 'FILLED');
    } else if (this.belowMinimum(o.pair, rest, price)) {
      book.remove(entry);
      this.releaseLock(o);
      transition(o, now, 'residual-expired', 'EXPIRED');
    } else {
      this.orders.assignContract(o, this.ids.contractId());
      transition(o, now, 'partial-fill', 'PARTIALLY_FILLED');
    }
  }

  /** Returns whatever is still locked for `o` to available. */
  releaseLock(o: OrderRecord): void {
    if (o.lockAmount.gt(0)) this.wallets.unlock(o.partyId, o.lockToken, o.lockAmount);
    o.lockAmount = ZERO;
  }

  /** Rests an account order on its book. */
  rest(o: OrderRecord): void {
    if (o.price === null) throw new RangeError('a MARKET order cannot rest');
    this.book(o.pair).insert({ side: o.side, price: o.price, seq: this.nextBookSeq(), order: o, qty: ZERO });
  }

  private recordTrade(t: TradeTruth): void {
    this.truth.trade(t);
    this.publicTrades.push({
      seq: ++this.tradeSeq,
      pair: t.pair,
      tradeId: t.tradeId,
      price: t.price,
      quantity: t.quantity,
      executedAt: t.executedAt,
    });
  }
}

function minDec(a: Dec, b: Dec): Dec {
  return a.lt(b) ? a : b;
}

/**
 * The hedge journal: every hedge order is written here, in one synchronous SQLite transaction,
 * BEFORE it is sent, and settled here once the venue's answer (or, after a crash or an unknown
 * outcome, the venue's record of it) is known. An order that is written but not settled is
 * "pending": the hedger sends nothing while one is, and resolves it by reading the venue first.
 *
 * Its own table in its own file (or `:memory:` in tests), so it never touches the order journal.
 */
import { Dec } from '../core/decimal.js';
import { Database } from '../orders/journal/index.js';
import type { HedgeOrderRequest, HedgeOrderState } from './hedge-venue.js';

/** The life of a journaled hedge order. */
export type HedgeRowState = 'intent' | 'sent' | 'settled' | 'never-sent';

/** One journaled hedge order. */
export interface HedgeRow {
  readonly clientOrderId: string;
  readonly pair: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Dec;
  readonly limitPrice: Dec;
  readonly state: HedgeRowState;
  readonly filled: Dec;
  readonly averagePrice: Dec | null;
  readonly feeQuote: Dec;
  readonly createdAt: number;
  readonly updatedAt: number;
}

interface RawRow {
  client_order_id: string;
  pair: string;
  symbol: string;
  side: 'BUY' | 'SELL';
  quantity: string;
  limit_price: string;
  state: HedgeRowState;
  filled: string;
  average_price: string | null;
  fee_quote: string;
  created_at: number;
  updated_at: number;
}

const toRow = (r: RawRow): HedgeRow => ({
  clientOrderId: r.client_order_id,
  pair: r.pair,
  symbol: r.symbol,
  side: r.side,
  quantity: new Dec(r.quantity),
  limitPrice: new Dec(r.limit_price),
  state: r.state,
  filled: new Dec(r.filled),
  averagePrice: r.average_price === null ? null : new Dec(r.average_price),
  feeQuote: new Dec(r.fee_quote),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The hedge journal on one SQLite file. */
export class HedgeJournal {
  private readonly db: Database;

  constructor(file: string) {
    this.db = new Database(file);
    if (file !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS hedge_orders (
      client_order_id TEXT PRIMARY KEY,
      pair TEXT NOT NULL,
      symbol TEXT NOT NULL,
      side TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
      quantity TEXT NOT NULL,
      limit_price TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('intent', 'sent', 'settled', 'never-sent')),
      filled TEXT NOT NULL DEFAULT '0',
      average_price TEXT,
      fee_quote TEXT NOT NULL DEFAULT '0',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`);
  }

  /** Writes an order about to be sent (before any IO). Throws if the id was used before. */
  intend(pair: string, req: HedgeOrderRequest, at: number): void {
    this.db
      .prepare(
        `INSERT INTO hedge_orders (client_order_id, pair, symbol, side, quantity, limit_price, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'intent', ?, ?)`,
      )
      .run(
        req.clientOrderId,
        pair,
        req.symbol,
        req.side,
        req.quantity.toFixed(),
        req.limitPrice.toFixed(),
        at,
        at,
      );
  }

  /** The send call returned (the outcome may still be unknown). */
  markSent(clientOrderId: string, at: number): void {
    this.db
      .prepare(
        `UPDATE hedge_orders SET state = 'sent', updated_at = ? WHERE client_order_id = ? AND state = 'intent'`,
      )
      .run(at, clientOrderId);
  }

  /** The venue's final word on an order. */
  settle(s: HedgeOrderState, at: number): void {
    this.db
      .prepare(
        `UPDATE hedge_orders SET state = 'settled', filled = ?, average_price = ?, fee_quote = ?, updated_at = ?
         WHERE client_order_id = ?`,
      )
      .run(s.filled.toFixed(), s.averagePrice?.toFixed() ?? null, s.feeQuote.toFixed(), at, s.clientOrderId);
  }

  /** The venue has no record of the order: it never arrived. */
  markNeverSent(clientOrderId: string, at: number): void {
    this.db
      .prepare(`UPDATE hedge_orders SET state = 'never-sent', updated_at = ? WHERE client_order_id = ?`)
      .run(at, clientOrderId);
  }

  /** Orders written but not settled: nothing is sent while there is one. */
  pending(): HedgeRow[] {
    return (
      this.db
        .prepare(`SELECT * FROM hedge_orders WHERE state IN ('intent', 'sent') ORDER BY created_at`)
        .all() as RawRow[]
    ).map(toRow);
  }

  /** Every order, oldest first. */
  all(): HedgeRow[] {
    return (this.db.prepare(`SELECT * FROM hedge_orders ORDER BY created_at, rowid`).all() as RawRow[]).map(
      toRow,
    );
  }

  close(): void {
    this.db.close();
  }
}

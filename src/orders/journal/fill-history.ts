/**
 * The journal's fill history: the marks learnt about a fill after it is stored (`fill_marks`,
 * append-only, keyed by the fill's orderId and cumulative `filled`), and a streaming read of the
 * fills joined with their order's clientOrderId and their marks, for `ledger-mm fills`.
 *
 * A mark is written once: a second write of the same (orderId, filled, kind) is skipped, so a
 * restarted daemon that measures a fill again cannot change what was recorded first.
 */
import { decText } from './codec.js';
import type { Db } from './schema.js';
import type { Dec } from '../../core/decimal.js';

/** The markout horizons the history has a column for, seconds (the live tracker's). */
export const FILL_MARKOUT_HORIZONS_S = [5, 30, 60, 300] as const;

/** A markout horizon of the history. */
export type FillMarkoutHorizon = (typeof FILL_MARKOUT_HORIZONS_S)[number];

/** What a mark records. */
export type FillMarkKind = 'reference' | 'fee' | `markout_${FillMarkoutHorizon}s`;

/** The mark kind of a markout horizon. */
export function markoutKind(horizonS: FillMarkoutHorizon): FillMarkKind {
  return `markout_${horizonS}s`;
}

/** True when `h` is a horizon the history keeps. */
export function isFillMarkoutHorizon(h: number): h is FillMarkoutHorizon {
  return (FILL_MARKOUT_HORIZONS_S as readonly number[]).includes(h);
}

/** One mark of one fill. */
export interface FillMarkInput {
  readonly orderId: string;
  /** The fill's cumulative filled (with the orderId, the fill's key). */
  readonly filled: Dec;
  readonly kind: FillMarkKind;
  /** Decimal TEXT: a price, a fee, or a markout in bps. */
  readonly value: string;
  readonly at: number;
}

/** Which fills {@link FillHistory.iterate} reads; every bound optional. */
export interface FillHistoryFilter {
  /** Epoch ms, inclusive. */
  readonly since?: number;
  /** Epoch ms, exclusive. */
  readonly until?: number;
  readonly pair?: string;
  /** The `party` column equals this (a null party is the store's one party and never matches). */
  readonly party?: string;
}

/** One fill as the history reads it: decimals as canonical TEXT, absent marks null. */
export interface FillHistoryRow {
  readonly seq: number;
  readonly at: number;
  readonly pair: string;
  readonly side: string;
  readonly price: string | null;
  /** This fill's quantity. */
  readonly quantity: string;
  /** Cumulative filled after it. */
  readonly filled: string;
  readonly orderId: string;
  readonly clientOrderId: string | null;
  readonly party: string | null;
  readonly fee: string | null;
  readonly reference: string | null;
  /** bps by horizon, null until measured. */
  readonly markouts: Readonly<Record<FillMarkoutHorizon, string | null>>;
}

interface HistoryDbRow {
  seq: number;
  at: number;
  pair: string;
  side: string;
  price: string | null;
  delta: string;
  filled: string;
  order_id: string;
  client_order_id: string | null;
  party: string | null;
  fee: string | null;
  reference: string | null;
  m5: string | null;
  m30: string | null;
  m60: string | null;
  m300: string | null;
}

const mark = (kind: FillMarkKind, alias: string): string =>
  `(SELECT value FROM fill_marks m WHERE m.order_id = f.order_id AND m.filled = f.filled AND m.kind = '${kind}') AS ${alias}`;

const HISTORY_SQL = `
SELECT f.seq, f.at, f.pair, f.side, f.price, f.delta, f.filled, f.order_id, f.party,
       COALESCE(o.client_order_id, (SELECT o2.client_order_id FROM order_ids i JOIN orders o2
                                    ON o2.local_key = i.local_key WHERE i.order_id = f.order_id)) AS client_order_id,
       ${mark('fee', 'fee')}, ${mark('reference', 'reference')},
       ${mark('markout_5s', 'm5')}, ${mark('markout_30s', 'm30')},
       ${mark('markout_60s', 'm60')}, ${mark('markout_300s', 'm300')}
FROM fills f LEFT JOIN orders o ON o.local_key = f.local_key
WHERE f.at >= @since AND f.at < @until
  AND (@pair IS NULL OR f.pair = @pair)
  AND (@party IS NULL OR f.party = @party)
ORDER BY f.at, f.seq`;

/** The fill-history statements of one connection. */
export class FillHistory {
  private readonly insertMark;
  private readonly history;

  constructor(db: Db) {
    this.insertMark = db.prepare<[string, string, string, string, number], void>(
      `INSERT INTO fill_marks (order_id, filled, kind, value, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (order_id, filled, kind) DO NOTHING`,
    );
    this.history = db.prepare<
      [{ since: number; until: number; pair: string | null; party: string | null }],
      HistoryDbRow
    >(HISTORY_SQL);
  }

  /** Stores marks (inside the caller's transaction); returns how many were new. */
  record(marks: readonly FillMarkInput[]): number {
    let n = 0;
    for (const m of marks) {
      n += this.insertMark.run(m.orderId, decText(m.filled), m.kind, m.value, m.at).changes;
    }
    return n;
  }

  /**
   * The fills matching `filter`, oldest first, one row at a time (SQLite's cursor: a history of
   * any length is never held in memory). Finish or `return()` the iterator before the next
   * write on this connection.
   */
  *iterate(filter: FillHistoryFilter = {}): IterableIterator<FillHistoryRow> {
    const rows = this.history.iterate({
      since: filter.since ?? Number.MIN_SAFE_INTEGER,
      until: filter.until ?? Number.MAX_SAFE_INTEGER,
      pair: filter.pair ?? null,
      party: filter.party ?? null,
    });
    for (const r of rows) {
      yield {
        seq: r.seq,
        at: r.at,
        pair: r.pair,
        side: r.side,
        price: r.price,
        quantity: r.delta,
        filled: r.filled,
        orderId: r.order_id,
        clientOrderId: r.client_order_id,
        party: r.party,
        fee: r.fee,
        reference: r.reference,
        markouts: { 5: r.m5, 30: r.m30, 60: r.m60, 300: r.m300 },
      };
    }
  }
}

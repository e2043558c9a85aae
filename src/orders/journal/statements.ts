/**
 * The journal's order, transition, id, fill and meta statements, prepared once per connection
 * (the fill history's own are in `fill-history.ts`), the row shapes SQLite returns, and the
 * mappings of `orders`, `fills` and `transitions` rows to the journal's records (decimal TEXT
 * back to `Dec`, snapshots and events decoded).
 */
import { decFromText, decFromTextOrNull, decodeJson } from './codec.js';
import type { Db } from './schema.js';
import type { FillRecord, SnapshotCodec, StoredOrder, TransitionRow } from './types.js';

/** A row of `orders` as SQLite returns it. */
export interface OrderRow {
  local_key: string;
  slot: string | null;
  pair: string;
  side: string;
  client_order_id: string | null;
  order_id: string | null;
  contract_id: string | null;
  state: string;
  filled: string;
  snapshot: string;
  is_foreign: number;
  last_seq: number;
  created_at: number;
  updated_at: number;
}

/** The named parameters of an `orders` write. */
export type OrderParams = Omit<OrderRow, 'created_at' | 'updated_at'> & { at: number };

/** A row of `fills`. */
export interface FillRow {
  seq: number;
  order_id: string;
  local_key: string | null;
  contract_id: string | null;
  pair: string;
  side: string;
  price: string | null;
  filled: string;
  delta: string;
  at: number;
}

/** A row of `transitions`. */
export interface TransitionDbRow {
  seq: number;
  local_key: string;
  from_state: string | null;
  to_state: string;
  event_type: string;
  event: string | null;
  at: number;
}

/** The named parameters of an `intents` insert. */
export interface IntentParams {
  local_key: string;
  slot: string | null;
  pair: string;
  side: string;
  type: string;
  price: string | null;
  quantity: string;
  client_order_id: string | null;
  at: number;
}

/** Every statement the journal runs, prepared once per connection. */
export function prepareStatements(db: Db) {
  const orderCols =
    'o.local_key, o.slot, o.pair, o.side, o.client_order_id, o.order_id, o.contract_id, o.state, o.filled, o.snapshot, o.is_foreign, o.last_seq, o.created_at, o.updated_at';
  return {
    insertIntent: db.prepare<[IntentParams], void>(
      `INSERT INTO intents (local_key, slot, pair, side, type, price, quantity, client_order_id, created_at)
       VALUES (@local_key, @slot, @pair, @side, @type, @price, @quantity, @client_order_id, @at)`,
    ),
    insertOrder: db.prepare<[OrderParams], void>(
      `INSERT INTO orders (local_key, slot, pair, side, client_order_id, order_id, contract_id, state, filled,
                           snapshot, is_foreign, last_seq, created_at, updated_at)
       VALUES (@local_key, @slot, @pair, @side, @client_order_id, @order_id, @contract_id, @state, @filled,
               @snapshot, @is_foreign, @last_seq, @at, @at)`,
    ),
    updateOrder: db.prepare<[OrderParams], void>(
      `UPDATE orders SET slot = @slot, pair = @pair, side = @side, client_order_id = @client_order_id,
              order_id = @order_id, contract_id = @contract_id, state = @state, filled = @filled,
              snapshot = @snapshot, is_foreign = @is_foreign, last_seq = @last_seq, updated_at = @at
       WHERE local_key = @local_key`,
    ),
    insertTransition: db.prepare<[string, string | null, string, string, string | null, number], void>(
      'INSERT INTO transitions (local_key, from_state, to_state, event_type, event, at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    orderState: db.prepare<[string], { state: string; last_seq: number }>(
      'SELECT state, last_seq FROM orders WHERE local_key = ?',
    ),
    keyOfClientOrderId: db.prepare<[string], { local_key: string }>(
      'SELECT local_key FROM orders WHERE client_order_id = ?',
    ),
    keyOfOrderId: db.prepare<[string], { local_key: string }>(
      'SELECT local_key FROM order_ids WHERE order_id = ?',
    ),
    keyOfContractId: db.prepare<[string], { local_key: string }>(
      'SELECT local_key FROM contract_ids WHERE contract_id = ?',
    ),
    insertOrderId: db.prepare<[string, string, number], void>(
      'INSERT INTO order_ids (order_id, local_key, seq) VALUES (?, ?, ?)',
    ),
    insertContractId: db.prepare<[string, string, number], void>(
      'INSERT INTO contract_ids (contract_id, local_key, seq) VALUES (?, ?, ?)',
    ),
    insertFill: db.prepare<[Omit<FillRow, 'seq'>], void>(
      `INSERT INTO fills (order_id, local_key, contract_id, pair, side, price, filled, delta, at)
       VALUES (@order_id, @local_key, @contract_id, @pair, @side, @price, @filled, @delta, @at)
       ON CONFLICT (order_id, filled) DO NOTHING`,
    ),
    setLastSeq: db.prepare<[number, string], void>('UPDATE orders SET last_seq = ? WHERE local_key = ?'),
    fillDelta: db.prepare<[string, string], { delta: string }>(
      'SELECT delta FROM fills WHERE order_id = ? AND filled = ?',
    ),
    byKey: db.prepare<[string], OrderRow>(`SELECT ${orderCols} FROM orders o WHERE o.local_key = ?`),
    byClientOrderId: db.prepare<[string], OrderRow>(
      `SELECT ${orderCols} FROM orders o WHERE o.client_order_id = ?`,
    ),
    byOrderId: db.prepare<[string], OrderRow>(
      `SELECT ${orderCols} FROM order_ids i JOIN orders o ON o.local_key = i.local_key WHERE i.order_id = ?`,
    ),
    byContractId: db.prepare<[string], OrderRow>(
      `SELECT ${orderCols} FROM contract_ids c JOIN orders o ON o.local_key = c.local_key WHERE c.contract_id = ?`,
    ),
    all: db.prepare<[], OrderRow>(`SELECT ${orderCols} FROM orders o ORDER BY o.rowid`),
    notInStates: db.prepare<[string], OrderRow>(
      `SELECT ${orderCols} FROM orders o WHERE o.state NOT IN (SELECT value FROM json_each(?)) ORDER BY o.rowid`,
    ),
    contractHistory: db.prepare<[string], { contract_id: string }>(
      'SELECT contract_id FROM contract_ids WHERE local_key = ? ORDER BY seq, rowid',
    ),
    allFills: db.prepare<[], FillRow>('SELECT * FROM fills ORDER BY seq'),
    fillsAfter: db.prepare<[number], FillRow>('SELECT * FROM fills WHERE seq > ? ORDER BY seq'),
    fillsOf: db.prepare<[string], FillRow>('SELECT * FROM fills WHERE order_id = ? ORDER BY seq'),
    allTransitions: db.prepare<[], TransitionDbRow>('SELECT * FROM transitions ORDER BY seq'),
    transitionsOf: db.prepare<[string], TransitionDbRow>(
      'SELECT * FROM transitions WHERE local_key = ? ORDER BY seq',
    ),
    lastSeq: db.prepare<[], { seq: number | null }>('SELECT MAX(seq) AS seq FROM transitions'),
    getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare<[string, string], void>(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ),
    beginGroup: db.prepare<[], void>('BEGIN IMMEDIATE'),
    commitGroup: db.prepare<[], void>('COMMIT'),
    rollbackGroup: db.prepare<[], void>('ROLLBACK'),
    bumpCounter: db.prepare<[string], { value: string }>(
      'UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = ? RETURNING value',
    ),
  };
}

/** The journal's prepared statements. */
export type Statements = ReturnType<typeof prepareStatements>;

/** Maps an `orders` row to a {@link StoredOrder}, decoding the snapshot. */
export function toStoredOrder<O>(row: OrderRow, codec: SnapshotCodec<O>): StoredOrder<O> {
  return {
    key: row.local_key,
    slot: row.slot,
    pair: row.pair,
    side: row.side,
    clientOrderId: row.client_order_id,
    orderId: row.order_id,
    contractId: row.contract_id,
    state: row.state,
    filled: decFromText(row.filled),
    foreign: row.is_foreign === 1,
    lastSeq: row.last_seq,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    order: codec.decode(row.snapshot),
  };
}

/** Maps a `fills` row. */
export function toFillRecord(row: FillRow): FillRecord {
  return {
    seq: row.seq,
    orderId: row.order_id,
    key: row.local_key,
    contractId: row.contract_id,
    pair: row.pair,
    side: row.side,
    price: decFromTextOrNull(row.price),
    filled: decFromText(row.filled),
    delta: decFromText(row.delta),
    at: row.at,
  };
}

/** Maps a `transitions` row, reviving the event JSON. */
export function toTransitionRow(row: TransitionDbRow): TransitionRow {
  return {
    seq: row.seq,
    key: row.local_key,
    fromState: row.from_state,
    toState: row.to_state,
    eventType: row.event_type,
    event: row.event === null ? null : decodeJson(row.event),
    at: row.at,
  };
}

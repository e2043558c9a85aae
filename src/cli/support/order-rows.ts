/**
 * How operator commands show orders: venue orders marked with what the journal knows of them,
 * and the journal's own orders with their local states. Every value is a string (decimals as the
 * venue sent them, or rendered with `toWire`), so the JSON output is exact.
 */
import { toWire } from '../../core/decimal.js';
import type { StoredOrder } from '../../orders/journal/index.js';
import { currentContractId, type TrackedOrder } from '../../orders/fsm/index.js';
import type { Order } from '../../venue/schemas.js';
import { ATTENTION_STATES, journalRecordOf, type JournalRead } from './journal-reader.js';
import { formatTable, shortId } from '../../core/text-table.js';

/** What the journal knows of a venue order; null when it does not know it (FOREIGN). */
export interface JournalMark {
  /** The journal's local key. */
  readonly key: string;
  /** The local state (OPEN, CANCELLING, UNKNOWN, STRANDED…). */
  readonly state: string;
  /** True when the journal only adopted it (it was placed by something else). */
  readonly adopted: boolean;
}

/** A venue order as `orders` and `cancel-all` print it. */
export interface VenueOrderRow {
  readonly orderId: string;
  readonly clientOrderId: string | null;
  readonly pair: string;
  readonly side: string;
  readonly type: string;
  readonly price: string | null;
  readonly quantity: string;
  readonly filled: string;
  readonly status: string | null;
  readonly contractId: string | null;
  /** True when the journal does not know the order; null when the journal could not be read. */
  readonly foreign: boolean | null;
  readonly journal: JournalMark | null;
}

/** A venue order with its journal mark. */
export function venueOrderRow(order: Order, read: JournalRead): VenueOrderRow {
  const stored = journalRecordOf(read, order);
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId ?? null,
    pair: order.pair,
    side: order.side,
    type: order.type,
    price: order.price ?? null,
    quantity: order.quantity,
    filled: order.filled,
    status: order.status,
    contractId: order.contractId,
    foreign: read.kind === 'error' ? null : stored === undefined,
    journal: stored === undefined ? null : { key: stored.key, state: stored.state, adopted: stored.foreign },
  };
}

/** The journal column: the local state, `(adopted)` when the journal only adopted it, or FOREIGN. */
function journalCell(row: VenueOrderRow): string {
  if (row.foreign === null) return '?';
  if (row.journal === null) return 'FOREIGN';
  return row.journal.adopted ? `${row.journal.state} (adopted)` : row.journal.state;
}

/** Venue orders as a table: orderId, pair, side, price, qty, filled, status, contract, journal. */
export function venueOrderTable(rows: readonly VenueOrderRow[], indent = ''): string {
  return formatTable(
    ['ORDER ID', 'PAIR', 'SIDE', 'PRICE', 'QTY', 'FILLED', 'STATUS', 'CONTRACT', 'JOURNAL'],
    rows.map((r) => [
      r.orderId,
      r.pair,
      r.side,
      r.price ?? '-',
      r.quantity,
      r.filled,
      r.status ?? '-',
      shortId(r.contractId),
      journalCell(r),
    ]),
    indent,
  );
}

/** A journal order as `orders --local` prints it. */
export interface LocalOrderRow {
  readonly key: string;
  readonly slot: string | null;
  readonly pair: string;
  readonly side: string;
  readonly type: string;
  readonly price: string | null;
  readonly quantity: string;
  readonly filled: string;
  readonly clientOrderId: string | null;
  readonly orderId: string | null;
  readonly contractId: string | null;
  readonly state: string;
  /** Adopted from the venue rather than placed through the journal. */
  readonly adopted: boolean;
  /** UNKNOWN or STRANDED: needs a person (or the daemon's resolver). */
  readonly attention: boolean;
  readonly cancelReason: string | null;
  /** ISO 8601. */
  readonly updatedAt: string;
}

/** A stored journal order as a row. */
export function localOrderRow(stored: StoredOrder<TrackedOrder>): LocalOrderRow {
  const o = stored.order;
  return {
    key: stored.key,
    slot: stored.slot,
    pair: stored.pair,
    side: stored.side,
    type: o.type,
    price: o.price === null ? null : toWire(o.price),
    quantity: toWire(o.quantity),
    filled: toWire(stored.filled),
    clientOrderId: stored.clientOrderId,
    orderId: stored.orderId,
    contractId: stored.contractId ?? currentContractId(o),
    state: stored.state,
    adopted: stored.foreign,
    attention: (ATTENTION_STATES as readonly string[]).includes(stored.state),
    cancelReason: o.cancelReason,
    updatedAt: new Date(stored.updatedAt).toISOString(),
  };
}

/** Journal orders as a table; UNKNOWN and STRANDED states are marked `!!`. */
export function localOrderTable(rows: readonly LocalOrderRow[], indent = ''): string {
  return formatTable(
    ['STATE', 'PAIR', 'SIDE', 'PRICE', 'QTY', 'FILLED', 'ORDER ID', 'CONTRACT', 'KEY', 'UPDATED'],
    rows.map((r) => [
      `${r.attention ? '!! ' : ''}${r.state}${r.adopted ? ' (adopted)' : ''}`,
      r.pair,
      r.side,
      r.price ?? '-',
      r.quantity,
      r.filled,
      r.orderId ?? '-',
      shortId(r.contractId),
      r.key,
      r.updatedAt,
    ]),
    indent,
  );
}

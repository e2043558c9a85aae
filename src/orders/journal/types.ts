/**
 * The journal's view of an order: only the fields it indexes. The order state machine's
 * `TrackedOrder` satisfies it structurally, and so does any other order model with these fields;
 * everything else travels in the snapshot, written by a {@link SnapshotCodec}. The journal never
 * imports the state machine, so the two can evolve independently.
 */
import type { Dec } from '../../core/decimal.js';

/** See the module doc. */
export interface JournalOrder {
  /** Stable local key, assigned at creation; never changes. */
  readonly key: string;
  /** Quote slot; null for foreign orders. */
  readonly slot: string | null;
  readonly pair: string;
  /** BUY or SELL. */
  readonly side: string;
  /** LIMIT or MARKET (or any venue order type). */
  readonly type: string;
  /** Null for a MARKET order. */
  readonly price: Dec | null;
  readonly quantity: Dec;
  readonly clientOrderId: string | null;
  /** The venue's orderId; null until the prepare returns. */
  readonly orderId: string | null;
  /** Every contractId the order has had, oldest first; the current one is last. */
  readonly contractIds: readonly string[];
  readonly state: string;
  /** Cumulative filled quantity. */
  readonly filled: Dec;
  readonly flags: { readonly foreign: boolean };
}

/** Anything with a `type` tag: the state machine's `OrderEvent` fits. Stored as JSON. */
export interface JournalEvent {
  readonly type: string;
}

/** Turns an order snapshot into JSON text and back. Money must stay decimal strings. */
export interface SnapshotCodec<O> {
  encode(order: O): string;
  decode(text: string): O;
}

/**
 * One execution, derived from a larger cumulative `filled`. The state machine's `FillEffect`
 * fits (`quantity` is the delta, `filled` the cumulative after it).
 */
export interface FillInput {
  /** Required: fills are de-duplicated on (orderId, cumulative filled). */
  readonly orderId: string | null;
  /** The local key of the order, when known. */
  readonly key?: string | null;
  readonly pair: string;
  readonly side: string;
  /** Execution price; null when unknown (MARKET). */
  readonly price: Dec | null;
  /** This fill's quantity (the delta of cumulative filled). Must be positive. */
  readonly quantity: Dec;
  /** Cumulative filled after this fill. */
  readonly filled: Dec;
  readonly contractId?: string | null;
  /** Epoch ms of the observation; defaults to the journal clock. */
  readonly at?: number;
}

/** A stored fill. */
export interface FillRecord {
  readonly seq: number;
  readonly orderId: string;
  readonly key: string | null;
  readonly contractId: string | null;
  readonly pair: string;
  readonly side: string;
  readonly price: Dec | null;
  /** Cumulative filled after this fill. */
  readonly filled: Dec;
  /** This fill's quantity. */
  readonly delta: Dec;
  readonly at: number;
}

/** The current row of one order. */
export interface StoredOrder<O> {
  readonly key: string;
  readonly slot: string | null;
  readonly pair: string;
  readonly side: string;
  readonly clientOrderId: string | null;
  readonly orderId: string | null;
  /** The current contractId. */
  readonly contractId: string | null;
  readonly state: string;
  readonly filled: Dec;
  readonly foreign: boolean;
  /** Sequence number of the order's last transition. */
  readonly lastSeq: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The full snapshot, decoded by the journal's codec. */
  readonly order: O;
}

/** One row of the append-only transition log. */
export interface TransitionRow {
  readonly seq: number;
  readonly key: string;
  /** Null for the first transition of an order (created or adopted). */
  readonly fromState: string | null;
  readonly toState: string;
  readonly eventType: string;
  /** The event as stored (tagged decimals revived), or null. */
  readonly event: unknown;
  readonly at: number;
}

/** What a write stored. */
export interface WriteResult {
  /** Sequence number of the transition row written. */
  readonly seq: number;
  /** Fills newly stored (duplicates are skipped, not counted). */
  readonly fillsInserted: number;
}

/** Decides which states are terminal: a list of names or a predicate. */
export type TerminalStates = readonly string[] | ((state: string) => boolean);

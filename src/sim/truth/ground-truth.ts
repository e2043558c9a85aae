/**
 * The simulated venue's ground truth: what really happened, independent of what any client saw.
 * Tests of the daemon assert on it ("no live order was ever duplicated", "placements never
 * overlapped"), so every prepare, submit and commit is recorded with clock times.
 *
 * Everything stored here is plain JSON (decimals as wire strings, times as clock milliseconds),
 * so the admin read can serve it verbatim and two runs with the same seed compare equal.
 */

/** The endpoint families; latency, faults and call records are keyed by them. */
export const ENDPOINT_KINDS = [
  'pairs',
  'orderbook',
  'trades',
  'account',
  'orders',
  'order',
  'balances',
  'prepare',
  'cancelPrepare',
  'cancelBulk',
  'submit',
  'admin',
  'unknown',
] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

/** What the submission host concluded about a submission, before any fault was applied. */
export type SubmitVerdict =
  | 'valid'
  | 'malformed'
  | 'unknown-token'
  | 'token-expired'
  | 'token-used'
  | 'cache-expired'
  | 'party-mismatch'
  | 'command-mismatch'
  | 'hash-mismatch'
  | 'scheme-mismatch'
  | 'public-key-not-registered'
  | 'public-key-mismatch'
  | 'bad-signature'
  /** A fault dropped the request before the host looked at it. */
  | 'not-processed';

/** One call to the router, from arrival to answer. */
export interface CallRecord {
  id: number;
  endpoint: EndpointKind;
  host: string;
  method: string;
  path: string;
  accountSlug: string | null;
  partyId: string | null;
  /** Clock ms when the request arrived. */
  startedAt: number;
  /** Clock ms when the answer was sent (or the hang ended); null while in flight. */
  endedAt: number | null;
  status: number | null;
  code: string | null;
  orderId?: string;
  clientOrderId?: string;
  commandId?: string;
  commandKind?: 'place' | 'cancel';
  verdict?: SubmitVerdict;
  /** Ids of the faults that fired on this call. */
  faults: string[];
  latencyMs: number;
  /** True when the client went away (abort, disconnect) before the answer. */
  clientAborted: boolean;
}

/** A command reaching (or failing to reach) the ledger. */
export interface CommitRecord {
  seq: number;
  at: number;
  kind: 'place' | 'cancel';
  commandId: string;
  orderId: string;
  partyId: string;
  ok: boolean;
  reason?: string;
}

/** One party's balances right after a change. */
export interface BalanceSnapshot {
  seq: number;
  at: number;
  partyId: string;
  accountSlug: string;
  reason: string;
  balances: Record<string, { available: string; locked: string }>;
}

/** One entry of the engine's event log. */
export interface TruthEvent {
  seq: number;
  at: number;
  type: string;
  [field: string]: unknown;
}

/** One side of a trade as the ground truth knows it (the public feed knows neither). */
export interface TradeParty {
  orderId: string | null;
  partyId: string | null;
}

/** A trade with its attribution. */
export interface TradeTruth {
  tradeId: string;
  pair: string;
  price: string;
  quantity: string;
  at: number;
  executedAt: string;
  takerSide: 'BUY' | 'SELL';
  maker: TradeParty;
  taker: TradeParty;
}

/** One step of an order's life. */
export interface OrderHistoryEntry {
  at: number;
  status: string | null;
  contractId: string | null;
  filled: string;
  event: string;
}

/** One fill of an account order. */
export interface FillTruth {
  at: number;
  tradeId: string;
  price: string;
  quantity: string;
  role: 'maker' | 'taker';
  contractIdBefore: string | null;
  contractIdAfter: string | null;
}

/** An order as the ground truth knows it. */
export interface OrderTruth {
  orderId: string;
  partyId: string;
  accountSlug: string;
  clientOrderId: string | null;
  pair: string;
  side: 'BUY' | 'SELL';
  type: string;
  price: string | null;
  quantity: string;
  filled: string;
  status: string | null;
  contractId: string | null;
  contractIds: string[];
  /** True once its placement was accepted by the submission host (it then shows in GET /orders). */
  submitted: boolean;
  /** True once its placement committed. */
  committed: boolean;
  stranded: boolean;
  lock: { token: string; amount: string };
  createdAt: number;
  updatedAt: number;
  history: OrderHistoryEntry[];
  fills: FillTruth[];
}

/**
 * Append-only recorder; the engine writes, tests and the admin endpoints read.
 *
 * Unbounded by default: tests and simulations read whole runs. A venue that runs for days (paper
 * trading) calls {@link GroundTruth.bound}: each log then keeps its most recent entries only.
 */
export class GroundTruth {
  private seq = 0;
  private callSeq = 0;
  private readonly eventLog: TruthEvent[] = [];
  private readonly callLog: CallRecord[] = [];
  private readonly commitLog: CommitRecord[] = [];
  private readonly balanceLog: BalanceSnapshot[] = [];
  private readonly tradeLog: TradeTruth[] = [];
  private readonly references = new Map<string, { at: number; price: string }[]>();
  private maxEntries: number | null = null;

  constructor(private readonly now: () => number) {}

  /**
   * Keeps only the most recent `maxEntries` of each log (events, calls, commits, balance
   * snapshots, trades, and each pair's reference prices), dropping the oldest as new ones come
   * (a log may briefly hold up to an eighth more before it is trimmed); `null` keeps everything
   * again. Sequence numbers and call ids go on counting. The venue's own state (orders, books,
   * balances) is not a log and is never trimmed.
   */
  bound(maxEntries: number | null): void {
    if (maxEntries !== null && !(Number.isInteger(maxEntries) && maxEntries > 0)) {
      throw new RangeError('maxEntries must be a positive integer or null');
    }
    this.maxEntries = maxEntries;
    for (const log of [this.eventLog, this.callLog, this.commitLog, this.balanceLog, this.tradeLog]) {
      this.trim(log, 0);
    }
    for (const series of this.references.values()) this.trim(series, 0);
  }

  /**
   * Forgets what a reader has no use for, now: the whole event log when `events` is false, and
   * every ended call `keepCall` refuses (calls in flight stay, as the engine still fills them
   * in). A long simulation calls it as it goes, so its memory does not grow with the polls of
   * every party. Sequence numbers and call ids go on counting.
   */
  compact(o: { readonly events: boolean; readonly keepCall: (c: CallRecord) => boolean }): void {
    if (!o.events) this.eventLog.length = 0;
    let kept = 0;
    for (const c of this.callLog) if (c.endedAt === null || o.keepCall(c)) this.callLog[kept++] = c;
    this.callLog.length = kept;
  }

  /** The bound set by {@link bound}, or null (everything kept). */
  get limit(): number | null {
    return this.maxEntries;
  }

  /** Appends to the event log and returns the entry. */
  event(type: string, fields: Record<string, unknown> = {}): TruthEvent {
    const e: TruthEvent = { seq: ++this.seq, at: this.now(), type, ...fields };
    this.append(this.eventLog, e);
    return e;
  }

  /** Pushes onto a log, trimming it when bounded (in batches: amortised O(1)). */
  private append<T>(log: T[], entry: T): void {
    log.push(entry);
    if (this.maxEntries !== null) this.trim(log, Math.max(1, Math.floor(this.maxEntries / 8)));
  }

  private trim(log: unknown[], slack: number): void {
    if (this.maxEntries !== null && log.length > this.maxEntries + slack) {
      log.splice(0, log.length - this.maxEntries);
    }
  }

  /** Opens a call record (filled in by the router and the engine as the call proceeds). */
  startCall(init: Pick<CallRecord, 'endpoint' | 'host' | 'method' | 'path'>): CallRecord {
    const rec: CallRecord = {
      id: ++this.callSeq,
      ...init,
      accountSlug: null,
      partyId: null,
      startedAt: this.now(),
      endedAt: null,
      status: null,
      code: null,
      faults: [],
      latencyMs: 0,
      clientAborted: false,
    };
    this.append(this.callLog, rec);
    this.event('call.start', { callId: rec.id, endpoint: rec.endpoint, method: rec.method, path: rec.path });
    return rec;
  }

  /** Closes a call record. */
  endCall(rec: CallRecord, status: number, code: string | null): void {
    rec.endedAt = this.now();
    rec.status = status;
    rec.code = code;
    this.event('call.end', {
      callId: rec.id,
      endpoint: rec.endpoint,
      status,
      code,
      partyId: rec.partyId,
      orderId: rec.orderId ?? null,
      commandId: rec.commandId ?? null,
      verdict: rec.verdict ?? null,
    });
  }

  commit(rec: Omit<CommitRecord, 'seq' | 'at'>): void {
    const e = this.event(rec.ok ? 'commit' : 'commit.failed', { ...rec });
    this.append(this.commitLog, { seq: e.seq, at: e.at, ...rec });
  }

  balances(
    partyId: string,
    accountSlug: string,
    reason: string,
    balances: BalanceSnapshot['balances'],
  ): void {
    this.append(this.balanceLog, { seq: ++this.seq, at: this.now(), partyId, accountSlug, reason, balances });
  }

  trade(t: TradeTruth): void {
    this.append(this.tradeLog, t);
    if (t.maker.partyId !== null || t.taker.partyId !== null) {
      this.event('trade', { ...t, maker: { ...t.maker }, taker: { ...t.taker } });
    }
  }

  reference(pair: string, price: string): void {
    let series = this.references.get(pair);
    if (!series) this.references.set(pair, (series = []));
    this.append(series, { at: this.now(), price });
  }

  /** The whole event log, in order. */
  events(): TruthEvent[] {
    return this.eventLog.map((e) => structuredClone(e));
  }

  /** Every router call, in arrival order. */
  calls(): CallRecord[] {
    return this.callLog.map((c) => structuredClone(c));
  }

  /** Every commit attempt (successful or failed), in order. */
  commits(): CommitRecord[] {
    return this.commitLog.map((c) => ({ ...c }));
  }

  /** A snapshot of a party's balances after every change, in order. */
  balanceHistory(partyId?: string): BalanceSnapshot[] {
    return this.balanceLog
      .filter((b) => partyId === undefined || b.partyId === partyId)
      .map((b) => structuredClone(b));
  }

  /** Every trade with its attribution, oldest first. */
  trades(): TradeTruth[] {
    return this.tradeLog.map((t) => structuredClone(t));
  }

  /** The last reference price of `pair` the market model published, or null before the first. */
  lastReference(pair: string): string | null {
    return this.references.get(pair)?.at(-1)?.price ?? null;
  }

  /** The reference price series of `pair` as the market model published it. */
  referencePrices(pair: string): { at: number; price: string }[] {
    return [...(this.references.get(pair) ?? [])];
  }
}

/**
 * The order engine's vocabulary, apart from the engine so that its parts (`engine-parts.ts`) and
 * the engine (`order-engine.ts`) both import it and not each other: its options, its events, its
 * read-only views, its phases and the options of its close.
 */
import type { Clock } from '../core/clock.js';
import type { RecoveryConfig } from '../config/schema.js';
import type {
  ControlChange,
  ControlChangeInput,
  FillMarkInput,
  FillRecord,
  Journal,
} from '../orders/journal/index.js';
import type { OrderRegistry } from '../orders/order-registry.js';
import type { TrackedOrder } from '../orders/fsm/index.js';
import type { PreparedVerification } from '../signing/prepared-verifier.js';
import type { Signer } from '../signing/signer.js';
import type { VenueClient } from '../venue/client.js';
import type { CancelOptions } from './cancel/cancel-pool.js';
import type { CancelOutcome, ExecutionEvent, PlacementOutcome } from './execution-events.js';
import type { InventoryView } from './inventory.js';
import type { OrdersPoller } from './resolve/orders-poller.js';
import type { PlaceOptions, PlacementIntent } from './placement/placement-intent.js';
import type { ExecutionSettings } from './execution-settings.js';
import type { OrderObservation } from './fills.js';
import type { OrdersPollerEvent, OrdersPollerOptions } from './resolve/orders-poller.js';
import type { PlacementPolicy } from './placement/placement-policy.js';
import type { RecoveryReport } from './resolve/recovery.js';

/** Everything the engine reports: execution, order observations, poller and lifecycle events. */
export type EngineEvent =
  | ExecutionEvent
  | OrderObservation
  | OrdersPollerEvent
  | { readonly type: 'recovered'; readonly report: RecoveryReport }
  | { readonly type: 'phase'; readonly phase: EnginePhase; readonly at: number }
  | { readonly type: 'poll-failed'; readonly poller: string; readonly error: unknown; readonly at: number }
  | PartyStateEvent;

/** One of the firm's parties dropped out (its key or account refused, out of funds) or came back. */
export interface PartyStateEvent {
  readonly type: 'party-state';
  readonly party: string;
  readonly active: boolean;
  /** Why it is out; null when it came back. */
  readonly reason: string | null;
  readonly at: number;
}

/**
 * What the daemon trades through: one party's `OrderEngine`, or the firm's `FirmEngine` over
 * several parties' engines. Read-only views, the journal's meta, placements and cancels, life.
 */
export interface TradingEngine {
  readonly state: EnginePhase;
  readonly orders: OrdersView;
  readonly inventory: InventoryView;
  readonly meta: EngineMeta;
  /** The journal's control log (pauses and resumes): the primary party's journal. */
  readonly controlLog: EngineControlLog;
  readonly ignoredOrders: number;
  readonly ordersPoller: OrdersPoller | null;
  readonly evicted: number;
  recordFillMarks(marks: readonly FillMarkInput[]): number;
  fillsAfter(seq: number): FillRecord[];
  subscribe(listener: (e: EngineEvent) => void): () => void;
  start(): Promise<RecoveryReport>;
  place(intent: PlacementIntent, options?: PlaceOptions): Promise<PlacementOutcome>;
  cancel(key: string, options?: CancelOptions): Promise<CancelOutcome>;
  cancelAll(reason?: string): Promise<CancelOutcome[]>;
  close(options?: CloseOptions): Promise<void>;
}

/** The registry, read-only: what the strategy, risk and metrics may look at. */
export type OrdersView = Omit<
  OrderRegistry,
  'apply' | 'createIntent' | 'adoptForeign' | 'restore' | 'onTransition' | 'evictTerminal'
>;

/**
 * The journal's `meta` table, for state of the daemon's own that must outlive the process (the
 * daily loss guard's, `risk.daily_loss`). Values are text; `set` is a durable write (it survives
 * a crash once it returns) and throws when the journal cannot take it (closed, failed, a key the
 * journal owns, the disk).
 */
export interface EngineMeta {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/**
 * The journal's control log: every pause and resume of quoting, append-only. `record` is a
 * durable write, made before the change is acted on; both throw once the journal is closed.
 */
export interface EngineControlLog {
  record(change: ControlChangeInput): number;
  changes(): ControlChange[];
}

/** Options of {@link OrderEngine}. */
export interface OrderEngineOptions {
  readonly venue: VenueClient;
  readonly signer: Signer;
  /** The account's party and `clientOrderIdPrefix` (GET /account). */
  readonly partyId: string;
  readonly clientOrderIdPrefix: string;
  readonly clock: Clock;
  /** The journal: its file (config `store.path`, opened by start), or an open one (then owned). */
  readonly storePath?: string;
  readonly journal?: Journal<TrackedOrder>;
  /** Config `recovery`: what to do with resting orders nobody knows. Default `adopt`. */
  readonly recovery?: Partial<RecoveryConfig> & { readonly historyMarginMs?: number };
  /** Config `signing`: clear signing's policy and template map. Default `if-present`, the sim's map. */
  readonly verification?: PreparedVerification;
  /** The execution layer's settings, resolved once (`executionSettings`). Default: the engine's defaults. */
  readonly settings?: ExecutionSettings;
  /**
   * Asked by every placement whether it is still wanted and may be signed (the daemon's quote
   * cycle and balances gate). Default: `PLACE_EVERYTHING`.
   */
  readonly policy?: PlacementPolicy;
  /** The orders poller: period (default 5 s), jitter ratio (0.1) and source, per-run timeout (60 s). */
  readonly ordersPoll?: Pick<OrdersPollerOptions, 'intervalMs' | 'jitterRatio' | 'timeoutMs' | 'random'>;
  /** Entropy of new clientOrderIds (`[A-Za-z0-9_-]`, at most 24); default 8 random hex characters. */
  readonly clientOrderIdEntropy?: () => string;
  /** Forgetting terminal orders (see {@link TerminalEviction}); `false` keeps every order. */
  readonly eviction?: Partial<TerminalEviction> | false;
}

/**
 * The registry forgets terminal orders: every `intervalMs` it drops those last updated more than
 * `retentionMs` ago, so its size follows the recent order rate instead of growing with every
 * placement for as long as the process lives. The journal keeps them on disk.
 *
 * Nothing needs an evicted order: fills are summed into the inventory as they happen (and
 * rebuilt from the journal's fills on restart); the orders poller and the resolver only look at
 * non-terminal orders, and a listed order the registry no longer holds is restored from the
 * journal (`UnknownOrders`) before anything is concluded; recovery reads the journal; the
 * cancel pool answers `unknown-order` for a key it cannot find (nothing cancels an order that
 * ended minutes ago); metrics count terminal states "not yet evicted" and their counters are fed
 * by transitions, not by the registry's contents.
 */
export interface TerminalEviction {
  /** Period of the sweep, ms. Default 60 s. */
  readonly intervalMs: number;
  /** How long a terminal order stays in the registry after its last update, ms. Default 10 min. */
  readonly retentionMs: number;
}

/** Defaults of {@link TerminalEviction}. */
export const DEFAULT_TERMINAL_EVICTION: TerminalEviction = { intervalMs: 60_000, retentionMs: 600_000 };

/** The engine's life: created → recovering → ready → closing → closed (or failed at start). */
export type EnginePhase = 'created' | 'recovering' | 'ready' | 'closing' | 'closed' | 'failed';

/** Options of {@link OrderEngine.close}. */
export interface CloseOptions {
  /** Cancel every order held before stopping (config `shutdown.cancelOrders`). Default false. */
  readonly cancelAll?: boolean;
  /**
   * Bound on the whole close from its call, ms: the in-flight placement submission, the cancels,
   * and the cancel pool's drain (cancels already submitted run to their confirmation within it;
   * one cut by it stays CANCELLING in the journal for the next start). Default 150 s.
   */
  readonly drainMs?: number;
}

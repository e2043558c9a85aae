/**
 * What the execution layer reports: the typed outcome of every placement and cancel, and the
 * observer events a metrics/logging module subscribes to. The pipeline and the cancel pool never
 * log and never touch prom-client; they emit these events and return these outcomes.
 */
import type { OrderState, TerminalState } from '../orders/fsm/index.js';
import type { Dec } from '../core/decimal.js';
import type { UnverifiedReason } from '../signing/prepared-verifier.js';
import type { NoPartyReason } from './firm/party-allocator.js';
import type { NotWantedCause } from './placement/placement-policy.js';

// ---------------------------------------------------------------------------------------------
// Placement outcomes
// ---------------------------------------------------------------------------------------------

/** Identity fields every placement outcome carries. */
export interface PlacementRef {
  /** The pipeline's id for the intent (also for intents that never reached the registry). */
  readonly intentId: string;
  readonly slot: string;
  /** Registry key, null when the intent never reached the registry. */
  readonly key: string | null;
  readonly clientOrderId: string | null;
  /** The venue orderId of the last prepare, when there was one. */
  readonly orderId: string | null;
}

/**
 * The result of one placement, delivered to the strategy. Never a crash: every venue refusal is
 * one of these kinds.
 */
export type PlacementOutcome = PlacementRef &
  (
    | {
        /** The order rests (OPEN, PARTIALLY_FILLED, or CANCEL_REQUESTED after a deferred cancel). */
        readonly kind: 'placed';
        readonly state: OrderState;
        /** True when the prepare answered 201: the clientOrderId's order was already live. */
        readonly alreadyLive: boolean;
      }
    | {
        /** The order committed and ended at once (filled on entry, residual expired, …). */
        readonly kind: 'ended';
        readonly state: TerminalState;
      }
    | {
        /** The transaction never reached the book (5-minute rule, or a venue status without commit). */
        readonly kind: 'never-committed';
        readonly state: TerminalState;
      }
    | {
        /** The pipeline moved on while the order is SUBMITTED/UNKNOWN; the resolver owns it. */
        readonly kind: 'unresolved';
        readonly state: OrderState;
      }
    | {
        /** `isWanted` said no: before the prepare (`queued`) or before signing (`prepared`). */
        readonly kind: 'not-wanted';
        readonly stage: 'queued' | 'prepared';
      }
    | { readonly kind: 'superseded' }
    | {
        /**
         * No party of the firm could take it (none serves the pair and side, every one dropped
         * out, out of its per-minute budget, at its open-order cap or short of funds:
         * `firm/party-allocator.ts`). Nothing was sent; not a pipeline failure.
         */
        readonly kind: 'no-party';
        readonly reason: NoPartyReason;
        readonly detail: string;
      }
    | {
        /** The slot still holds an active order (unknown, resting, cancelling…). */
        readonly kind: 'slot-busy';
        readonly occupantKey: string;
        readonly occupantState: OrderState;
      }
    | { readonly kind: 'aborted'; readonly reason: AbortCause }
    | { readonly kind: 'echo-mismatch'; readonly detail: string }
    | { readonly kind: 'insufficient-balance' }
    | { readonly kind: 'max-open-orders'; readonly openOrders?: number; readonly maxOpenOrders?: number }
    | { readonly kind: 'rate-limited'; readonly limit?: number; readonly retryAfterMs: number }
    | {
        /** LEDGER_COMMAND_REJECTED after checking and backing off; includes a missing preapproval. */
        readonly kind: 'ledger-rejected';
        readonly attempts: number;
      }
    | {
        /**
         * Any other definitive refusal (account suspended, pair not allowed, validation, …): a venue
         * `ErrorCode`, or `INVALID_INTENT` when the intent was malformed before any call.
         */
        readonly kind: 'refused';
        readonly code: string;
      }
    | {
        /** Transient failures exhausted, or an internal error; nothing was left on the book. */
        readonly kind: 'failed';
        readonly code: string;
        readonly error?: unknown;
      }
  );

/** Kinds of {@link PlacementOutcome}. */
export type PlacementOutcomeKind = PlacementOutcome['kind'];

/** Why a task stopped early. */
export type AbortCause = 'closed' | 'signal' | 'timeout' | 'queue-timeout' | 'invalid';

// ---------------------------------------------------------------------------------------------
// Cancel outcomes
// ---------------------------------------------------------------------------------------------

/** The result of one cancel request. */
export type CancelOutcome = {
  readonly key: string;
  readonly orderId: string | null;
  /** Cumulative filled as the registry holds it at the end. */
  readonly filled: Dec | null;
} & (
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'filled' }
  /** Ended otherwise (EXPIRED residual, REJECTED, ABANDONED, or already terminal before). */
  | { readonly kind: 'ended'; readonly state: TerminalState }
  /** Not resting yet: the cancel is recorded and runs once the order rests. */
  | { readonly kind: 'deferred'; readonly state: OrderState }
  | { readonly kind: 'stranded'; readonly attempts: number }
  | { readonly kind: 'echo-mismatch'; readonly detail: string }
  | { readonly kind: 'failed'; readonly code: string; readonly attempts: number }
  | { readonly kind: 'aborted'; readonly reason: AbortCause }
  | { readonly kind: 'unknown-order' }
);

// ---------------------------------------------------------------------------------------------
// Observer events
// ---------------------------------------------------------------------------------------------

/** The timed stages of placements and cancels. */
export type Stage =
  | 'prepare'
  | 'sign'
  | 'submit'
  | 'confirm'
  | 'cancel-prepare'
  | 'cancel-sign'
  | 'cancel-submit'
  | 'cancel-confirm';

/** Things that need a human or the risk gate. */
export type ExecutionAlarmReason =
  /** A prepared order (or cancel) differed from what was asked: refused, never signed. */
  | 'echo-mismatch'
  /** A cancel could not complete repeatedly: the order's funds are gone. */
  | 'stranded'
  /** Past the 5-minute deadline, the order still cannot be read; the slot stays blocked. */
  | 'unknown-unresolved'
  /** A registry/journal write or an observer failed; see `detail`. */
  | 'internal-error'
  /** The venue refuses the API key (revoked, expired, unknown): raised once per episode by the daemon. */
  | 'api-key-refused';

/** Every event the execution layer emits. `at` is the injected clock's time. */
export type ExecutionEvent =
  | {
      readonly type: 'stage';
      readonly stage: Stage;
      readonly key: string;
      readonly ms: number;
      readonly ok: boolean;
      readonly code?: string;
      readonly at: number;
    }
  | {
      readonly type: 'queue';
      readonly queue: 'placement' | 'cancel';
      /** Tasks waiting (not started). */
      readonly depth: number;
      readonly inFlight: number;
      /** Age of the oldest waiting task, 0 when none. */
      readonly oldestWaitMs: number;
      readonly at: number;
    }
  | {
      readonly type: 'placement';
      readonly outcome: PlacementOutcome;
      readonly ms: number;
      readonly at: number;
    }
  | { readonly type: 'cancel'; readonly outcome: CancelOutcome; readonly ms: number; readonly at: number }
  | {
      readonly type: 'prepare-abandoned';
      readonly key: string;
      readonly reason: string;
      /** For `not-wanted`: the freshness check's cause, when it gave one. */
      readonly cause?: NotWantedCause;
      readonly at: number;
    }
  | {
      readonly type: 'echo-refused';
      readonly operation: 'place' | 'cancel';
      readonly key: string;
      readonly detail: string;
      readonly at: number;
    }
  | {
      /**
       * A hash about to be signed whose prepared transaction could not be verified (policy
       * `if-present`): absent, an unknown hashing scheme, or a template the map cannot read. The
       * echo check alone decided. Emitted the first time each reason occurs.
       */
      readonly type: 'signing-unverified';
      readonly operation: 'place' | 'cancel';
      readonly key: string;
      readonly reason: UnverifiedReason;
      readonly detail: string;
      readonly at: number;
    }
  | {
      readonly type: 'alarm';
      readonly reason: ExecutionAlarmReason;
      readonly key: string | null;
      readonly detail: string;
      readonly at: number;
    }
  | { readonly type: 'unknown'; readonly key: string; readonly code: string; readonly at: number }
  | {
      readonly type: 'unknown-resolved';
      readonly key: string;
      readonly resolution: 'resting' | 'terminal' | 'never-committed';
      readonly state: OrderState;
      readonly at: number;
    }
  | {
      readonly type: 'backoff';
      readonly queue: 'placement' | 'cancel';
      readonly reason: string;
      readonly delayMs: number;
      readonly at: number;
    }
  | {
      readonly type: 'retry';
      readonly operation: 'prepare' | 're-prepare' | 'resubmit' | 'cancel';
      readonly key: string;
      readonly code: string;
      readonly attempt: number;
      readonly at: number;
    };

/** The `type` of an {@link ExecutionEvent}. */
export type ExecutionEventType = ExecutionEvent['type'];

/** Every {@link ExecutionEventType} as a key: a type added to the union fails to compile until listed. */
const EXECUTION_EVENT_TYPE_KEYS = {
  stage: true,
  queue: true,
  placement: true,
  cancel: true,
  'prepare-abandoned': true,
  'echo-refused': true,
  'signing-unverified': true,
  alarm: true,
  unknown: true,
  'unknown-resolved': true,
  backoff: true,
  retry: true,
} as const satisfies Record<ExecutionEventType, true>;

/** The `type` of every {@link ExecutionEvent}, each once. */
export const EXECUTION_EVENT_TYPES = Object.keys(EXECUTION_EVENT_TYPE_KEYS) as readonly ExecutionEventType[];

const EXECUTION_EVENT_TYPE_SET: ReadonlySet<string> = new Set(EXECUTION_EVENT_TYPES);

/**
 * True when `event` is an {@link ExecutionEvent} (its `type` is one of
 * {@link EXECUTION_EVENT_TYPES}), for streams that mix execution events with others.
 */
export function isExecutionEvent<E extends { readonly type: string }>(event: E): event is E & ExecutionEvent {
  return EXECUTION_EVENT_TYPE_SET.has(event.type);
}

/** Receives execution events. Must not throw (a throw is swallowed, see {@link safeEmitter}). */
export type ExecutionObserver = (event: ExecutionEvent) => void;

/** A fan-out of observers: pass `hub.emit` as the `observer` option of several components. */
export class ExecutionEventHub {
  private readonly observers = new Set<ExecutionObserver>();

  /** Registers an observer; returns its unsubscribe. */
  subscribe(observer: ExecutionObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Delivers `event` to every observer; an observer that throws does not stop the others. */
  readonly emit: ExecutionObserver = (event) => {
    for (const o of [...this.observers]) {
      try {
        o(event);
      } catch {
        // Observers observe; they never decide, and never break the execution path.
      }
    }
  };
}

/** Wraps an optional observer so emitting never throws. */
export function safeEmitter(observer: ExecutionObserver | undefined): ExecutionObserver {
  if (observer === undefined) return () => undefined;
  return (event) => {
    try {
      observer(event);
    } catch {
      // See ExecutionEventHub.emit.
    }
  };
}

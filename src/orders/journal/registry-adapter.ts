/**
 * Wiring between the own-orders registry and the journal, written against the SHAPE of the
 * registry's `TransitionRecord` (no import), so either side can change without the other
 * noticing until the shapes really diverge.
 *
 * ```ts
 * const journal = openJournal<TrackedOrder>({ path: config.store.path, clock });
 * const registry = new OrderRegistry({ writeAhead: journalWriteAhead(journal) });
 * for (const stored of journal.loadOpenOrders(TERMINAL_STATES)) registry.restore(stored.order);
 * ```
 *
 * The registry calls `writeAhead` before it stores a change; if the journal throws, the registry
 * changes nothing and the caller must not make the venue call that depended on the change.
 * Every write is in the store (the journal's readers see it) when the hook returns;
 * {@link durabilityOf} decides which are committed and fsynced at once (all but a few pieces of
 * pure progress) and which wait for the journal's group commit.
 */
import type { Durability } from './group-commit.js';
import type { Journal } from './journal.js';
import type { FillInput, JournalEvent, JournalOrder } from './types.js';

/** What the journal needs from a registry transition record. */
export interface TransitionRecordLike<O> {
  /** `created` (a new intent), `adopted` (a foreign order) or `event`. */
  readonly cause: string;
  /** Null when the order was created or adopted. */
  readonly previous: O | null;
  readonly order: O;
  /** Null when the order was created or adopted. */
  readonly event: JournalEvent | null;
  /** The effects of the change; `fill` effects are journaled with it, in the same transaction. */
  readonly effects: readonly { readonly type: string }[];
}

/** A `fill` effect: the state machine's `FillEffect` has these fields. */
export type FillEffectLike = FillInput & { readonly type: 'fill' };

function isFillEffect(effect: { readonly type: string }): effect is FillEffectLike {
  return effect.type === 'fill';
}

/**
 * Events whose change may wait for the group commit (`relaxed`, see {@link Durability}): each records
 * progress that no venue call depends on, so a crash that drops it leaves the order one step
 * back, in a state recovery settles by reading the venue. Everything else (the intent,
 * SubmitStarted, every cancel step before its submission, every terminal state, every fill) is
 * fsynced before the registry stores it, and so before the call that follows.
 */
export const RELAXED_EVENTS: ReadonlySet<string> = new Set([
  // A prepare commits nothing; INTENT recovers by looking the clientOrderId up in the history.
  'PrepareStarted',
  // The orderId is re-learnt from that history; SubmitStarted (durable) precedes any submission.
  'Prepared',
  // The signature itself is never journaled: PREPARED and SIGNED recover alike.
  'Signed',
  // A lost acceptance leaves SUBMITTING, which recovers as UNKNOWN and reads the order first.
  'SubmitAccepted',
  // A lost confirmation leaves SUBMITTED, which recovery reads.
  'ConfirmedResting',
  // A lost CancelSubmitted leaves CANCELLING, which recovery hands to the cancel pool again.
  'CancelSubmitted',
]);

/**
 * Effects that make any change durable: a fill (inventory) and an end state. A contractId that
 * arrives without a fill is the first one, from the confirmation read, which recovery reads again.
 */
const DURABLE_EFFECTS: ReadonlySet<string> = new Set(['fill', 'terminal']);

/** How durable the journal write of `record` must be. */
export function durabilityOf(record: TransitionRecordLike<unknown>): Durability {
  const type = record.event?.type;
  if (record.previous === null || type === undefined || !RELAXED_EVENTS.has(type)) return 'durable';
  return record.effects.some((e) => DURABLE_EFFECTS.has(e.type)) ? 'durable' : 'relaxed';
}

/**
 * A registry `writeAhead` hook that journals every change before the registry stores it, with
 * the durability {@link durabilityOf} gives it: a created order becomes
 * {@link Journal.recordIntent}; an adopted one and every event become
 * {@link Journal.recordTransition}, together with the fills the event produced.
 */
export function journalWriteAhead<O extends JournalOrder>(
  journal: Journal<O>,
): (record: TransitionRecordLike<O>) => void {
  return (record) => {
    if (record.previous === null && record.cause === 'created') {
      journal.recordIntent(record.order);
      return;
    }
    const event = record.event ?? (record.cause === 'adopted' ? { type: 'Adopted' } : null);
    journal.recordTransition(
      record.previous,
      record.order,
      event,
      record.effects.filter(isFillEffect),
      durabilityOf(record),
    );
  };
}

import type { Journal } from './journal.js';
import type { FillInput, JournalEvent, JournalOrder } from './types.js';

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
 */

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
 * A registry `writeAhead` hook that journals every change durably before the registry stores
 * it: a created order becomes {@link Journal.recordIntent}; an adopted one and every event become
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
    journal.recordTransition(record.previous, record.order, event, record.effects.filter(isFillEffect));
  };
}

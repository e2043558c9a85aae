import { describe, expect, it } from 'vitest';
import {
  ORDER_STATES,
  TRANSITIONS,
  countsAsExposure,
  holdsPreparedTransaction,
  isAwaitingConfirmation,
  isBeforeSubmission,
  isCancelling,
  isCommitted,
  isInFlight,
  isLiveOnBook,
  isResting,
  isSubmitted,
  isTerminal,
  needsAttention,
  placementStep,
  type OrderState,
} from '../../src/orders/fsm/index.js';

/** Each row: a state and the predicates that hold for it (every other predicate must not). */
const TABLE: readonly [OrderState, readonly string[]][] = [
  ['INTENT', ['beforeSubmission', 'inFlight']],
  ['PREPARING', ['beforeSubmission', 'inFlight']],
  ['PREPARED', ['beforeSubmission', 'inFlight', 'holdsPrepared']],
  ['SIGNED', ['beforeSubmission', 'inFlight', 'holdsPrepared']],
  ['SUBMITTING', ['awaiting', 'inFlight', 'exposure']],
  ['SUBMITTED', ['awaiting', 'submitted', 'inFlight', 'exposure']],
  ['UNKNOWN', ['awaiting', 'submitted', 'inFlight', 'exposure', 'attention']],
  ['OPEN', ['resting', 'committed', 'liveOnBook', 'exposure']],
  ['PARTIALLY_FILLED', ['resting', 'committed', 'liveOnBook', 'exposure']],
  ['CANCEL_REQUESTED', ['cancelling', 'committed', 'liveOnBook', 'exposure']],
  ['CANCELLING', ['cancelling', 'committed', 'liveOnBook', 'exposure']],
  ['STRANDED', ['cancelling', 'committed', 'exposure', 'attention']],
  ['FILLED', ['terminal']],
  ['CANCELLED', ['terminal']],
  ['EXPIRED', ['terminal']],
  ['REJECTED', ['terminal']],
  ['ABANDONED', ['terminal']],
];

const PREDICATES: Record<string, (s: OrderState) => boolean> = {
  beforeSubmission: isBeforeSubmission,
  holdsPrepared: holdsPreparedTransaction,
  awaiting: isAwaitingConfirmation,
  submitted: isSubmitted,
  inFlight: isInFlight,
  resting: isResting,
  cancelling: isCancelling,
  committed: isCommitted,
  liveOnBook: isLiveOnBook,
  exposure: countsAsExposure,
  attention: needsAttention,
  terminal: isTerminal,
};

describe('order state predicates', () => {
  it('the table names every state once', () => {
    expect(TABLE.map(([s]) => s)).toEqual([...ORDER_STATES]);
  });

  it.each(TABLE)('%s', (state, holds) => {
    for (const [name, p] of Object.entries(PREDICATES))
      expect([name, p(state)]).toEqual([name, holds.includes(name)]);
  });

  it('the life groups partition the states', () => {
    for (const s of ORDER_STATES) {
      const groups = [isBeforeSubmission, isAwaitingConfirmation, isResting, isCancelling, isTerminal].filter(
        (p) => p(s),
      );
      expect([s, groups.length]).toEqual([s, 1]);
    }
  });

  it('terminal states have no way out in the table', () => {
    for (const s of ORDER_STATES.filter(isTerminal)) {
      for (const target of Object.values(TRANSITIONS[s])) expect(target).toBe(s);
    }
  });

  it('placementStep names the pipeline step of INTENT … SUBMITTED only', () => {
    expect(ORDER_STATES.map((s) => placementStep(s))).toEqual([
      'waiting',
      'prepare',
      'sign',
      'submit',
      'submit',
      'confirm',
      ...Array<null>(11).fill(null),
    ]);
  });
});

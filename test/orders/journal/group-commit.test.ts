import FakeTimers from '@sinonjs/fake-timers';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../../src/core/clock.js';
import {
  DEFAULT_GROUP_COMMIT_MS,
  JournalConflictError,
  JournalFailedError,
  durabilityOf,
  type Journal,
  type JournalOptions,
} from '../../../src/orders/journal/index.js';
import { useTempStores } from './support/temp-store.js';
import { applyToy, toy, type ToyEvent, type ToyOrder } from './support/toy-order.js';

/**
 * Group commit: relaxed writes wait in one open transaction until the next durable write
 * commits them with itself (one fsync), or the group timer does. The journal's own readers see
 * them at once; another connection (an operator tool, or the store after a crash) only once
 * they are committed.
 */

const stores = useTempStores();

function setup(options: Partial<JournalOptions<ToyOrder>> = {}) {
  const fake = FakeTimers.createClock(1_700_000_000_000);
  const path = stores.tempStore();
  const j = stores.open(path, { clock: fakeClock(fake), ...options });
  const stateOnDisk = (key: string): string | undefined =>
    (
      stores.raw(path).prepare('SELECT state FROM orders WHERE local_key = ?').get(key) as
        { state: string } | undefined
    )?.state;
  return { fake, path, j, stateOnDisk };
}

function step(
  j: Journal<ToyOrder>,
  o: ToyOrder,
  event: ToyEvent,
  durability: 'durable' | 'relaxed',
): ToyOrder {
  const { order, fills } = applyToy(o, event);
  j.recordTransition(o, order, event, fills, durability);
  return order;
}

const PREPARED: ToyEvent = { type: 'Prepared', orderId: 'ord-1', at: 1 };
const RESTED: ToyEvent = { type: 'Rested', contractId: 'c-1', at: 2 };

describe('journal group commit', () => {
  it('shows a relaxed write to its own readers at once and to the store when the timer commits', () => {
    const { fake, j, stateOnDisk } = setup();
    const o = toy('mm-1');
    j.recordIntent(o);
    step(j, o, PREPARED, 'relaxed');

    expect(j.get('mm-1')?.state).toBe('PREPARED');
    expect(j.pending).toBe(true);
    expect(stateOnDisk('mm-1')).toBe('INTENT');
    fake.tick(DEFAULT_GROUP_COMMIT_MS - 1);
    expect(stateOnDisk('mm-1')).toBe('INTENT');
    fake.tick(1);
    expect(stateOnDisk('mm-1')).toBe('PREPARED');
    expect(j.pending).toBe(false);
    expect(j.stats()).toEqual({ writes: 2, relaxedWrites: 1, commits: 2 });
  });

  it('commits the waiting group with the next durable write, in one commit', () => {
    const { j, stateOnDisk } = setup();
    const o = toy('mm-1');
    j.recordIntent(o);
    const prepared = step(j, o, PREPARED, 'relaxed');
    step(j, prepared, RESTED, 'durable');

    expect(stateOnDisk('mm-1')).toBe('OPEN');
    expect(j.pending).toBe(false);
    // The intent in one commit, Prepared + Rested in another.
    expect(j.stats()).toEqual({ writes: 3, relaxedWrites: 1, commits: 2 });
    expect(j.transitions('mm-1').map((t) => t.toState)).toEqual(['INTENT', 'PREPARED', 'OPEN']);
  });

  it('undoes only the relaxed write that throws; the group keeps the earlier ones', () => {
    const { j, stateOnDisk } = setup();
    const o = toy('mm-1');
    j.recordIntent(o);
    const prepared = step(j, o, PREPARED, 'relaxed');
    // A stale prev (INTENT, the journal holds PREPARED) is refused.
    expect(() => step(j, o, PREPARED, 'relaxed')).toThrow(JournalConflictError);
    expect(j.pending).toBe(true);
    j.flush();
    expect(stateOnDisk('mm-1')).toBe('PREPARED');
    expect(j.transitions('mm-1')).toHaveLength(2);
    expect(prepared.state).toBe('PREPARED');
  });

  it('leaves no group open when the write that would open it throws', () => {
    const { j } = setup();
    const o = toy('mm-1');
    j.recordIntent(o);
    const prepared = applyToy(o, PREPARED).order;
    expect(() => j.recordTransition(prepared, prepared, PREPARED, [], 'relaxed')).toThrow(
      JournalConflictError,
    );
    expect(j.pending).toBe(false);
    expect(j.stats().commits).toBe(1);
  });

  it('commits the group on close(); closeAsCrash() loses it, and only it', () => {
    for (const [close, expected] of [
      ['close', 'PREPARED'],
      ['closeAsCrash', 'INTENT'],
    ] as const) {
      const { j, path } = setup();
      const o = toy('mm-1');
      j.recordIntent(o);
      step(j, o, PREPARED, 'relaxed');
      j[close]();
      const again = stores.open(path);
      expect(again.get('mm-1')?.state, close).toBe(expected);
      expect(again.integrityCheck()).toEqual([]);
    }
  });

  it('commits every write at once with groupCommitMs 0', () => {
    const { j, stateOnDisk } = setup({ groupCommitMs: 0 });
    const o = toy('mm-1');
    j.recordIntent(o);
    step(j, o, PREPARED, 'relaxed');
    expect(j.pending).toBe(false);
    expect(stateOnDisk('mm-1')).toBe('PREPARED');
    expect(j.stats()).toEqual({ writes: 2, relaxedWrites: 0, commits: 2 });
  });

  it('commits the waiting group with a durable counter bump', () => {
    const { j, stateOnDisk } = setup();
    const o = toy('mm-1');
    j.recordIntent(o);
    step(j, o, PREPARED, 'relaxed');
    j.nextClientOrderSuffix();
    expect(j.pending).toBe(false);
    expect(stateOnDisk('mm-1')).toBe('PREPARED');
  });

  it('fails every later write once a group commit fails, and keeps nothing of the group', () => {
    const { j, stateOnDisk } = setup();
    const o = toy('mm-1');
    j.recordIntent(o);
    const prepared = step(j, o, PREPARED, 'relaxed');
    // An I/O error at COMMIT (disk full, EIO) cannot be produced on demand: stand in for it.
    const st = (j as unknown as { st: { commitGroup: { run: () => void } } }).st;
    st.commitGroup = {
      run: () => {
        throw new Error('disk I/O error');
      },
    };
    expect(() => step(j, prepared, RESTED, 'durable')).toThrow(JournalFailedError);
    expect(j.pending).toBe(false);
    expect(stateOnDisk('mm-1')).toBe('INTENT');
    expect(() => j.nextClientOrderSuffix()).toThrow(/failed to commit: disk I\/O error/);
    expect(() => j.recordIntent(toy('mm-2'))).toThrow(JournalFailedError);
    expect(() => j.close()).not.toThrow();
  });
});

describe('durabilityOf: which registry changes may wait for a group commit', () => {
  const order = toy('mm-1');
  const CASES: [event: string | null, effects: string[], expected: 'durable' | 'relaxed'][] = [
    ['PrepareStarted', [], 'relaxed'],
    ['Prepared', [], 'relaxed'],
    ['Signed', [], 'relaxed'],
    ['SubmitAccepted', [], 'relaxed'],
    ['ConfirmedResting', ['rotated'], 'relaxed'],
    ['ConfirmedResting', ['fill', 'rotated'], 'durable'],
    ['ConfirmedResting', ['terminal'], 'durable'],
    ['CancelSubmitted', [], 'relaxed'],
    ['SubmitStarted', [], 'durable'],
    ['CancelRequested', [], 'durable'],
    ['CancelPrepareStarted', [], 'durable'],
    ['PreparedLive', [], 'durable'],
    ['SubmitAmbiguous', [], 'durable'],
    ['VenueSnapshot', [], 'durable'],
    ['Abandoned', ['terminal'], 'durable'],
    [null, [], 'durable'],
  ];
  it.each(CASES)('%s with effects %j is %s', (event, effects, expected) => {
    const record = {
      cause: 'event',
      previous: order,
      order,
      event: event === null ? null : { type: event },
      effects: effects.map((type) => ({ type })),
    };
    expect(durabilityOf(record)).toBe(expected);
  });

  it('makes a created or adopted order durable whatever its event', () => {
    for (const cause of ['created', 'adopted']) {
      const record = { cause, previous: null, order, event: { type: 'Prepared' }, effects: [] };
      expect(durabilityOf(record)).toBe('durable');
    }
  });
});

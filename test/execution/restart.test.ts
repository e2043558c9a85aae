import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { PlacementIntent } from '../../src/execution/placement/placement-intent.js';
import {
  isAwaitingConfirmation,
  isCancelling,
  isLiveOnBook,
  type OrderState,
  type TrackedOrder,
} from '../../src/orders/fsm/index.js';
import type { OrderTruth } from '../../src/sim/truth/ground-truth.js';
import {
  disposeAll,
  isCancelPrepare,
  isPrepare,
  isSubmit,
  settle,
  startDaemon,
  until,
  type DaemonProcess,
  type KillPoint,
} from './support/daemon.js';
import { expectNoDuplicateLive, liveOnVenue, simEnv, truthByCoid, type SimEnv } from './support/sim-env.js';

/**
 * Kill and restart at every step of a placement and of its cancel. The first process is killed
 * at the step (no close(), no shutdown code: its journal is closed as a crash leaves it and its
 * link to the venue is cut); a fresh engine then starts on the same journal file against the
 * same venue. Every test asserts on the venue's ground truth: the order ends in its true state
 * locally, no live order is ever duplicated, and the slot can be used again only once free.
 */

const SLOT = 'BTC/USDC:BUY:0';
const INTENT: PlacementIntent = {
  slot: SLOT,
  pair: 'BTC/USDC',
  side: 'BUY',
  price: dec('60000'),
  quantity: dec('0.01'),
};

/** What the local state must be for what the venue really holds. */
function expectedLocal(truth: OrderTruth | undefined): OrderState {
  if (truth === undefined || !truth.submitted) return 'ABANDONED';
  return truth.status as OrderState;
}

interface Case {
  readonly name: string;
  readonly kill: KillPoint;
  /** Cancel the order once it rests (the kill happens during the cancel). */
  readonly cancel?: boolean;
  /** The venue's true end state of the first order. */
  readonly venue: 'absent' | 'unsubmitted' | 'OPEN' | 'CANCELLED' | 'REJECTED';
  /** The order's state in memory when the process died, and in the journal after the kill. */
  readonly killedIn: OrderState;
  readonly journaled: OrderState;
  readonly setup?: (env: SimEnv) => void;
  /** `fast`: commits land ~0.6 s after the submit answer, so the restart sees them pending. */
  readonly latency?: 'fast';
}

const submits = (): KillPoint['afterSend'] => {
  let n = 0;
  return (req) => isSubmit(req) && ++n === 2;
};

const CASES: Case[] = [
  {
    name: 'INTENT journalled, not prepared',
    kill: { afterJournal: (o) => o.state === 'INTENT' },
    venue: 'absent',
    killedIn: 'INTENT',
    journaled: 'INTENT',
  },
  {
    name: 'prepare sent, its answer lost',
    kill: { afterSend: (req) => isPrepare(req) },
    venue: 'unsubmitted',
    killedIn: 'PREPARING',
    journaled: 'INTENT',
  },
  {
    name: 'prepared, not signed',
    kill: { afterJournal: (o) => o.state === 'PREPARED' },
    venue: 'unsubmitted',
    killedIn: 'PREPARED',
    journaled: 'INTENT',
  },
  {
    name: 'signed, not submitted',
    kill: { afterJournal: (o) => o.state === 'SIGNED' },
    venue: 'unsubmitted',
    killedIn: 'SIGNED',
    journaled: 'INTENT',
  },
  {
    name: 'submit sent, not answered',
    kill: { afterSend: (req) => isSubmit(req) },
    venue: 'OPEN',
    killedIn: 'SUBMITTING',
    journaled: 'SUBMITTING',
  },
  {
    name: 'submitted, not confirmed',
    kill: { afterJournal: (o) => o.state === 'SUBMITTED' },
    venue: 'OPEN',
    killedIn: 'SUBMITTED',
    journaled: 'SUBMITTING',
  },
  {
    name: 'submit sent, not answered, its commit landing after the restart',
    kill: { afterSend: (req) => isSubmit(req) },
    venue: 'OPEN',
    killedIn: 'SUBMITTING',
    journaled: 'SUBMITTING',
    setup: (env) => void env.venue.addFault({ kind: 'latency-spike', endpoint: 'submit', extraMs: 20_000 }),
  },
  {
    name: 'submitted, not confirmed, its commit landing after the restart',
    kill: { afterJournal: (o) => o.state === 'SUBMITTED' },
    venue: 'OPEN',
    killedIn: 'SUBMITTED',
    journaled: 'SUBMITTING',
    latency: 'fast',
  },
  {
    name: 'confirmed (resting)',
    kill: { afterJournal: (o) => o.state === 'OPEN' },
    venue: 'OPEN',
    killedIn: 'OPEN',
    journaled: 'SUBMITTED',
  },
  {
    name: 'cancel requested',
    cancel: true,
    kill: { afterJournal: (o) => o.state === 'CANCEL_REQUESTED' },
    venue: 'CANCELLED',
    killedIn: 'CANCEL_REQUESTED',
    journaled: 'CANCEL_REQUESTED',
  },
  {
    name: 'cancel prepare sent, not submitted',
    cancel: true,
    kill: { afterSend: (req) => isCancelPrepare(req) },
    venue: 'CANCELLED',
    killedIn: 'CANCELLING',
    journaled: 'CANCELLING',
  },
  {
    name: 'cancel submitted, not answered',
    cancel: true,
    kill: { afterSend: submits() },
    venue: 'CANCELLED',
    killedIn: 'CANCELLING',
    journaled: 'CANCELLING',
  },
  {
    name: 'submit sent, answer lost, and the ledger never commits it',
    kill: { afterSend: (req) => isSubmit(req) },
    venue: 'REJECTED',
    killedIn: 'SUBMITTING',
    journaled: 'SUBMITTING',
    setup: (env) => void env.venue.addFault({ kind: 'no-commit', endpoint: 'submit', at: 1 }),
  },
];

let env: SimEnv;
let alive: DaemonProcess[] = [];

beforeEach(() => {
  env = simEnv();
  alive = [];
});
afterEach(() => disposeAll(env, alive));

/** Runs the first process until it dies at its kill point; returns the order it was handling. */
async function runUntilKilled(c: Case, path: string): Promise<TrackedOrder> {
  const a = startDaemon(env, path, { kill: c.kill });
  await settle(env, a.engine.start());
  const placing = a.engine.place(INTENT);
  if (c.cancel === true) {
    const placed = await settle(env, placing);
    expect(placed.kind).toBe('placed');
    void a.engine.cancel(placed.key!, { reason: 'test' });
  }
  await until(env, () => a.dead, 120_000, 50);
  expect(a.engine.orders.all()).toHaveLength(1);
  return a.engine.orders.all()[0]!;
}

describe('kill and restart at every step: no double order, the true state recovered', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      if (c.latency !== undefined) {
        await env.dispose();
        env = simEnv({ latency: c.latency });
      }
      c.setup?.(env);
      const path = env.storePath();
      const before = await runUntilKilled(c, path);
      const coid = before.clientOrderId!;
      expectNoDuplicateLive(env);

      const b = startDaemon(env, path);
      alive.push(b);
      const report = await settle(env, b.engine.start());
      expect(report.restored).toBe(1);
      // What the kill left in the journal: relaxed progress (PrepareStarted, Prepared, Signed,
      // SubmitAccepted, ConfirmedResting) not yet group-committed is lost with the process.
      expect([before.state, report.orders[0]?.from]).toEqual([c.killedIn, c.journaled]);
      if (c.name.includes('after the restart')) expect(report.pending).toEqual([before.key]);
      const awaiting = (): boolean => {
        const o = b.engine.orders.get(before.key)!;
        // A placement awaiting its confirmation, or a cancel that can still complete (not STRANDED).
        return isAwaitingConfirmation(o.state) || (isCancelling(o.state) && isLiveOnBook(o.state));
      };
      await until(env, () => !awaiting(), 400_000, 500);
      expectNoDuplicateLive(env);

      const truth = truthByCoid(env, coid);
      if (c.venue === 'absent') expect(truth).toBeUndefined();
      else if (c.venue === 'unsubmitted') expect(truth?.submitted).toBe(false);
      else expect(truth?.status).toBe(c.venue);
      const local = b.engine.orders.get(before.key)!;
      expect(local.state).toBe(expectedLocal(truth));
      expect(b.journal.get(before.key)?.state).toBe(local.state);
      if (truth?.filled !== undefined) expect(local.filled.eq(dec(truth.filled))).toBe(true);

      // The same slot again: refused while the recovered order rests, placed once it is gone.
      const again = await settle(env, b.engine.place(INTENT));
      if (c.venue === 'OPEN') {
        expect(again).toMatchObject({ kind: 'slot-busy', occupantKey: before.key });
        expect(liveOnVenue(env)).toHaveLength(1);
      } else {
        expect(again.kind).toBe('placed');
        expect(liveOnVenue(env).map((o) => o.clientOrderId)).toEqual([again.clientOrderId]);
      }
      // Never a second prepare of the first clientOrderId after the restart.
      const reprepared = env.venue.truth.prepares().filter((p) => p.clientOrderId === coid);
      expect(reprepared.length).toBeLessThanOrEqual(1);
      expectNoDuplicateLive(env);
    });
  }
});

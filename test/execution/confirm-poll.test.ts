/**
 * `execution.confirmPollMs`: after the submission answers, the pipeline reads the order at that
 * fixed period until it rests. The venue commits 11-13 s after the submission's 200 (realistic
 * profile); the engine's own backoff (2, 3, 4.5, 6.75 s apart) sees it at 16.25 s, 3-5 s late, and
 * the next placement waits for that read.
 *
 * `execution.placementConfirmWindowMs` and `execution.cancelConfirmWindowMs`: how long a
 * submitted placement or cancel is read for its effect before the placement goes to the resolver
 * as unknown, or the cancel is retried. The venue (a `no-commit` fault: the submission answers 200
 * and the ledger never commits) shows the window from the calls it received.
 */

import { afterEach, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { PlacementIntent } from '../../src/execution/placement/placement-intent.js';
import { settle, startDaemon } from './support/daemon.js';
import { simEnv, type SimEnv } from './support/sim-env.js';
const buy: PlacementIntent = {
  slot: 'BTC/USDC:BUY:0',
  pair: 'BTC/USDC',
  side: 'BUY',
  price: dec('60000'),
  quantity: dec('0.01'),
};

let env: SimEnv | null = null;
afterEach(async () => {
  await env?.dispose();
  env = null;
});

/** Gaps between the confirmation reads of one placement, and how long after the submit it rested. */
async function confirmation(execution?: { confirmPollMs: number }) {
  env = simEnv({ latency: 'realistic' });
  const d = startDaemon(env, env.storePath(), execution === undefined ? {} : { execution });
  await settle(env, d.engine.start());
  const outcome = await settle(env, d.engine.place(buy));
  expect(outcome.kind).toBe('placed');
  const calls = env.venue.truth.calls();
  const submit = calls.find((c) => c.endpoint === 'submit')!;
  const reads = calls.filter((c) => c.endpoint === 'order' && c.startedAt >= submit.endedAt!);
  const gaps = reads.slice(1).map((r, i) => r.startedAt - reads[i]!.startedAt);
  const last = reads[reads.length - 1]!;
  await settle(env, d.engine.close());
  return { gaps, restingAfterSubmitMs: last.endedAt! - submit.endedAt! };
}

it.each([{ poll: 2_000 }, { poll: 1_000 }])(
  'confirmPollMs $poll: a read every $poll ms after the submit; the order is seen resting within one period of its commit',
  async ({ poll }) => {
    const { gaps, restingAfterSubmitMs } = await confirmation({ confirmPollMs: poll });
    expect(gaps.length).toBeGreaterThan(2);
    // Each read starts one period after the one before it started, plus that read's own latency.
    for (const g of gaps) {
      expect(g).toBeGreaterThanOrEqual(poll);
      expect(g).toBeLessThanOrEqual(poll + 300);
    }
    // The commit lands 11-13 s after the 200: seen by 13 s + one period + a read.
    expect(restingAfterSubmitMs).toBeLessThanOrEqual(13_000 + poll + 300);
  },
);

it('without it (an engine built alone) the reads back off, and the commit is seen later', async () => {
  const { gaps, restingAfterSubmitMs } = await confirmation();
  expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
  expect(restingAfterSubmitMs).toBeGreaterThanOrEqual(16_000);
});

const POLL = 2_000;

/** A started engine at the realistic profile, reading a submitted placement every {@link POLL} ms. */
async function realisticEngine(windows: {
  placementConfirmWindowMs?: number;
  cancelConfirmWindowMs?: number;
}): Promise<{ env: SimEnv; d: ReturnType<typeof startDaemon> }> {
  const e = simEnv({ latency: 'realistic' });
  env = e;
  const d = startDaemon(e, e.storePath(), { execution: { confirmPollMs: POLL, ...windows } });
  await settle(e, d.engine.start());
  return { env: e, d };
}

it.each([
  { key: 20_000, window: 20_000 },
  { key: undefined, window: 60_000 },
])(
  'placementConfirmWindowMs $key: a placement never committed is read for $window ms after its submission, then left to the resolver',
  async ({ key, window }) => {
    const { env, d } = await realisticEngine(key === undefined ? {} : { placementConfirmWindowMs: key });
    env.venue.addFault({ kind: 'no-commit', at: 1 });
    const outcome = await settle(env, d.engine.place(buy));
    expect(outcome).toMatchObject({ kind: 'unresolved', state: 'SUBMITTED' });
    const calls = env.venue.truth.calls();
    const submit = calls.find((c) => c.endpoint === 'submit')!;
    const reads = calls.filter(
      (c) => c.endpoint === 'order' && c.startedAt >= submit.endedAt! && c.startedAt <= env.clock.now(),
    );
    const lastRead = reads[reads.length - 1]!.startedAt - submit.endedAt!;
    expect(lastRead).toBeGreaterThanOrEqual(window - POLL);
    expect(lastRead).toBeLessThanOrEqual(window + POLL);
    await settle(env, d.engine.close());
  },
);

it.each([
  { key: 20_000, window: 20_000 },
  { key: undefined, window: 90_000 },
])(
  'cancelConfirmWindowMs $key: a cancel that never takes effect is retried $window ms after its submission',
  async ({ key, window }) => {
    const { env, d } = await realisticEngine(key === undefined ? {} : { cancelConfirmWindowMs: key });
    const placed = await settle(env, d.engine.place(buy));
    expect(placed.kind).toBe('placed');
    env.venue.addFault({ kind: 'no-commit', probability: 1 });
    const cancelling = d.engine.cancel(placed.key!, { reason: 'test' });
    const cancelPrepares = (): number =>
      env.venue.truth.calls().filter((c) => c.endpoint === 'cancelPrepare').length;
    await settle(
      env,
      (async () => {
        while (cancelPrepares() < 2) await new Promise((r) => setTimeout(r, 0));
      })(),
    );
    const calls = env.venue.truth.calls();
    const firstSubmit = calls.find((c) => c.endpoint === 'submit' && c.commandKind === 'cancel')!;
    const secondPrepare = calls.filter((c) => c.endpoint === 'cancelPrepare')[1]!;
    const gap = secondPrepare.startedAt - firstSubmit.endedAt!;
    // The window, then the retry's backoff (2 s at first).
    expect(gap).toBeGreaterThanOrEqual(window);
    expect(gap).toBeLessThanOrEqual(window + 10_000);
    expect(env.venue.truth.order(placed.orderId!)!.status).toBe('OPEN');
    await settle(env, d.engine.close());
    await cancelling;
  },
);

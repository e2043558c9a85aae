import { afterEach, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { PlacementIntent } from '../../src/execution/placement-intent.js';
import { settle, startDaemon } from './fixtures/daemon.js';
import { simEnv, type SimEnv } from './fixtures/sim-env.js';

/**
 * `execution.placementConfirmWindowMs` and `execution.cancelConfirmWindowMs`: how long a
 * submitted placement or cancel is read for its effect before the placement goes to the resolver
 * as unknown, or the cancel is retried. The venue (a `no-commit` fault: the submission answers 200
 * and the ledger never commits) shows the window from the calls it received.
 */
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

const POLL = 2_000;

it.each([
  { key: 20_000, window: 20_000 },
  { key: undefined, window: 60_000 },
])(
  'placementConfirmWindowMs $key: a placement never committed is read for $window ms after its submission, then left to the resolver',
  async ({ key, window }) => {
    env = simEnv({ latency: 'realistic' });
    const execution = {
      confirmPollMs: POLL,
      ...(key === undefined ? {} : { placementConfirmWindowMs: key }),
    };
    const d = startDaemon(env, env.storePath(), { execution });
    await settle(env, d.engine.start());
    env.venue.addFault({ kind: 'no-commit', at: 1 });
    const outcome = await settle(env, d.engine.place(buy));
    expect(outcome).toMatchObject({ kind: 'unresolved', state: 'SUBMITTED' });
    const calls = env.venue.truth.calls();
    const submit = calls.find((c) => c.endpoint === 'submit')!;
    const reads = calls.filter(
      (c) => c.endpoint === 'order' && c.startedAt >= submit.endedAt! && c.startedAt <= env!.clock.now(),
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
    env = simEnv({ latency: 'realistic' });
    const execution = { confirmPollMs: POLL, ...(key === undefined ? {} : { cancelConfirmWindowMs: key }) };
    const d = startDaemon(env, env.storePath(), { execution });
    await settle(env, d.engine.start());
    const placed = await settle(env, d.engine.place(buy));
    expect(placed.kind).toBe('placed');
    env.venue.addFault({ kind: 'no-commit', probability: 1 });
    const cancelling = d.engine.cancel(placed.key!, { reason: 'test' });
    const cancelPrepares = (): number =>
      env!.venue.truth.calls().filter((c) => c.endpoint === 'cancelPrepare').length;
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

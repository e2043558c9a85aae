/**
 * A revoked API key while a placement awaits its confirmation: the confirmation reads of
 * `GET /orders/{id}` (every `confirmPollMs`, 2 s, while the key works) follow the pollers' backoff
 * once the venue refuses the key (each wait doubled per consecutive refusal, capped at 60 s),
 * instead of going on every 2 s. Fake clock, simulated venue (realistic latencies), and the
 * calls the venue received.
 */
import { afterEach, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { CREDENTIAL_BACKOFF_MAX_MS, CredentialBackoff } from '../../src/execution/credential-backoff.js';
import type { PlacementIntent } from '../../src/execution/placement/placement-intent.js';
import { VenueError } from '../../src/venue/errors.js';
import { settle, startDaemon } from './support/daemon.js';
import { simEnv, type SimEnv } from './support/sim-env.js';

const buy: PlacementIntent = {
  slot: 'BTC/USDC:BUY:0',
  pair: 'BTC/USDC',
  side: 'BUY',
  price: dec('60000'),
  quantity: dec('0.01'),
};

const POLL = 2_000;

let env: SimEnv | null = null;
afterEach(async () => {
  await env?.dispose();
  env = null;
});

it('a revoked key: the confirmation reads of a submitted placement back off like the pollers, up to 60 s apart', async () => {
  const e = simEnv({ latency: 'realistic' });
  env = e;
  const d = startDaemon(e, e.storePath(), { execution: { confirmPollMs: POLL } });
  await settle(e, d.engine.start());
  // The ledger never commits it: the placement awaits its confirmation for as long as we look.
  e.venue.addFault({ kind: 'no-commit', at: 1 });
  const placing = d.engine.place(buy);
  const submitted = () => e.venue.truth.calls().find((c) => c.endpoint === 'submit' && c.endedAt !== null);
  for (let i = 0; i < 600 && submitted() === undefined; i++) await e.tick(100);
  expect(submitted()?.status).toBe(200);
  // Two confirmation reads at the usual period first, then the key is revoked.
  await e.tick(2 * POLL + 500);
  const revokedAt = e.clock.now();
  e.venue.operator.revokeKey(e.apiKey.slice('mm_ak_'.length, e.apiKey.indexOf('.')));
  await e.tick(240_000);

  const reads = e.venue.truth.calls().filter((c) => c.endpoint === 'order' && c.startedAt > revokedAt);
  expect(reads.every((r) => r.status === 401)).toBe(true);
  // Every 2 s that would be 120 reads in these 4 minutes; backed off, 4 s, 8 s, … then 60 s.
  expect(reads.length).toBeGreaterThanOrEqual(4);
  expect(reads.length).toBeLessThanOrEqual(10);
  const gaps = reads.slice(1).map((r, i) => r.startedAt - reads[i]!.startedAt);
  expect(gaps[0]!).toBeGreaterThanOrEqual(2 * POLL);
  // Never shorter than the wait before, until the cap (the resolver takes over after the
  // placement's 60 s window and keeps the same backoff).
  for (let i = 1; i < gaps.length; i++) {
    expect(gaps[i]!).toBeGreaterThanOrEqual(Math.min(gaps[i - 1]!, CREDENTIAL_BACKOFF_MAX_MS) - 1_000);
  }
  // The cap: the last waits are the pollers' 60 s (plus the read's own latency).
  expect(gaps[gaps.length - 1]!).toBeGreaterThanOrEqual(CREDENTIAL_BACKOFF_MAX_MS);
  expect(gaps[gaps.length - 1]!).toBeLessThanOrEqual(CREDENTIAL_BACKOFF_MAX_MS + 2_000);
  // The orders poller, refused too, backs off to the same cap.
  const lists = e.venue.truth
    .calls()
    .filter((c) => c.endpoint === 'orders' && c.startedAt > revokedAt + 120_000);
  expect(lists.length).toBeLessThanOrEqual(3);

  // The key is reinstated: the next read, at most one capped wait later, is accepted.
  const reinstatedAt = e.clock.now();
  e.venue.operator.reinstateKey(e.apiKey.slice('mm_ak_'.length, e.apiKey.indexOf('.')));
  await e.tick(CREDENTIAL_BACKOFF_MAX_MS + 10_000);
  const after = e.venue.truth.calls().filter((c) => c.endpoint === 'order' && c.startedAt > reinstatedAt);
  expect(after.map((r) => r.status)).toContain(200);
  await settle(e, d.engine.close());
  await placing;
});

const refused = new VenueError({ code: 'API_KEY_REVOKED', status: 401, message: 'revoked' });
const unavailable = new VenueError({ code: 'CLIENT_NETWORK', message: 'down' });

it.each([
  { events: [], period: 2_000, wait: 2_000 },
  { events: ['refused'], period: 2_000, wait: 4_000 },
  { events: ['refused', 'refused', 'refused'], period: 2_000, wait: 16_000 },
  { events: ['refused', 'refused', 'refused', 'refused', 'refused', 'refused'], period: 2_000, wait: 60_000 },
  { events: ['refused', 'refused', 'accepted'], period: 2_000, wait: 2_000 },
  { events: ['refused', 'unavailable'], period: 2_000, wait: 2_000 },
  { events: ['refused'], period: 90_000, wait: 90_000 },
])('after $events, a $period ms wait becomes $wait ms', ({ events, period, wait }) => {
  const c = new CredentialBackoff();
  for (const ev of events) {
    if (ev === 'accepted') c.accepted();
    else c.failed(ev === 'refused' ? refused : unavailable);
  }
  expect(c.delayMs(period)).toBe(wait);
});

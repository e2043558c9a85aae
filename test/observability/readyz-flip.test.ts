/**
 * /readyz against the daemon, end to end: the daemon runs in-process against the simulated venue
 * on fake time (test/daemon/support), with its observability attachment serving real HTTP on a
 * loopback port 0. The simulated venue's operator revokes the daemon's API key, then undoes the
 * revocation; /readyz (and ledger_mm_ready, the same verdict) must follow by itself, saying why.
 *
 * Fake time only moves when the test advances it, and every wait is bounded twice: in fake time
 * (the `within` of each step) and in real time (the test timeout).
 */
import { afterEach, describe, expect, it } from 'vitest';

import {
  observabilityAttachment,
  type AttachedObservability,
} from '../../src/daemon/reporting/observability-wiring.js';
import { createLogger } from '../../src/logging/logger.js';
import { daemonEnv, type DaemonEnv } from '../daemon/support/daemon-env.js';
import { startSimHarness, type SimHarness } from '../support/sim-harness.js';
import { parseExposition, valueOf } from './support/exposition.js';

/** The JSON body of /readyz. */
interface ReadyzBody {
  readonly status: string;
  readonly reasons: readonly string[];
}

interface Readyz {
  readonly status: number;
  readonly body: ReadyzBody;
}

/** Fake time advanced between two probes. */
const STEP_MS = 1_000;

let env: DaemonEnv | undefined;
let attached: AttachedObservability | undefined;
let harness: SimHarness | undefined;
afterEach(async () => {
  await attached?.close();
  attached = undefined;
  await env?.dispose();
  env = undefined;
  await harness?.close();
  harness = undefined;
});

async function get(path: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`http://127.0.0.1:${attached!.address.port}${path}`, {
    signal: AbortSignal.timeout(5_000),
  });
  return { status: r.status, text: await r.text() };
}

async function readyz(): Promise<Readyz> {
  const r = await get('/readyz');
  return { status: r.status, body: JSON.parse(r.text) as ReadyzBody };
}

/** ledger_mm_ready and the one-hot account status, as scraped now. */
async function gauges(): Promise<{ ready: number | undefined; account: Record<string, number | undefined> }> {
  const f = parseExposition((await get('/metrics')).text);
  const account: Record<string, number | undefined> = {};
  for (const status of ['ACTIVE', 'SUSPENDED', 'DISABLED', 'unknown']) {
    account[status] = valueOf(f, 'ledger_mm_account_status', { status });
  }
  return { ready: valueOf(f, 'ledger_mm_ready'), account };
}

/**
 * Probes /readyz over HTTP, advancing fake time by {@link STEP_MS} between probes, until it answers
 * `want`; returns that answer and the fake time it took. Throws with the last answer after
 * `withinMs` of fake time.
 */
async function untilReadyz(
  e: DaemonEnv,
  want: number,
  withinMs: number,
): Promise<Readyz & { tookMs: number }> {
  const from = e.fake.now;
  for (;;) {
    const r = await readyz();
    if (r.status === want) return { ...r, tookMs: e.fake.now - from };
    if (e.fake.now - from >= withinMs) {
      throw new Error(
        `/readyz did not answer ${want} within ${withinMs} ms of fake time; last: ${r.status} ${JSON.stringify(r.body)}`,
      );
    }
    await e.run(STEP_MS);
  }
}

const logger = createLogger({ level: 'silent', destination: { write: () => undefined } });

describe('/readyz follows the venue: a revoked API key, then the revocation undone', () => {
  it('200 when quoting; 503 naming the refused key once revoked; 200 again by itself once reinstated', async () => {
    const startedAt = performance.now();
    env = daemonEnv({ latency: 'fast', takerRate: 0.1 });
    const e = env;
    const attachment = observabilityAttachment({
      config: { pairs: e.config.pairs, metrics: { host: '127.0.0.1', port: 0 } },
      clock: e.clock,
    });
    attached = await attachment.attach(e.daemon, logger);
    expect(attached.address.host).toBe('127.0.0.1');
    expect(attached.address.port).toBeGreaterThan(0);

    // Not started yet: not ready, and the metric agrees.
    const before = await readyz();
    expect(before.status).toBe(503);
    expect(before.body).toEqual({ status: 'not ready', reasons: ['not started'] });
    expect((await gauges()).ready).toBe(0);

    // 1. Started: ready once it quotes.
    void e.daemon.start();
    const up = await untilReadyz(e, 200, 120_000);
    expect(up.body).toEqual({ status: 'ready', reasons: [] });
    expect(await gauges()).toEqual({
      ready: 1,
      account: { ACTIVE: 1, SUSPENDED: 0, DISABLED: 0, unknown: 0 },
    });
    await e.until(() => e.bothTwoSided(), 120_000);
    expect((await readyz()).status).toBe(200);

    // 2. The operator revokes the key: 503, and the body says the key is refused.
    const prefix = e.apiKey.slice('mm_ak_'.length, e.apiKey.indexOf('.'));
    e.venue.operator.revokeKey(prefix);
    const down = await untilReadyz(e, 503, 120_000);
    expect(down.body.status).toBe('not ready');
    expect(down.body.reasons.join('\n')).toMatch(/API key is failing \(401 on the last authenticated call\)/);
    // The refusal was API_KEY_REVOKED on the venue's side.
    const refused = e.venue.truth.calls().filter((c) => c.status === 401);
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((c) => c.code))).toEqual(new Set(['API_KEY_REVOKED']));
    // ledger_mm_ready says the same; the account itself is still ACTIVE (its last read).
    expect(await gauges()).toEqual({
      ready: 0,
      account: { ACTIVE: 1, SUSPENDED: 0, DISABLED: 0, unknown: 0 },
    });
    // It stays down while the key is refused (the daemon keeps re-reading the account).
    await e.run(60_000);
    const still = await readyz();
    expect(still.status).toBe(503);
    expect(still.body.reasons.join('\n')).toMatch(/API key is failing/);

    // 3. The operator undoes the revocation: ready again, with nothing done on the daemon.
    e.venue.operator.reinstateKey(prefix);
    expect(e.venue.truth.events().some((x) => x.type === 'operator.key-reinstated')).toBe(true);
    const back = await untilReadyz(e, 200, 120_000);
    expect(back.body).toEqual({ status: 'ready', reasons: [] });
    expect((await gauges()).ready).toBe(1);
    // /status carries the same verdict.
    const status = JSON.parse((await get('/status')).text) as { phase: string; ready: ReadyzBody };
    expect(status.phase).toBe('running');
    expect(status.ready).toEqual({ ready: true, reasons: [] });

    console.log(
      `readyz flip: ready after ${up.tookMs / 1000} s, 503 ${down.tookMs / 1000} s after the revocation, ` +
        `200 ${back.tookMs / 1000} s after the reinstatement (fake time); ` +
        `${Math.round(performance.now() - startedAt)} ms real time`,
    );
  }, 60_000);
});

describe('the operator reinstates a revoked key over /admin', () => {
  it('POST /admin/keys/{prefix}/reinstate undoes POST /admin/keys/{prefix}/revoke, and only that', async () => {
    harness = await startSimHarness();
    const h = harness;
    const created = await h.admin('POST', `/accounts/${h.slug}/keys`, {});
    const { apiKey } = (JSON.parse(created.text) as { data: { apiKey: string } }).data;
    const prefix = apiKey.slice('mm_ak_'.length, apiKey.indexOf('.'));
    const code = async (): Promise<string | number> => {
      const r = await h.api('GET', '/account', { apiKey });
      return r.status === 200 ? 200 : (JSON.parse(r.text) as { error: { code: string } }).error.code;
    };
    expect(await code()).toBe(200);
    expect((await h.admin('POST', `/keys/${prefix}/revoke`)).status).toBe(200);
    expect(await code()).toBe('API_KEY_REVOKED');
    expect((await h.admin('POST', `/keys/${prefix}/reinstate`)).status).toBe(200);
    expect(await code()).toBe(200);
    // Reinstating a key that is not revoked changes nothing; an expiry is not undone by it.
    expect((await h.admin('POST', `/keys/${prefix}/reinstate`)).status).toBe(200);
    await h.admin('POST', `/keys/${prefix}/expiry`, {
      expiresAt: new Date(Date.now() - 1_000).toISOString(),
    });
    expect((await h.admin('POST', `/keys/${prefix}/reinstate`)).status).toBe(200);
    expect(await code()).toBe('API_KEY_EXPIRED');
    // An unknown prefix is a 404.
    expect((await h.admin('POST', '/keys/nosuchkey/reinstate')).status).toBe(404);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadConfig, type LoadConfigOptions } from '../../src/config/load.js';
import { createLogger } from '../../src/logging/logger.js';
import { baseConfig, daemonEnv, disposeDaemonEnvs } from './support/daemon-env.js';

/**
 * A revoked API key, then a reissued one rotated through the key file and SIGHUP: one ERROR
 * (the api-key-refused alarm), the pollers back off, readiness says why, no stack traces; the
 * daemon quotes again with the new key without a restart and without losing an order.
 */

afterEach(disposeDaemonEnvs);

const prefixOf = (apiKey: string): string => apiKey.slice('mm_ak_'.length, apiKey.indexOf('.'));

it('revoked, then reissued and rotated through the key file with SIGHUP: quoting goes on', async () => {
  const e = daemonEnv({ latency: 'fast', takerRate: 0.1 });
  // The key comes from a file this time (no LEDGER_MM_API_KEY), so it can be rotated.
  const keyFile = path.join(e.dir, 'api-key');
  fs.writeFileSync(keyFile, `${e.apiKey}\n`, { mode: 0o600 });
  const configFile = path.join(e.dir, 'daemon-keyfile.json');
  const base = baseConfig(path.join(e.dir, 'store-2.sqlite'));
  fs.writeFileSync(configFile, JSON.stringify({ ...base, venue: { apiKeyFile: keyFile } }));
  const load: LoadConfigOptions = { configFiles: [configFile], env: {}, cwd: e.dir };
  const logs: Record<string, unknown>[] = [];
  const d = e.anotherDaemon({
    config: loadConfig(load),
    load,
    logger: createLogger({
      level: 'debug',
      destination: { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) },
    }),
  });
  await e.startQuoting(d);

  const revokedAt = e.fake.now;
  const linesBefore = logs.length;
  e.venue.operator.revokeKey(prefixOf(e.apiKey));
  await e.run(180_000);

  const errors = logs.filter((l) => (l['level'] as number) >= 50);
  expect(errors.map((l) => l['reason'])).toEqual(['api-key-refused']);
  expect(String(errors[0]!['msg'])).toContain('API_KEY_REVOKED');
  expect(d.readiness().reasons.join('\n')).toMatch(/API key is failing/);
  // No stack traces, and no line per poll: a handful of lines in three minutes.
  expect(logs.filter((l) => JSON.stringify(l).includes('    at '))).toEqual([]);
  const after = logs.slice(linesBefore).filter((l) => (l['level'] as number) >= 40);
  expect(after.length).toBeLessThan(6);
  // The pollers backed off: the orders poller (every 5 s when healthy) read far less often.
  const orderListReads = e.venue.truth
    .calls()
    .filter((c) => c.endpoint === 'orders' && c.startedAt > revokedAt + 30_000);
  expect(orderListReads.length).toBeLessThan(150 / 5 / 2);

  // The operator reissues a key; it is written to the file, and SIGHUP rotates it.
  const reissued = e.venue.operator.issueKey(e.slug);
  fs.writeFileSync(keyFile, `${reissued}\n`, { mode: 0o600 });
  const rotatedAt = e.fake.now;
  d.reload();
  expect(
    logs.some((l) => String(l['msg']).includes(`API key rotated from mm_ak_${prefixOf(e.apiKey)}`)),
  ).toBe(true);
  await e.until(() => d.readiness().ready, 60_000);
  expect(logs.some((l) => String(l['msg']).includes('works again: quoting resumes'))).toBe(true);
  const placed = (): number =>
    e.venue.truth.commits().filter((c) => c.kind === 'place' && c.ok && c.at > rotatedAt).length;
  await e.until(() => placed() > 0, 120_000);
  await e.until(() => e.bothTwoSided(), 180_000);
  // No order lost track of: every order of the party resting on the venue is one the registry holds.
  const resting = e.resting();
  expect(resting.length).toBeGreaterThanOrEqual(4);
  expect(resting.filter((o) => d.engine!.orders.byClientOrderId(o.clientOrderId!) === undefined)).toEqual([]);
  expect(logs.filter((l) => JSON.stringify(l).includes('    at '))).toEqual([]);
  expect(logs.filter((l) => (l['level'] as number) >= 50)).toHaveLength(1);
});

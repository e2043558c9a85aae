import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { envBindings } from '../../src/config/schema.js';
import { configRefusal } from '../../src/cli/watchdog.js';

const root = path.resolve(import.meta.dirname, '../..');

it('deploy/kubernetes/watchdog.yaml: its config layer loads, and the watchdog accepts it', () => {
  const text = fs.readFileSync(path.join(root, 'deploy/kubernetes/watchdog.yaml'), 'utf8');
  const block = /watchdog\.json: \|\n((?: {4}.*\n)+)/.exec(text);
  expect(block).not.toBeNull();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-wd-deploy-'));
  try {
    const file = path.join(dir, 'watchdog.json');
    fs.writeFileSync(file, block![1]!.replace(/^ {4}/gm, ''));
    const config = loadConfig({ configFiles: [file], env: { LEDGER_MM_API_KEY: 'mm_ak_abc.def' }, cwd: dir });
    expect(config.watchdog.healthUrl).toBe('http://ledger-mm:9464/healthz');
    expect(config.watchdog.metrics).toEqual({ host: '0.0.0.0', port: 9466 });
    expect(configRefusal(config)).toBeNull();
    // The Deployment's names: one replica, probes on its own /healthz, keys from the Secret.
    expect(text).toMatch(/kind: Deployment[\s\S]*replicas: 1\n/);
    expect(text).toMatch(/runAsNonRoot: true/);
    expect(text).toMatch(/readOnlyRootFilesystem: true/);
    expect(text).toMatch(/livenessProbe:\n\s+httpGet:\n\s+path: \/healthz/);
    expect(text).toMatch(/secretName: ledger-mm-keys/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('the environment variables of the compose service are all bound to keys', () => {
  const compose = fs.readFileSync(path.join(root, 'deploy/docker-compose.yml'), 'utf8');
  const service = compose.slice(compose.indexOf('  ledger-mm-watchdog:'), compose.indexOf('  prometheus:'));
  const bound = new Set(envBindings().map((b) => b.env));
  const used = [...service.matchAll(/^\s+(LEDGER_MM_[A-Z_]+):/gm)].map((m) => m[1]!);
  expect(used.length).toBeGreaterThan(5);
  for (const name of used) expect(bound, name).toContain(name);
});

it('refuses its store being the daemon store, a file source without a file, a probe timeout past the deadline', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-wd-refuse-'));
  try {
    const load = (content: unknown) => {
      const file = path.join(dir, 'c.json');
      fs.writeFileSync(file, JSON.stringify(content));
      return loadConfig({ configFiles: [file], env: {}, cwd: dir });
    };
    expect(configRefusal(load({ watchdog: { storePath: './var/ledger-mm.sqlite' } }))).toMatch(
      /daemon's store/,
    );
    expect(configRefusal(load({ watchdog: { source: 'file' } }))).toMatch(/heartbeatFile is not set/);
    expect(configRefusal(load({ watchdog: { deadAfterMs: 5000, probeTimeoutMs: 5000 } }))).toMatch(
      /probeTimeoutMs/,
    );
    expect(configRefusal(load({}))).toBeNull();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

import FakeTimers from '@sinonjs/fake-timers';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../../src/core/clock.js';
import type { ConfigError } from '../../src/config/errors.js';
import { loadConfig, type LoadConfigOptions } from '../../src/config/load.js';
import { ConfigReloader, reloadConfig, type FileWatcher } from '../../src/config/reload.js';

let dir: string;
let file: string;
let opts: LoadConfigOptions;

const write = (v: unknown): void => writeFileSync(file, JSON.stringify(v));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-mm-reload-'));
  file = join(dir, 'live.json');
  write({ risk: { maxOpenOrders: 10 } });
  opts = { configFiles: [file], env: {}, cwd: dir };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('reloadConfig', () => {
  it('applies a changed risk param and names the changed key', () => {
    const current = loadConfig(opts);
    write({ risk: { maxOpenOrders: 12 } });
    const out = reloadConfig(current, opts);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.config.risk.maxOpenOrders).toBe(12);
    expect(out.changed).toEqual(['risk.maxOpenOrders']);
    expect(current.risk.maxOpenOrders).toBe(10);
  });

  it('rejects an invalid file, naming the key, and keeps nothing of it', () => {
    const current = loadConfig(opts);
    write({ risk: { maxOpenOrders: 'many' } });
    const out = reloadConfig(current, opts);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.issues.map((i) => i.key)).toContain('risk.maxOpenOrders');
  });

  it('never reloads venue URLs or credentials: they are reported as ignored', () => {
    const current = loadConfig(opts);
    write({ risk: { maxOpenOrders: 10 }, venue: { baseUrl: 'http://127.0.0.1:9999/v1' } });
    const out = reloadConfig(current, opts);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.config.venue.baseUrl).toBe(current.venue.baseUrl);
    expect(out.ignored).toEqual(['venue']);
    expect(out.changed).toEqual([]);
  });
});

describe('ConfigReloader', () => {
  it('reloads once per burst of file events, after the debounce', async () => {
    const fake = FakeTimers.createClock(0);
    const triggers = new Map<string, () => void>();
    const watcher: FileWatcher = (path, onChange) => {
      triggers.set(path, onChange);
      return { close: () => triggers.delete(path) };
    };
    const applied: number[] = [];
    const rejected: ConfigError[] = [];
    const reloader = new ConfigReloader({
      load: opts,
      initial: loadConfig(opts),
      clock: fakeClock(fake),
      watcher,
      onApply: (o) => applied.push(o.config.risk.maxOpenOrders),
      onReject: (e) => rejected.push(e),
    });
    reloader.start();
    expect(triggers.has(file)).toBe(true);

    write({ risk: { maxOpenOrders: 15 } });
    for (let i = 0; i < 5; i++) triggers.get(file)!();
    await fake.tickAsync(299);
    expect(applied).toEqual([]);
    await fake.tickAsync(1);
    expect(applied).toEqual([15]);
    expect(reloader.config.risk.maxOpenOrders).toBe(15);

    write({ risk: { maxOpenOrders: -1 } });
    expect(reloader.reload().ok).toBe(false);
    expect(rejected).toHaveLength(1);
    expect(reloader.config.risk.maxOpenOrders).toBe(15);

    reloader.close();
    expect(triggers.size).toBe(0);
  });
});

import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import { installSignalHandlers } from '../../src/daemon/signals.js';
import { createLogger } from '../../src/logging/logger.js';
import type { OrderTruth } from '../../src/sim/truth/ground-truth.js';
import {
  FakeProcess,
  baseConfig,
  daemonEnv,
  type DaemonEnv,
  disposeDaemonEnvs,
} from './support/daemon-env.js';

afterEach(disposeDaemonEnvs);

/** The daemon config with both spreads at `bps` and no inventory skew. */
function withSpread(storePath: string, bps: unknown): Record<string, unknown> {
  const base = baseConfig(storePath);
  return {
    ...base,
    strategy: {
      defaults: {
        spread: { bidBps: bps, askBps: bps, minBps: 2, maxBps: 200 },
        levels: { count: 1, sizeUnit: 'quote', size: '1500' },
        inventory: { maxSkewBps: 0 },
      },
    },
  };
}

/** The venue's reference price of `pair` at `at`. */
function referenceAt(e: DaemonEnv, pair: string, at: number): Dec {
  const series = e.venue.truth.referencePrices(pair);
  let price = series[0]!.price;
  for (const p of series) if (p.at <= at) price = p.price;
  return new Dec(price);
}

/** Distance of an order's price from the venue's reference when it was created, bps. */
function distanceBps(e: DaemonEnv, o: OrderTruth): number {
  const ref = referenceAt(e, o.pair, o.history[0]!.at);
  return new Dec(o.price!).minus(ref).abs().div(ref).times(10_000).toNumber();
}

describe('hot reload', () => {
  it('SIGHUP with a new spread: the next cycle quotes it, and the next placements use it', async () => {
    const e = daemonEnv({ latency: 'fast', takers: false, config: (s) => withSpread(s, 10) });
    const proc = new FakeProcess();
    installSignalHandlers(proc, e.daemon, createLogger({ level: 'silent' }), () => undefined);
    await e.startQuoting();
    const before = e.ours().filter((o) => o.committed);
    // Two pairs, one level a side, two-sided: at least four orders committed.
    expect(before.length).toBeGreaterThanOrEqual(4);
    for (const o of before) expect(distanceBps(e, o)).toBeLessThan(20);

    e.writeConfig(withSpread(path.join(e.dir, 'store.sqlite'), 60));
    const reloadedAt = e.fake.now;
    proc.emit('SIGHUP');
    expect(e.daemon.params.version).toBe(2);
    expect(e.daemon.params.strategy.pairs['BTC/USDC']!.spread.bidBps).toBe(60);
    // The very next cycle wants quotes 60 bps out.
    await e.run(e.config.market.book.intervalMs + 100, 100);
    const quotes = e.daemon.lastCycle!.strategy.quotes;
    expect(quotes).toHaveLength(4);
    for (const q of quotes) {
      const off = q.price.minus(q.reference).abs().div(q.reference).times(10_000).toNumber();
      expect(off).toBeGreaterThan(55);
    }
    // And the venue sees placements at the new spread, replacing the old quotes.
    await e.until(
      () => e.resting().length >= 4 && e.resting().every((o) => o.history[0]!.at > reloadedAt),
      120_000,
    );
    const after = e.ours().filter((o) => o.history[0]!.at > reloadedAt && o.committed);
    expect(after.length).toBeGreaterThanOrEqual(4);
    for (const o of after) expect(distanceBps(e, o)).toBeGreaterThan(50);
    expect(
      e.events.some(
        (x) => x.type === 'config-reload' && x.ok && x.changed.includes('strategy.defaults.spread.bidBps'),
      ),
    ).toBe(true);
  });

  it('a changed config file is picked up without a signal', async () => {
    const changed = new Map<string, () => void>();
    const watcher = (file: string, onChange: () => void): { close(): void } => {
      changed.set(file, onChange);
      return { close: () => changed.delete(file) };
    };
    const e = daemonEnv({ latency: 'fast', takers: false, config: (s) => withSpread(s, 10), watcher });
    await e.startQuoting();
    expect([...changed.keys()]).toContain(e.configFile);
    e.writeConfig(withSpread(path.join(e.dir, 'store.sqlite'), 25));
    changed.get(e.configFile)!();
    changed.get(e.configFile)!(); // an editor's save fires more than once: one reload
    await e.run(1_000, 100);
    expect(e.daemon.params.version).toBe(2);
    expect(e.daemon.params.strategy.pairs['BTC/USDC']!.spread.askBps).toBe(25);
    expect(e.events.filter((x) => x.type === 'config-reload')).toHaveLength(1);
  });

  it('an invalid file is rejected with the key named, and the old spreads stay', async () => {
    const e = daemonEnv({ latency: 'fast', takers: false, config: (s) => withSpread(s, 10) });
    await e.startQuoting();
    const store = path.join(e.dir, 'store.sqlite');

    // A value of the wrong format.
    e.writeConfig(withSpread(store, 'wide'));
    const bad = e.daemon.reload();
    expect(bad?.ok).toBe(false);
    // A rule between keys (checked when the params are resolved).
    const crossed = withSpread(store, 10) as { strategy: { defaults: { spread: Record<string, number> } } };
    crossed.strategy.defaults.spread['maxBps'] = 1;
    e.writeConfig(crossed);
    e.daemon.reload();

    expect(e.daemon.params.version).toBe(1);
    expect(e.daemon.params.strategy.pairs['ETH/USDC']!.spread.askBps).toBe(10);
    const rejections = e.logs.filter(
      (l) => l['level'] === 50 && String(l['msg']).startsWith('config reload rejected'),
    );
    expect(rejections).toHaveLength(2);
    expect(String(rejections[0]!['msg'])).toContain('strategy.defaults.spread.bidBps');
    expect(String(rejections[1]!['msg'])).toContain('strategy.defaults.spread.maxBps');

    // Quoting goes on at the old spread.
    const from = e.fake.now;
    await e.run(60_000);
    await e.until(() => e.bothTwoSided(), 60_000);
    for (const o of e.ours().filter((x) => x.history[0]!.at > from && x.committed)) {
      expect(distanceBps(e, o)).toBeLessThan(20);
    }
  });
});

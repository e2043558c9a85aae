import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { ZERO, type Dec } from '../../../src/core/decimal.js';
import {
  defaultMarketConfig,
  MarketConfigSchema,
  type MarketConfig,
} from '../../../src/sim/market/market-config.js';
import { MarketModel, type MarketActivity } from '../../../src/sim/market/market-model.js';
import type { MarketPort } from '../../../src/sim/market/market-port.js';
import { Rng } from '../../../src/sim/rng.js';
import { HOUR_MS, newFakeClock, RecordingPort, type TakeCall } from './support/recording-port.js';

/** A deterministic port behaviour: buys up to 30 bps fill in full, sells fill a third. */
const someFills = (call: TakeCall): Dec =>
  call.side === 'BUY'
    ? call.limitPrice.lte(call.reference.times(1.003))
      ? call.quantity
      : ZERO
    : call.quantity.div(3).toDecimalPlaces(5);

/** A busier default market, so an hour has plenty of every kind of call. */
function busyConfig(): MarketConfig {
  const config = defaultMarketConfig();
  for (const pair of Object.values(config.pairs)) pair.takers.A = 0.5;
  return config;
}

function runLog(seed: number | string, config: MarketConfig, ms = HOUR_MS, pairs?: string[]) {
  const { fake, clock } = newFakeClock();
  const port = new RecordingPort(clock, pairs, someFills);
  const model = new MarketModel({ port, clock, rng: new Rng(seed), config });
  model.start();
  fake.tick(ms);
  model.close();
  return { port, model };
}

describe('determinism', () => {
  it('the same seed gives identical port-call logs', () => {
    const a = runLog(7, busyConfig());
    const b = runLog(7, busyConfig());
    expect(a.port.log.length).toBeGreaterThan(8000);
    expect(a.port.log).toEqual(b.port.log);
    expect(a.model.snapshot()).toEqual(b.model.snapshot());
    const kinds = new Set(a.port.log.map((line) => line.split(' ')[1]));
    expect(kinds).toEqual(new Set(['ref', 'bg', 'take']));
  });

  it('a different seed gives a different log', () => {
    const a = runLog(7, busyConfig());
    const b = runLog(8, busyConfig());
    expect(a.port.log).not.toEqual(b.port.log);
    // Both start from the same configured prices.
    expect(a.port.log[0]).toBe(b.port.log[0]);
  });

  it("one pair's calls do not depend on the other pair being configured", () => {
    const both = runLog('s', busyConfig());
    const btcOnly = busyConfig();
    delete btcOnly.pairs['ETH/USDC'];
    const alone = runLog('s', btcOnly, HOUR_MS, ['BTC/USDC']);
    const btc = (log: string[]) => log.filter((line) => line.includes('BTC/USDC'));
    expect(btc(alone.port.log)).toEqual(btc(both.port.log));
  });
});

describe('lifecycle', () => {
  it('close() stops every timer: advancing the clock afterwards produces no calls', () => {
    const { fake, clock } = newFakeClock();
    const port = new RecordingPort(clock);
    const model = new MarketModel({ port, clock, rng: new Rng(1), config: busyConfig() });
    model.start();
    fake.tick(600_000);
    expect(fake.countTimers()).toBeGreaterThan(0);
    model.close();
    expect(model.isRunning).toBe(false);
    expect(fake.countTimers()).toBe(0);
    const calls = port.log.length;
    fake.tick(10 * HOUR_MS);
    expect(port.log).toHaveLength(calls);
    model.close();
    expect(port.log).toHaveLength(calls);
  });

  it('start() is idempotent and publishes reference and book at once', () => {
    const { fake, clock } = newFakeClock();
    const port = new RecordingPort(clock);
    const model = new MarketModel({ port, clock, rng: new Rng(1), config: busyConfig() });
    model.start();
    model.start();
    expect(port.log.filter((l) => l.startsWith('0 ref'))).toEqual([
      '0 ref BTC/USDC 60000',
      '0 ref ETH/USDC 3000',
    ]);
    expect(port.backgrounds).toHaveLength(2);
    fake.tick(1000);
    expect(port.references).toHaveLength(4);
    model.close();
  });

  it('start() after close() resumes from the current state', () => {
    const { fake, clock } = newFakeClock();
    const port = new RecordingPort(clock, ['BTC/USDC']);
    const config = busyConfig();
    delete config.pairs['ETH/USDC'];
    const model = new MarketModel({ port, clock, rng: new Rng(1), config });
    model.start();
    fake.tick(10_000);
    model.close();
    const last = port.references.at(-1)!.price;
    fake.tick(60_000);
    model.start();
    expect(port.references.at(-1)!).toEqual({ at: 70_000, pair: 'BTC/USDC', price: last });
    fake.tick(1000);
    expect(port.references.at(-1)!.at).toBe(71_000);
    expect(model.snapshot().pairs['BTC/USDC']!.referenceSteps).toBe(11);
    model.close();
  });

  it('enabled: false schedules nothing', () => {
    const config = MarketConfigSchema.parse({ enabled: false });
    const { port, model } = runLog(1, config);
    expect(port.log).toEqual([]);
    expect(model.isRunning).toBe(false);
  });

  it('skips configured pairs the port does not list', () => {
    const { port, model } = runLog(1, busyConfig(), 10_000, ['ETH/USDC', 'SOL/USDC']);
    expect(port.log.length).toBeGreaterThan(0);
    expect(port.log.filter((l) => !l.includes('ETH/USDC'))).toEqual([]);
    const snap = model.snapshot();
    expect(snap.skippedPairs).toEqual(['BTC/USDC']);
    expect(Object.keys(snap.pairs)).toEqual(['ETH/USDC']);
  });
});

describe('port errors', () => {
  it('are counted and reported, and the timers carry on', () => {
    const { fake, clock } = newFakeClock();
    const inner = new RecordingPort(clock, ['BTC/USDC']);
    let takes = 0;
    const port: MarketPort = {
      pairs: () => inner.pairs(),
      setReferencePrice: (pair, price) => inner.setReferencePrice(pair, price),
      setBackgroundLiquidity: () => {
        throw new Error('book refused');
      },
      takeLiquidity: (pair, side, quantity, limit) => {
        takes++;
        if (takes % 2 === 0) throw new Error('engine busy');
        return inner.takeLiquidity(pair, side, quantity, limit);
      },
    };
    const config = busyConfig();
    delete config.pairs['ETH/USDC'];
    const errors: MarketActivity[] = [];
    const model = new MarketModel({
      port,
      clock,
      rng: new Rng(3),
      config,
      onError: (_e, _p, what) => errors.push(what),
    });
    model.start();
    fake.tick(HOUR_MS);
    model.close();
    const snap = model.snapshot().pairs['BTC/USDC']!;
    expect(inner.references).toHaveLength(3601);
    expect(snap.takers.arrived).toBe(takes);
    expect(errors.filter((e) => e === 'background')).toHaveLength(721);
    expect(errors.filter((e) => e === 'taker')).toHaveLength(Math.floor(takes / 2));
    expect(snap.portErrors).toBe(errors.length);
  });
});

describe('speed', () => {
  /** A port that does nothing, so only the model is timed. */
  const nullPort: MarketPort = {
    pairs: () => ['BTC/USDC', 'ETH/USDC'],
    setBackgroundLiquidity: () => undefined,
    takeLiquidity: () => ZERO,
    setReferencePrice: () => undefined,
  };

  it.each([
    ['an hour', HOUR_MS],
    ['a day', 24 * HOUR_MS],
  ])('simulates %s of the default market in well under real time', (label, ms) => {
    const { fake, clock } = newFakeClock();
    const model = new MarketModel({ port: nullPort, clock, rng: new Rng(1), config: defaultMarketConfig() });
    const t0 = performance.now();
    model.start();
    fake.tick(ms);
    model.close();
    const wall = performance.now() - t0;
    const snap = model.snapshot();
    console.log(
      `simulated ${label} of the default market (2 pairs) in ${wall.toFixed(0)} ms wall: ` +
        `${snap.pairs['BTC/USDC']!.referenceSteps} steps, ${snap.pairs['BTC/USDC']!.backgroundRefreshes} book refreshes, ` +
        `${snap.pairs['BTC/USDC']!.takers.arrived + snap.pairs['ETH/USDC']!.takers.arrived} takers`,
    );
    expect(snap.pairs['BTC/USDC']!.referenceSteps).toBe(ms / 1000);
    expect(wall).toBeLessThan(ms / 100);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type LoadConfigOptions } from '../../../src/config/load.js';
import type { FileWatcher } from '../../../src/config/reload.js';
import type { MmConfig } from '../../../src/config/schema.js';
import { Daemon } from '../../../src/daemon/daemon.js';
import type { DaemonCloseOptions, DaemonEvent, DaemonTuning } from '../../../src/daemon/daemon-types.js';
import { createLogger, type Logger } from '../../../src/logging/logger.js';
import type { OrderRegistry } from '../../../src/orders/order-registry.js';
import type { OrderState, TrackedOrder } from '../../../src/orders/fsm/index.js';
import type { OrderTruth } from '../../../src/sim/truth/ground-truth.js';
import type { LatencyProfile } from '../../../src/sim/latency.js';
import type { MarketConfigInput } from '../../../src/sim/market/market-config.js';
import { fakeClockVenue, type FakeClockVenue } from '../../support/sim-harness.js';

/** The fixed start of fake time in these tests (a UTC day boundary is hours away). */
export const T0 = Date.parse('2025-03-03T06:00:00.000Z');

export { FakeProcess } from '../../support/fake-process.js';

/** Options of {@link daemonEnv}. */
export interface DaemonEnvOptions {
  readonly latency?: LatencyProfile;
  /** Takers on (default true). */
  readonly takers?: boolean;
  /** Taker arrivals per second per pair (the simulator's A), when set. */
  readonly takerRate?: number;
  /** Merged over the default market of the simulator. */
  readonly market?: MarketConfigInput;
  /** The daemon's config file content (JSON) for a store path, layered over config/default.json. */
  readonly config?: (storePath: string) => Record<string, unknown>;
  readonly balances?: Record<string, string>;
  readonly tuning?: Partial<DaemonTuning>;
  readonly seed?: number;
  /** Watches the config file through this fake watcher (default: no watching, SIGHUP only). */
  readonly watcher?: FileWatcher;
  /** Start of fake time (default {@link T0}). */
  readonly startAt?: number;
}

/** One simulated venue on a fake clock with one account, and a daemon against it in-process. */
export interface DaemonEnv extends FakeClockVenue {
  readonly dir: string;
  readonly configFile: string;
  readonly load: LoadConfigOptions;
  readonly config: MmConfig;
  readonly daemon: Daemon;
  readonly events: DaemonEvent[];
  /** Log lines, parsed. */
  readonly logs: Record<string, unknown>[];
  /** Advances fake time by `ms` in steps of `stepMs`. */
  run(ms: number, stepMs?: number): Promise<void>;
  /** Advances fake time until `cond()` holds; throws after `maxMs`. */
  until(cond: () => boolean, maxMs?: number, stepMs?: number): Promise<void>;
  /** Rewrites the daemon's config file. */
  writeConfig(content: Record<string, unknown>): void;
  /** The party's orders in the venue's ground truth. */
  ours(): OrderTruth[];
  /** Resting orders of the party on the venue now. */
  resting(pair?: string): OrderTruth[];
  /** The daemon's registry, for the ground-truth checks. */
  registry(): OrderRegistry;
  /**
   * Runs fake time (steps of `stepMs`, at most `maxMs`) until the daemon's registry holds an
   * active order in `state`; returns it.
   */
  untilOrderIn(state: OrderState, maxMs: number, stepMs: number): Promise<TrackedOrder>;
  /** True when both pairs of the tests (BTC/USDC, ETH/USDC) are two-sided on the venue. */
  bothTwoSided(): boolean;
  /** Starts `daemon` (default the env's) and runs fake time until both pairs are two-sided. */
  startQuoting(daemon?: Daemon, maxMs?: number): Promise<void>;
  /**
   * Another daemon "process" on the same venue, account, signer and clock (a restart, or a second
   * daemon): a fresh transport, SIGHUP-only reload, 5 s retries. {@link DaemonEnv.dispose} closes it.
   */
  anotherDaemon(options?: AnotherDaemonOptions): Daemon;
  /**
   * Closes `daemon` (default the env's; orders left resting, 5 s grace), advancing fake time while
   * it stops, at most 400 steps of 500 ms.
   */
  closeDaemon(daemon?: Daemon, options?: DaemonCloseOptions): Promise<void>;
  /** Closes every daemon of the env, the venue, and removes the temp directory. */
  dispose(): Promise<void>;
}

/** What {@link DaemonEnv.anotherDaemon} may take other than the env's. */
export interface AnotherDaemonOptions {
  /** Default the env's config. */
  readonly config?: MmConfig;
  /** Where it reloads its config from; default the env's. */
  readonly load?: LoadConfigOptions;
  /** Default a silent logger. */
  readonly logger?: Logger;
}

/** Default daemon config of the tests: two pairs, quick polls, generous risk limits. */
export function baseConfig(storePath: string): Record<string, unknown> {
  return {
    store: { path: storePath },
    pairs: ['BTC/USDC', 'ETH/USDC'],
    log: { level: 'info' },
    shutdown: { graceMs: 150_000 },
    strategy: {
      defaults: {
        spread: { bidBps: 10, askBps: 10, minBps: 2, maxBps: 200 },
        levels: { count: 1, sizeUnit: 'quote', size: '1500' },
      },
    },
    risk: { maxOrderNotional: '5000', maxInventoryNotional: '100000', ordersPerMinute: 60 },
  };
}

/** Builds the venue, the account and the daemon (not started). */
export function daemonEnv(o: DaemonEnvOptions = {}): DaemonEnv {
  const base = fakeClockVenue({
    startAt: o.startAt ?? T0,
    loopLimit: 1_000_000,
    config: { seed: o.seed ?? 7, bookProjectionLagMs: 500, market: { enabled: true, ...(o.market ?? {}) } },
    latency: o.latency ?? 'fast',
    account: { balances: o.balances ?? { USDC: '300000', BTC: '2.5', ETH: '50' }, ordersPerMinute: 60 },
  });
  const { fake, clock, venue, signer, apiKey, partyId } = base;
  for (const p of Object.values(venue.config.market.pairs)) {
    if (o.takers === false) p.takers.enabled = false;
    if (o.takerRate !== undefined) p.takers.A = o.takerRate;
  }
  venue.startMarket();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-daemon-'));
  const configFile = path.join(dir, 'daemon.json');
  const writeConfig = (content: Record<string, unknown>): void =>
    fs.writeFileSync(configFile, JSON.stringify(content, null, 2));
  const storePath = path.join(dir, 'store.sqlite');
  writeConfig((o.config ?? baseConfig)(storePath));
  const load: LoadConfigOptions = { configFiles: [configFile], env: { LEDGER_MM_API_KEY: apiKey }, cwd: dir };
  const config = loadConfig(load);
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const daemon = new Daemon({
    config,
    clock,
    signer,
    logger,
    transport: venue.createTransport(),
    random: () => 0.5,
    reload: o.watcher === undefined ? { load, watch: false } : { load, watcher: o.watcher },
    tuning: { retryMs: 5_000, ...o.tuning },
  });
  const events: DaemonEvent[] = [];
  daemon.subscribe((e) => {
    if (e.type !== 'cycle' && e.type !== 'stage' && e.type !== 'queue' && e.type !== 'order-transition')
      events.push(e);
  });
  const ours = (): OrderTruth[] => venue.truth.orders().filter((t) => t.partyId === partyId);
  const others: Daemon[] = [];
  const twoSidedBoth = (): boolean => twoSided(env, 'BTC/USDC') && twoSided(env, 'ETH/USDC');
  const closeDaemon: DaemonEnv['closeDaemon'] = async (
    d = daemon,
    options = { cancelOrders: false, graceMs: 5_000 },
  ) => {
    let closed = false;
    const closing = d.close(options).finally(() => (closed = true));
    for (let i = 0; i < 400 && !closed; i++) await fake.tickAsync(500);
    await closing;
  };
  const env: DaemonEnv = {
    ...base,
    dir,
    configFile,
    load,
    config,
    daemon,
    events,
    logs,
    run: async (ms, stepMs = 500) => {
      for (let t = 0; t < ms; t += stepMs) await fake.tickAsync(Math.min(stepMs, ms - t));
    },
    until: async (cond, maxMs = 600_000, stepMs = 500) => {
      for (let t = 0; !cond(); t += stepMs) {
        if (t > maxMs) throw new Error(`condition not met within ${maxMs} ms of fake time`);
        await fake.tickAsync(stepMs);
      }
    },
    writeConfig,
    ours,
    resting: (pair) =>
      venue.truth.restingOrders(partyId).filter((t) => pair === undefined || t.pair === pair),
    registry: () => daemon.engine!.orders as unknown as OrderRegistry,
    untilOrderIn: async (state, maxMs, stepMs) => {
      const find = (): TrackedOrder | undefined =>
        daemon.engine?.orders.active().find((x) => x.state === state);
      await env.until(() => find() !== undefined, maxMs, stepMs);
      return find()!;
    },
    bothTwoSided: twoSidedBoth,
    startQuoting: async (d = daemon, maxMs = 120_000) => {
      void d.start();
      await env.until(twoSidedBoth, maxMs);
    },
    anotherDaemon: (a = {}) => {
      const d = new Daemon({
        config: a.config ?? config,
        clock,
        signer,
        logger: a.logger ?? createLogger({ level: 'silent' }),
        transport: venue.createTransport(),
        random: () => 0.5,
        reload: { load: a.load ?? load, watch: false },
        tuning: { retryMs: 5_000 },
      });
      others.push(d);
      return d;
    },
    closeDaemon,
    dispose: async () => {
      live.delete(env);
      for (const d of others) await closeDaemon(d);
      // A stop already under way keeps its own bound (up to shutdown.graceMs).
      await closeDaemon(daemon);
      await venue.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  live.add(env);
  return env;
}

/** The environments {@link daemonEnv} made that are not disposed yet. */
const live = new Set<DaemonEnv>();

/** Disposes every environment {@link daemonEnv} made that no test disposed: `afterEach(disposeDaemonEnvs)`. */
export async function disposeDaemonEnvs(): Promise<void> {
  for (const e of [...live]) await e.dispose();
}

/** True when `pair` has a resting BUY and a resting SELL of the party on the venue. */
export function twoSided(env: DaemonEnv, pair: string): boolean {
  const r = env.resting(pair);
  return r.some((o) => o.side === 'BUY') && r.some((o) => o.side === 'SELL');
}

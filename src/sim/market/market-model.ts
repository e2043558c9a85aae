/**
 * The simulated market around the venue engine: {@link MarketModel} drives, per pair, a
 * reference price (a seeded walk, or a replayed series) published every `tickMs`, the background
 * makers' book rebuilt around it, and Poisson takers sweeping the book, all on self-rescheduling
 * timers of the injected clock and from seed-forked streams, so a seed gives the same port calls.
 * It owns those timers and the per-pair counters for reports; the daemon sees its effects only
 * through the venue's API.
 */
import type { Clock } from '../../core/clock.js';
import { toWire } from '../../core/decimal.js';
import type { Rng } from '../rng.js';
import { BackgroundMakers } from './background-makers.js';
import { MarketConfigSchema, type MarketConfig, type PairMarketConfig } from './market-config.js';
import type { MarketPort } from './market-port.js';
import { MakerCentre } from './maker-centre.js';
import type { PriceDynamics } from './price-dynamics.js';
import type { ReferenceSource } from './reference-port.js';
import { buildReference } from './reference-source.js';
import { Takers, type TakerCounters } from './takers.js';
import { TimerChain } from './timer-chain.js';

/** Which part of the model a port call failed in. */
export type MarketActivity = 'reference' | 'background' | 'taker';

/** What a {@link MarketModel} needs. */
export interface MarketModelOptions {
  /** The venue engine, seen through its narrow market port. */
  port: MarketPort;
  /** All time comes from here (fake timers in tests and accelerated runs). */
  clock: Clock;
  /** The simulation's root generator; the model forks one stream per pair and activity from it. */
  rng: Rng;
  /** The market; parsed again here, so defaults apply and the caller's object is not shared. */
  config: MarketConfig;
  /**
   * Called when a port call throws. The model counts the error and carries on (a timer callback
   * has nobody to throw to). Without it errors are only counted.
   */
  onError?: (error: unknown, pair: string, activity: MarketActivity) => void;
}

/** One pair in a {@link MarketSnapshot}. */
export interface PairMarketSnapshot {
  /** The reference as last published, decimal string. */
  referencePrice: string;
  referenceSteps: number;
  backgroundRefreshes: number;
  takers: TakerCounters;
  portErrors: number;
}

/** The model's counters, for reports. */
export interface MarketSnapshot {
  running: boolean;
  /** Clock time of the snapshot, ms. */
  now: number;
  pairs: Record<string, PairMarketSnapshot>;
  /** Configured pairs the port does not list: the model leaves them alone. */
  skippedPairs: string[];
}

/** Everything the model keeps for one pair. */
interface PairState {
  readonly pair: string;
  readonly config: PairMarketConfig;
  readonly reference: ReferenceSource;
  /** Jumps, GARCH, drift regimes, when some part is on (for reports and tests). */
  readonly dynamics: PriceDynamics | null;
  readonly makerCentre: MakerCentre;
  readonly makers: BackgroundMakers;
  readonly takers: Takers;
  readonly backgroundTimer: TimerChain;
  readonly takerTimer: TimerChain;
  nextRefreshAt: number;
  nextArrivalAt: number;
  portErrors: number;
}

/** Guards against a runaway catch-up loop if a real clock stalls for a long time. */
const MAX_ARRIVALS_PER_FIRING = 10_000;

/**
 * The simulated market: for each pair, a GBM reference price stepped every `tickMs` (and
 * published with `port.setReferencePrice`), a background book rebuilt every `refreshMs`, and
 * Poisson takers sweeping the book. Everything runs on self-rescheduling timers of the injected
 * clock; nothing reads wall time.
 *
 * Determinism: each pair draws from three streams forked from `rng` by label
 * (`market/<pair>/reference`, `…/makers`, `…/takers`), none of which depends on what the port
 * returns, so the same seed and config give the same sequence of port calls.
 *
 * `start()` publishes each pair's reference and background book at once, then schedules the
 * chains; `close()` cancels every timer and makes no port call (the background book stays as it
 * was). Both are idempotent; `start()` after `close()` resumes from the current state.
 */
export class MarketModel {
  private readonly port: MarketPort;
  private readonly clock: Clock;
  private readonly config: MarketConfig;
  private readonly onError: MarketModelOptions['onError'];
  private readonly states: PairState[] = [];
  private readonly skipped: string[] = [];
  private readonly stepTimer: TimerChain;
  private running = false;
  private lastStepAt = 0;
  private nextStepAt = 0;

  constructor(options: MarketModelOptions) {
    this.port = options.port;
    this.clock = options.clock;
    this.config = MarketConfigSchema.parse(options.config);
    this.onError = options.onError;
    this.stepTimer = new TimerChain(this.clock);
    const listed = new Set(this.port.pairs());
    for (const [pair, config] of Object.entries(this.config.pairs)) {
      if (!listed.has(pair)) {
        this.skipped.push(pair);
        continue;
      }
      const grid = { priceDecimals: config.priceDecimals, quantityDecimals: config.quantityDecimals };
      const { source, dynamics } = buildReference(
        config,
        this.config.tickMs,
        options.rng.fork(`market/${pair}/reference`),
        options.rng.fork(`market/${pair}/dynamics`),
      );
      this.states.push({
        pair,
        config,
        reference: source,
        dynamics,
        makerCentre: new MakerCentre(config.background, options.rng.fork(`market/${pair}/maker-noise`)),
        makers: new BackgroundMakers({
          pair,
          port: this.port,
          config: config.background,
          grid,
          rng: options.rng.fork(`market/${pair}/makers`),
        }),
        takers: new Takers({
          pair,
          port: this.port,
          config: config.takers,
          ...grid,
          rng: options.rng.fork(`market/${pair}/takers`),
          informedRng: options.rng.fork(`market/${pair}/informed`),
        }),
        backgroundTimer: new TimerChain(this.clock),
        takerTimer: new TimerChain(this.clock),
        nextRefreshAt: 0,
        nextArrivalAt: 0,
        portErrors: 0,
      });
    }
  }

  /** True between `start()` and `close()`. */
  get isRunning(): boolean {
    return this.running;
  }

  /** Publishes the current state and starts the timers. No-op if running or if the market is disabled. */
  start(): void {
    if (this.running || !this.config.enabled) return;
    this.running = true;
    const now = this.clock.now();
    this.lastStepAt = now;
    this.nextStepAt = now + this.config.tickMs;
    for (const s of this.states) {
      this.guard(s, 'reference', () => this.port.setReferencePrice(s.pair, s.reference.decimal));
      s.makerCentre.record(0, s.reference.price);
      if (s.makers.enabled) {
        this.guard(s, 'background', () => s.makers.refresh(s.makerCentre.centre(s.reference.price)));
        s.nextRefreshAt = now + s.config.background.refreshMs;
        s.backgroundTimer.at(s.nextRefreshAt, () => this.onRefresh(s));
      }
      if (s.takers.enabled) {
        s.nextArrivalAt = now + s.takers.nextInterArrivalMs();
        s.takerTimer.at(s.nextArrivalAt, () => this.onArrivals(s));
      }
    }
    this.stepTimer.at(this.nextStepAt, () => this.onStep());
  }

  /** Cancels every timer. No port calls. Idempotent. */
  close(): void {
    if (!this.running) return;
    this.running = false;
    this.stepTimer.cancel();
    for (const s of this.states) {
      s.backgroundTimer.cancel();
      s.takerTimer.cancel();
    }
  }

  /** The counters and current references, for reports. */
  snapshot(): MarketSnapshot {
    const pairs: Record<string, PairMarketSnapshot> = {};
    for (const s of this.states) {
      pairs[s.pair] = {
        referencePrice: toWire(s.reference.decimal),
        referenceSteps: s.reference.steps,
        backgroundRefreshes: s.makers.refreshes,
        takers: s.takers.counters(),
        portErrors: s.portErrors,
      };
    }
    return { running: this.running, now: this.clock.now(), pairs, skippedPairs: [...this.skipped] };
  }

  /** Steps every pair's reference by the time actually elapsed and publishes it. */
  private onStep(): void {
    if (!this.running) return;
    const now = this.clock.now();
    const dt = now - this.lastStepAt;
    this.lastStepAt = now;
    for (const s of this.states) {
      s.reference.step(dt);
      s.makerCentre.record(dt, s.reference.price);
      this.guard(s, 'reference', () => this.port.setReferencePrice(s.pair, s.reference.decimal));
    }
    this.nextStepAt = nextPeriodic(this.nextStepAt, this.config.tickMs, now);
    this.stepTimer.at(this.nextStepAt, () => this.onStep());
  }

  /** Rebuilds one pair's background book around its current reference. */
  private onRefresh(s: PairState): void {
    if (!this.running) return;
    this.guard(s, 'background', () => s.makers.refresh(s.makerCentre.centre(s.reference.price)));
    s.nextRefreshAt = nextPeriodic(s.nextRefreshAt, s.config.background.refreshMs, this.clock.now());
    s.backgroundTimer.at(s.nextRefreshAt, () => this.onRefresh(s));
  }

  /**
   * Runs every arrival due by now (several may fall in one millisecond: the Poisson process keeps
   * exact fractional times and the timer only wakes on whole milliseconds), then schedules the next.
   */
  private onArrivals(s: PairState): void {
    if (!this.running) return;
    const now = this.clock.now();
    for (let n = 0; s.nextArrivalAt <= now && n < MAX_ARRIVALS_PER_FIRING; n++) {
      this.guard(s, 'taker', () => s.takers.arrive(s.reference.price, this.ahead(s)));
      s.nextArrivalAt += s.takers.nextInterArrivalMs();
    }
    if (s.nextArrivalAt <= now) s.nextArrivalAt = now + s.takers.nextInterArrivalMs();
    s.takerTimer.at(s.nextArrivalAt, () => this.onArrivals(s));
  }

  /** The reference the informed takers see ahead (null when none are informed). */
  private ahead(s: PairState): number | null {
    const horizon = s.config.takers.informedHorizonMs;
    return s.config.takers.informedShare > 0 ? s.reference.ahead(horizon) : null;
  }

  /** Runs a port-touching action; a throw is counted and reported, never propagated into the timer. */
  private guard(s: PairState, activity: MarketActivity, action: () => unknown): void {
    try {
      action();
    } catch (error) {
      s.portErrors++;
      this.onError?.(error, s.pair, activity);
    }
  }
}

/** The next tick of a drift-free periodic schedule; skips ticks already missed by a late clock. */
function nextPeriodic(previous: number, period: number, now: number): number {
  const next = previous + period;
  return next > now ? next : now + period;
}

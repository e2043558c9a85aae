/**
 * The parts of a reference price's step beyond constant-σ GBM: GARCH(1,1) volatility, Markov
 * drift regimes and compound Poisson jumps. {@link PriceDynamics} turns one standard normal `z`
 * (drawn by the walk from its own stream, as before) into the step's log-return; each part draws
 * from a stream of its own, so switching one on shifts no other draw. A part that is off draws
 * nothing.
 */
import type { Rng } from '../rng.js';
import type { DriftRegimesConfig, GarchConfig, JumpsConfig } from './dynamics-config.js';
import { MS_PER_YEAR } from './reference-price.js';

/** GARCH(1,1) on the diffusive log-return of each step, around a long-run annualised σ. */
export class GarchVariance {
  /** Variance of the next step's diffusive log-return, per ms of the step. */
  private h: number;
  private readonly omega: number;

  constructor(
    private readonly config: GarchConfig,
    /** Long-run annualised σ. */
    longRunVolatility: number,
  ) {
    const longRun = (longRunVolatility * longRunVolatility) / MS_PER_YEAR;
    this.omega = (1 - config.alpha - config.beta) * longRun;
    this.h = longRun;
  }

  /** The annualised σ of the next step. */
  get volatility(): number {
    return Math.sqrt(this.h * MS_PER_YEAR);
  }

  /** Feeds the last step's diffusive log-return `r` over `dtMs`; updates the variance. */
  update(r: number, dtMs: number): void {
    const { alpha, beta } = this.config;
    this.h = this.omega + alpha * ((r * r) / dtMs) + beta * this.h;
  }
}

/** A Markov chain over drift regimes with exponential holding times. */
export class DriftRegimes {
  private index: number;
  private remainingMs: number;
  private switchCount = 0;

  constructor(
    private readonly config: DriftRegimesConfig,
    private readonly rng: Rng,
  ) {
    this.index = rng.int(0, config.drifts.length - 1);
    this.remainingMs = this.holding();
  }

  /** The annualised drift now. */
  get drift(): number {
    return this.config.drifts[this.index]!;
  }

  /** The regime's index in `drifts`. */
  get regime(): number {
    return this.index;
  }

  /** Regime switches so far. */
  get switches(): number {
    return this.switchCount;
  }

  /**
   * The mean drift over the next `dtMs` (switching as many times as the holding times say), and
   * advances the chain by it.
   */
  advance(dtMs: number): number {
    let left = dtMs;
    let integral = 0;
    while (left > 0) {
      const span = Math.min(left, this.remainingMs);
      integral += this.drift * span;
      left -= span;
      this.remainingMs -= span;
      if (this.remainingMs <= 0) {
        const others = this.config.drifts.length - 1;
        const pick = this.rng.int(0, others - 1);
        this.index = pick >= this.index ? pick + 1 : pick;
        this.remainingMs = this.holding();
        this.switchCount++;
      }
    }
    return dtMs > 0 ? integral / dtMs : this.drift;
  }

  private holding(): number {
    return this.rng.exponential(1 / (this.config.meanDurationMinutes * 60_000));
  }
}

/** Compound Poisson jumps: the sum of the log-sizes of the jumps that fall in a step. */
export class Jumps {
  private count = 0;
  private nextAtMs: number;
  private elapsedMs = 0;

  constructor(
    private readonly config: JumpsConfig,
    private readonly rng: Rng,
  ) {
    this.nextAtMs = this.gap();
  }

  /** Jumps so far. */
  get jumps(): number {
    return this.count;
  }

  /** The total log-size of the jumps in the next `dtMs` (0 when none). */
  advance(dtMs: number): number {
    this.elapsedMs += dtMs;
    let total = 0;
    while (this.nextAtMs <= this.elapsedMs) {
      const size = this.rng.exponential(10_000 / this.config.meanSizeBps);
      total += this.rng.chance(this.config.upShare) ? size : -size;
      this.count++;
      this.nextAtMs += this.gap();
    }
    return total;
  }

  private gap(): number {
    return this.rng.exponential(this.config.ratePerHour / 3_600_000);
  }
}

/** What {@link PriceDynamics} needs: the parts' configs and one stream per part. */
export interface PriceDynamicsOptions {
  volatility: number;
  drift: number;
  garch: GarchConfig;
  driftRegimes: DriftRegimesConfig;
  jumps: JumpsConfig;
  /** The pair's root stream for the parts (forked per part by label). */
  rng: Rng;
}

/** The richer step of one pair's reference; see the module doc. */
export class PriceDynamics {
  readonly garch: GarchVariance | null;
  readonly driftRegimes: DriftRegimes | null;
  readonly jumps: Jumps | null;

  constructor(private readonly options: PriceDynamicsOptions) {
    const o = options;
    this.garch = o.garch.enabled ? new GarchVariance(o.garch, o.volatility) : null;
    this.driftRegimes = o.driftRegimes.enabled ? new DriftRegimes(o.driftRegimes, o.rng.fork('drift')) : null;
    this.jumps = o.jumps.enabled ? new Jumps(o.jumps, o.rng.fork('jumps')) : null;
  }

  /** True when some part is on (otherwise the walk's plain GBM step is used). */
  static isActive(o: Pick<PriceDynamicsOptions, 'garch' | 'driftRegimes' | 'jumps'>): boolean {
    return o.garch.enabled || o.driftRegimes.enabled || o.jumps.enabled;
  }

  /** The log-return of one step of `dtMs` from the standard normal `z`. */
  logReturn(dtMs: number, z: number): number {
    const dt = dtMs / MS_PER_YEAR;
    const sigma = this.garch?.volatility ?? this.options.volatility;
    const mu = this.driftRegimes?.advance(dtMs) ?? this.options.drift;
    const diffusive = sigma * Math.sqrt(dt) * z;
    this.garch?.update(diffusive, dtMs);
    const jump = this.jumps?.advance(dtMs) ?? 0;
    return (mu - (sigma * sigma) / 2) * dt + diffusive + jump;
  }
}

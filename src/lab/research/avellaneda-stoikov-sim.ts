/**
 * The simulation of Avellaneda & Stoikov (2008), "High-frequency trading in a limit order book",
 * Quantitative Finance 8(3), section 4: a market maker quoting around an arithmetic random-walk
 * mid price, filled by Poisson market orders whose intensity decays with the quote's distance from
 * the mid, compared against a "symmetric" maker that quotes the same spread centred on the mid.
 *
 * The quotes come from the daemon's own numeric core (`src/strategy/avellaneda-stoikov.ts`), so
 * this reproduces the paper with the same formulas the daemon's quoting mode runs.
 *
 * This is a research model, not money: prices, cash and inventory are plain `number`s in the
 * paper's units, which is what keeps 1000 runs × 200 steps × 2 strategies to a few milliseconds.
 * Nothing here reaches an order, a balance or the wire.
 *
 * Pure: parameters and a seeded {@link Rng} in, statistics out.
 */
import { asQuotes, optimalSpread } from '../../strategy/avellaneda-stoikov.js';
import type { Rng } from '../../sim/rng.js';

/** The simulation's inputs, in the paper's notation and units. */
export interface AsSimParams {
  /** Initial mid price S₀. */
  readonly s0: number;
  /** Horizon T. */
  readonly T: number;
  /** Volatility σ of the mid, price per √time. */
  readonly sigma: number;
  /** Time step dt; T/dt steps per run. */
  readonly dt: number;
  /** Order-arrival decay k (λ(δ) = A·e^(−kδ)). */
  readonly k: number;
  /** Order-arrival intensity A at δ = 0, per unit time. */
  readonly A: number;
  /** Initial inventory q₀ (shares). */
  readonly q0: number;
  /** Initial cash. */
  readonly cash0: number;
  /** Risk aversion γ. */
  readonly gamma: number;
  /** Number of independent runs (each strategy sees the same runs). */
  readonly runs: number;
}

/** The paper's parameters (section 4), without γ and the number of runs. */
export const PAPER_PARAMS: Omit<AsSimParams, 'gamma' | 'runs'> = Object.freeze({
  s0: 100,
  T: 1,
  sigma: 2,
  dt: 0.005,
  k: 1.5,
  A: 140,
  q0: 0,
  cash0: 0,
});

/** The paper's parameters with the given γ and number of runs (1000 in the paper). */
export function paperParams(gamma: number, runs = 1000): AsSimParams {
  return { ...PAPER_PARAMS, gamma, runs };
}

/** The two strategies the paper compares. */
export type AsStrategy = 'inventory' | 'symmetric';

/** The strategies in the order the paper's tables list them. */
export const AS_STRATEGIES: readonly AsStrategy[] = Object.freeze(['inventory', 'symmetric']);

/** One strategy's statistics over all runs: the columns of the paper's tables, and a few more. */
export interface AsStrategyStats {
  readonly strategy: AsStrategy;
  /** Mean quoted spread (ask − bid) over every step of every run. */
  readonly spread: number;
  /** Mean terminal profit, cash + q·S(T). */
  readonly profitMean: number;
  /** Sample standard deviation of the terminal profit. */
  readonly profitStd: number;
  /** Mean terminal inventory q(T). */
  readonly finalQMean: number;
  /** Sample standard deviation of the terminal inventory. */
  readonly finalQStd: number;
  /** Mean number of fills (bid plus ask) per run. */
  readonly tradesMean: number;
}

/** The result of one simulation: both strategies on the same paths. */
export interface AsSimResult {
  readonly params: AsSimParams;
  /** Steps per run, T/dt. */
  readonly steps: number;
  /**
   * The spread's τ-independent term (2/γ)·ln(1 + γ/k), i.e. `optimalSpread` at τ = 0. This is the
   * figure the paper's "average spread" column shows (1.29 for γ = 0.1); the mean spread actually
   * quoted also carries γσ²τ, whose average over [0, T] is γσ²T/2.
   */
  readonly spreadAtHorizon: number;
  readonly inventory: AsStrategyStats;
  readonly symmetric: AsStrategyStats;
}

/** Running sums for one strategy. */
interface Accumulator {
  spreadSum: number;
  profitSum: number;
  profitSq: number;
  qSum: number;
  qSq: number;
  trades: number;
}

function accumulator(): Accumulator {
  return { spreadSum: 0, profitSum: 0, profitSq: 0, qSum: 0, qSq: 0, trades: 0 };
}

/** Mean and sample standard deviation (0 when there is a single observation) from sums. */
function meanStd(sum: number, sumSq: number, n: number): { mean: number; std: number } {
  const mean = sum / n;
  if (n < 2) return { mean, std: 0 };
  const variance = Math.max(0, (sumSq - n * mean * mean) / (n - 1));
  return { mean, std: Math.sqrt(variance) };
}

function stats(strategy: AsStrategy, acc: Accumulator, runs: number, steps: number): AsStrategyStats {
  const profit = meanStd(acc.profitSum, acc.profitSq, runs);
  const q = meanStd(acc.qSum, acc.qSq, runs);
  return {
    strategy,
    spread: acc.spreadSum / (runs * steps),
    profitMean: profit.mean,
    profitStd: profit.std,
    finalQMean: q.mean,
    finalQStd: q.std,
    tradesMean: acc.trades / runs,
  };
}

function positive(name: string, value: number): void {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`${name} must be a positive number, got ${value}`);
}

/** The number of steps T/dt, rejecting a dt that does not divide T. */
function stepCount(p: AsSimParams): number {
  const steps = Math.round(p.T / p.dt);
  if (steps < 1 || Math.abs(steps * p.dt - p.T) > 1e-9 * p.T) {
    throw new RangeError(`dt (${p.dt}) must divide T (${p.T}) into a whole number of steps`);
  }
  return steps;
}

/** Rejects parameters the simulation cannot run with. */
export function validateParams(p: AsSimParams): void {
  for (const [name, value] of [
    ['gamma', p.gamma],
    ['sigma', p.sigma],
    ['k', p.k],
    ['A', p.A],
    ['T', p.T],
    ['dt', p.dt],
  ] as const) {
    positive(name, value);
  }
  for (const [name, value] of [
    ['s0', p.s0],
    ['q0', p.q0],
    ['cash0', p.cash0],
  ] as const) {
    if (!Number.isFinite(value)) throw new RangeError(`${name} must be finite, got ${value}`);
  }
  if (!Number.isSafeInteger(p.runs) || p.runs < 1) {
    throw new RangeError(`runs must be a positive integer, got ${p.runs}`);
  }
  stepCount(p);
}

/**
 * Runs the paper's experiment: `params.runs` independent runs, each simulating both strategies on
 * the same mid path and the same fill draws.
 *
 * Each step, at t = i·dt with τ = T − t, for each strategy:
 * 1. quote: the inventory strategy posts `asQuotes` (spread around the reservation price r);
 *    the symmetric strategy posts the same spread (`optimalSpread`) centred on the mid s;
 * 2. fills: the bid is hit when u_b < λ(δᵇ)·dt = A·e^(−k·δᵇ)·dt, with δᵇ = s − bid measured from
 *    the mid (not from r), and likewise the ask with u_a and δᵃ = ask − s; each fill is one unit at
 *    the quoted price. The probability is capped at 1 (a quote through the mid, δ < 0, can push
 *    λ·dt above 1 when |q| is large). Both sides can fill in the same step;
 * 3. the mid moves: S(t + dt) = S(t) ± σ√dt, each with probability 1/2.
 * At T the profit is cash + q·S(T), marked to the mid.
 *
 * Randomness: run i draws from `rng.fork('run/i')`, three uniforms per step (u_b, u_a, the mid's
 * direction) shared by both strategies, so the same seed gives the same numbers, and the first n
 * runs do not depend on how many runs follow.
 */
export function simulateAvellanedaStoikov(params: AsSimParams, rng: Rng): AsSimResult {
  validateParams(params);
  const { s0, T, sigma, dt, k, A, q0, cash0, gamma, runs } = params;
  const steps = stepCount(params);
  const jump = sigma * Math.sqrt(dt);
  const inv = accumulator();
  const sym = accumulator();

  for (let run = 0; run < runs; run++) {
    const r = rng.fork(`run/${run}`);
    let s = s0;
    let qInv = q0;
    let cashInv = cash0;
    let qSym = q0;
    let cashSym = cash0;

    for (let i = 0; i < steps; i++) {
      const tau = T - i * dt;
      const uBid = r.next();
      const uAsk = r.next();
      const up = r.next() < 0.5;

      const quotes = asQuotes({ s, q: qInv, gamma, sigma, tau, k });
      inv.spreadSum += quotes.spread;
      if (uBid < fillProbability(A, k, s - quotes.bid, dt)) {
        qInv += 1;
        cashInv -= quotes.bid;
        inv.trades += 1;
      }
      if (uAsk < fillProbability(A, k, quotes.ask - s, dt)) {
        qInv -= 1;
        cashInv += quotes.ask;
        inv.trades += 1;
      }

      const spread = optimalSpread(gamma, sigma, tau, k);
      const half = spread / 2;
      sym.spreadSum += spread;
      if (uBid < fillProbability(A, k, half, dt)) {
        qSym += 1;
        cashSym -= s - half;
        sym.trades += 1;
      }
      if (uAsk < fillProbability(A, k, half, dt)) {
        qSym -= 1;
        cashSym += s + half;
        sym.trades += 1;
      }

      s += up ? jump : -jump;
    }

    const profitInv = cashInv + qInv * s;
    const profitSym = cashSym + qSym * s;
    inv.profitSum += profitInv;
    inv.profitSq += profitInv * profitInv;
    inv.qSum += qInv;
    inv.qSq += qInv * qInv;
    sym.profitSum += profitSym;
    sym.profitSq += profitSym * profitSym;
    sym.qSum += qSym;
    sym.qSq += qSym * qSym;
  }

  return {
    params,
    steps,
    spreadAtHorizon: optimalSpread(gamma, sigma, 0, k),
    inventory: stats('inventory', inv, runs, steps),
    symmetric: stats('symmetric', sym, runs, steps),
  };
}

/** P(a quote at distance δ from the mid is hit within dt) = min(1, A·e^(−kδ)·dt). */
function fillProbability(A: number, k: number, delta: number, dt: number): number {
  return Math.min(1, A * Math.exp(-k * delta) * dt);
}

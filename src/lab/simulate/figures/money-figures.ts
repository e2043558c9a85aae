/**
 * Money figures of a run from the venue's trades (the party's own legs) marked to the simulated
 * market's reference price: fills and volume, the spread captured against the reference, the
 * position over time, and the trading PnL (cash flows plus the position marked to the reference;
 * the revaluation of the starting balances is not PnL). All in `Dec`; quote units per pair.
 */
import { Dec, ZERO, dec } from '../../../core/decimal.js';
import type { TradeTruth } from '../../../sim/truth/ground-truth.js';
import type { ReferenceSeries } from './reference-series.js';

/** One of the party's fills, in time order. */
export interface OwnFill {
  readonly at: number;
  readonly pair: string;
  /** The party's side. */
  readonly side: 'BUY' | 'SELL';
  readonly price: Dec;
  readonly quantity: Dec;
  readonly role: 'maker' | 'taker';
}

/**
 * The daemon's legs of `trades` (maker or taker), in time order. A trade between two of its own
 * parties (a self-trade) gives both legs: they net to nothing but the fees.
 */
export function ownFills(trades: readonly TradeTruth[], partyIds: readonly string[]): OwnFill[] {
  const own = new Set(partyIds);
  const out: OwnFill[] = [];
  for (const t of [...trades].sort((a, b) => a.at - b.at)) {
    const maker = t.maker.partyId !== null && own.has(t.maker.partyId);
    const taker = t.taker.partyId !== null && own.has(t.taker.partyId);
    const leg = (role: 'maker' | 'taker'): OwnFill => ({
      at: t.at,
      pair: t.pair,
      side: role === 'maker' ? (t.takerSide === 'BUY' ? 'SELL' : 'BUY') : t.takerSide,
      price: dec(t.price),
      quantity: dec(t.quantity),
      role,
    });
    if (maker) out.push(leg('maker'));
    if (taker) out.push(leg('taker'));
  }
  return out;
}

/** Money figures of one pair. */
export interface PairMoney {
  readonly fills: number;
  readonly volumeBase: Dec;
  readonly volumeQuote: Dec;
  /** Σ quantity × (reference − price) on buys and × (price − reference) on sells, quote units. */
  readonly spreadCaptured: Dec;
  /** {@link spreadCaptured} per unit of volume, bps; null without fills. */
  readonly spreadCapturedBps: Dec | null;
  /** Time-weighted mean and standard deviation of the base position over the run. */
  readonly inventoryMean: Dec;
  readonly inventoryStd: Dec;
  readonly finalPosition: Dec;
  /** Cash flows plus the final position at the final reference. */
  readonly pnl: Dec;
}

/** The position and cash of a pair after each fill. */
interface Path {
  readonly at: number[];
  readonly position: Dec[];
  readonly cash: Dec[];
}

function pathOf(fills: readonly OwnFill[]): Path {
  const path: Path = { at: [], position: [], cash: [] };
  let position = ZERO;
  let cash = ZERO;
  for (const f of fills) {
    const notional = f.price.times(f.quantity);
    position = f.side === 'BUY' ? position.plus(f.quantity) : position.minus(f.quantity);
    cash = f.side === 'BUY' ? cash.minus(notional) : cash.plus(notional);
    path.at.push(f.at);
    path.position.push(position);
    path.cash.push(cash);
  }
  return path;
}

/** {@link PairMoney} of one pair over `[from, to]`. */
export function pairMoney(
  fills: readonly OwnFill[],
  ref: ReferenceSeries,
  from: number,
  to: number,
): PairMoney {
  let volumeBase = ZERO;
  let volumeQuote = ZERO;
  let captured = ZERO;
  for (const f of fills) {
    volumeBase = volumeBase.plus(f.quantity);
    volumeQuote = volumeQuote.plus(f.price.times(f.quantity));
    const r = ref.at(f.at);
    if (r === null) continue;
    const edge = f.side === 'BUY' ? r.minus(f.price) : f.price.minus(r);
    captured = captured.plus(edge.times(f.quantity));
  }
  const path = pathOf(fills);
  // Time-weighted moments of the piecewise-constant position.
  const span = new Dec(Math.max(1, to - from));
  const pieces: { value: Dec; weight: Dec }[] = [];
  let prevAt = from;
  let prev = ZERO;
  path.at.forEach((at, i) => {
    pieces.push({ value: prev, weight: new Dec(Math.max(0, at - prevAt)) });
    prevAt = Math.max(prevAt, at);
    prev = path.position[i]!;
  });
  pieces.push({ value: prev, weight: new Dec(Math.max(0, to - prevAt)) });
  const mean = pieces.reduce((s, p) => s.plus(p.value.times(p.weight)), ZERO).div(span);
  const variance = pieces
    .reduce((s, p) => s.plus(p.value.minus(mean).pow(2).times(p.weight)), ZERO)
    .div(span);
  const last = path.at.length - 1;
  const finalPosition = last < 0 ? ZERO : path.position[last]!;
  const cash = last < 0 ? ZERO : path.cash[last]!;
  const mark = ref.at(to) ?? ZERO;
  return {
    fills: fills.length,
    volumeBase,
    volumeQuote,
    spreadCaptured: captured,
    spreadCapturedBps: volumeQuote.gt(0) ? captured.div(volumeQuote).times(10_000) : null,
    inventoryMean: mean,
    inventoryStd: variance.sqrt(),
    finalPosition,
    pnl: cash.plus(finalPosition.times(mark)),
  };
}

/** The whole book of a run sampled on a grid: PnL and inventory value (all pairs, quote units). */
export interface MoneyPath {
  /** Sample times, ms since the run's start. */
  readonly t: number[];
  readonly pnl: Dec[];
  /** Per pair: position × reference at each sample. */
  readonly inventoryValue: Record<string, Dec[]>;
  readonly maxDrawdown: Dec;
  readonly inventoryValueMean: Dec;
  readonly inventoryValueStd: Dec;
}

/** Samples every `stepMs` over `[from, to]` (the end included). */
export function moneyPath(
  fillsByPair: ReadonlyMap<string, readonly OwnFill[]>,
  refs: ReadonlyMap<string, ReferenceSeries>,
  from: number,
  to: number,
  stepMs: number,
): MoneyPath {
  const times: number[] = [];
  for (let t = from; t < to; t += stepMs) times.push(t);
  times.push(to);
  const pnl: Dec[] = times.map(() => ZERO);
  const total: Dec[] = times.map(() => ZERO);
  const inventoryValue: Record<string, Dec[]> = {};
  for (const [pair, fills] of fillsByPair) {
    const path = pathOf(fills);
    const ref = refs.get(pair);
    const values: Dec[] = [];
    let k = -1;
    times.forEach((t, i) => {
      while (k + 1 < path.at.length && path.at[k + 1]! <= t) k += 1;
      const position = k < 0 ? ZERO : path.position[k]!;
      const cash = k < 0 ? ZERO : path.cash[k]!;
      const value = position.times(ref?.at(t) ?? ZERO);
      values.push(value);
      total[i] = total[i]!.plus(value);
      pnl[i] = pnl[i]!.plus(cash).plus(value);
    });
    inventoryValue[pair] = values;
  }
  let peak = ZERO;
  let maxDrawdown = ZERO;
  for (const v of pnl) {
    if (v.gt(peak)) peak = v;
    if (peak.minus(v).gt(maxDrawdown)) maxDrawdown = peak.minus(v);
  }
  const n = new Dec(total.length);
  const mean = total.reduce((s, v) => s.plus(v), ZERO).div(n);
  const variance = total.reduce((s, v) => s.plus(v.minus(mean).pow(2)), ZERO).div(n);
  return {
    t: times.map((t) => t - from),
    pnl,
    inventoryValue,
    maxDrawdown,
    inventoryValueMean: mean,
    inventoryValueStd: variance.sqrt(),
  };
}

/**
 * The firm's figures of a run with its hedge: this venue's fills and the simulated hedge venue's
 * fills together (`SimCapture.hedgeTrades`), marked to the simulated market's reference. Without a
 * hedge every figure equals this venue's own (`pnlNet` = `pnl`, and so on), so a hedged run and
 * an unhedged one compare on the same keys.
 *
 * - `netInventoryValueStd`: the time-sampled std of the net position's value (both venues).
 * - `hedgeCost`: the hedge's taker fees plus its slippage against the reference (what a fill at
 *   the reference would have cost nothing); positive is a cost.
 * - `pnlNet`: both venues' trading PnL marked to the reference, the hedge's fees deducted. It
 *   splits into the spread captured on this venue, the inventory revaluation of the net position,
 *   and minus the hedge cost.
 */
import { type Dec, ZERO } from '../../../core/decimal.js';
import type { HedgeSimTrade } from '../../hedge/hedge-venue-sim.js';
import { moneyPath, type OwnFill } from './money-figures.js';
import type { ReferenceSeries } from './reference-series.js';

/** The net figures of a run (decimal strings, quote units, 4 places). */
export interface NetFigures {
  readonly netInventoryValueStd: string;
  readonly pnlNet: string;
  readonly netMaxDrawdown: string;
  readonly hedgeFills: number;
  readonly hedgeVolumeQuote: string;
  readonly hedgeFees: string;
  readonly hedgeSlippage: string;
  readonly hedgeCost: string;
}

const money = (d: Dec): string => d.toFixed(4);

/** Every hedge fill as one of the firm's fills (a taker leg), by pair. */
function hedgeFills(trades: Readonly<Record<string, readonly HedgeSimTrade[]>>): OwnFill[] {
  return Object.entries(trades).flatMap(([pair, list]) =>
    list.map((t) => ({
      at: t.at,
      pair,
      side: t.side,
      price: t.price,
      quantity: t.quantity,
      role: 'taker' as const,
    })),
  );
}

/** See the module doc. `stepMs` is the sampling of the money path (the run's own). */
export function netFigures(
  venueFills: ReadonlyMap<string, readonly OwnFill[]>,
  trades: Readonly<Record<string, readonly HedgeSimTrade[]>>,
  refs: ReadonlyMap<string, ReferenceSeries>,
  from: number,
  to: number,
  stepMs: number,
): NetFigures {
  const hedge = hedgeFills(trades);
  const byPair = new Map<string, OwnFill[]>();
  for (const [pair, fills] of venueFills) byPair.set(pair, [...fills]);
  for (const f of hedge) byPair.set(f.pair, [...(byPair.get(f.pair) ?? []), f]);
  for (const list of byPair.values()) list.sort((a, b) => a.at - b.at);
  const path = moneyPath(byPair, refs, from, to, stepMs);
  // The fees paid by each sample time, deducted from the PnL path (and its drawdown).
  const fees = Object.values(trades)
    .flat()
    .map((t) => ({ at: t.at, fee: t.feeQuote }))
    .sort((a, b) => a.at - b.at);
  let k = 0;
  let paid = ZERO;
  let peak = ZERO;
  let maxDrawdown = ZERO;
  let last = ZERO;
  path.t.forEach((t, i) => {
    while (k < fees.length && fees[k]!.at <= from + t) paid = paid.plus(fees[k++]!.fee);
    last = path.pnl[i]!.minus(paid);
    if (last.gt(peak)) peak = last;
    if (peak.minus(last).gt(maxDrawdown)) maxDrawdown = peak.minus(last);
  });
  let slippage = ZERO;
  let volume = ZERO;
  for (const f of hedge) {
    volume = volume.plus(f.price.times(f.quantity));
    const r = refs.get(f.pair)?.at(f.at) ?? null;
    if (r === null) continue;
    const diff = f.price.minus(r).times(f.quantity);
    slippage = slippage.plus(f.side === 'BUY' ? diff : diff.neg());
  }
  const totalFees = fees.reduce((s, f) => s.plus(f.fee), ZERO);
  return {
    netInventoryValueStd: money(path.inventoryValueStd),
    pnlNet: money(last),
    netMaxDrawdown: money(maxDrawdown),
    hedgeFills: hedge.length,
    hedgeVolumeQuote: money(volume),
    hedgeFees: money(totalFees),
    hedgeSlippage: money(slippage),
    hedgeCost: money(totalFees.plus(slippage)),
  };
}

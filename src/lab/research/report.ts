/**
 * Formatting for `ledger-mm research avellaneda-stoikov`: one JSON line per strategy and a human
 * table that sets the simulated figures beside the paper's published ones.
 */
import type { AsSimResult, AsStrategy, AsStrategyStats } from './avellaneda-stoikov-sim.js';
import { AS_STRATEGIES } from './avellaneda-stoikov-sim.js';

/**
 * The published figures the run is compared with. Only what the issue quotes from the paper's
 * γ = 0.1 table is kept here (profit mean and std, final inventory std); figures not checked
 * against the paper are not shown, so the table never prints a remembered number as published.
 */
export interface PaperRow {
  readonly profitMean: number;
  readonly profitStd: number;
  readonly finalQStd: number;
}

/** The reference figures by γ: Avellaneda & Stoikov (2008), γ = 0.1, 1000 runs, as the issue quotes them. */
export const PAPER_TABLES: ReadonlyMap<number, Readonly<Record<AsStrategy, PaperRow>>> = new Map([
  [
    0.1,
    {
      inventory: { profitMean: 65.0, profitStd: 6.6, finalQStd: 2.9 },
      symmetric: { profitMean: 68.4, profitStd: 12.7, finalQStd: 8.4 },
    },
  ],
]);

/** The paper's row for a strategy at this γ, or null when the paper has no table for it. */
export function paperRow(gamma: number, strategy: AsStrategy): PaperRow | null {
  return PAPER_TABLES.get(gamma)?.[strategy] ?? null;
}

/** The JSON record printed for one strategy. */
export interface AsReportLine extends AsStrategyStats {
  readonly study: 'avellaneda-stoikov';
  readonly gamma: number;
  readonly runs: number;
  readonly steps: number;
  readonly seed: number | string;
  /** (2/γ)·ln(1 + γ/k): the spread at τ = 0, comparable with the paper's spread column. */
  readonly spreadAtHorizon: number;
  /** The paper's published row for this γ and strategy, or null. */
  readonly paper: PaperRow | null;
}

/** The JSON records for a result, inventory strategy first. */
export function reportLines(result: AsSimResult, seed: number | string): AsReportLine[] {
  return AS_STRATEGIES.map((strategy) => {
    const s = result[strategy];
    return {
      study: 'avellaneda-stoikov',
      strategy,
      gamma: result.params.gamma,
      runs: result.params.runs,
      steps: result.steps,
      seed,
      spread: s.spread,
      spreadAtHorizon: result.spreadAtHorizon,
      profitMean: s.profitMean,
      profitStd: s.profitStd,
      finalQMean: s.finalQMean,
      finalQStd: s.finalQStd,
      tradesMean: s.tradesMean,
      paper: paperRow(result.params.gamma, strategy),
    };
  });
}

/** One JSON line per strategy, each terminated by a newline. */
export function formatJsonLines(result: AsSimResult, seed: number | string): string {
  return reportLines(result, seed)
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('');
}

const COLUMNS = ['Strategy', 'Spread', 'Profit', 'Std(profit)', 'Final q', 'Std(q)', 'Fills'] as const;

function fixed(x: number, digits = 2): string {
  return x.toFixed(digits);
}

/** Right-aligns every column but the first, which is left-aligned. */
function align(rows: readonly (readonly string[])[]): string {
  const widths = COLUMNS.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The human-readable table: simulated figures per strategy, each with the paper's row below. */
export function formatTable(result: AsSimResult, seed: number | string): string {
  const p = result.params;
  const rows: string[][] = [[...COLUMNS]];
  for (const strategy of AS_STRATEGIES) {
    const s = result[strategy];
    rows.push([
      strategy === 'inventory' ? 'Inventory' : 'Symmetric',
      fixed(s.spread),
      fixed(s.profitMean),
      fixed(s.profitStd),
      fixed(s.finalQMean, 3),
      fixed(s.finalQStd),
      fixed(s.tradesMean, 1),
    ]);
    const paper = paperRow(p.gamma, strategy);
    if (paper !== null) {
      rows.push([
        '  paper',
        '',
        fixed(paper.profitMean),
        fixed(paper.profitStd),
        '',
        fixed(paper.finalQStd),
        '',
      ]);
    }
  }
  return [
    `Avellaneda & Stoikov (2008) simulation: γ = ${p.gamma}, ${p.runs} runs × ${result.steps} steps, seed ${String(seed)}`,
    `S0 = ${p.s0}, T = ${p.T}, σ = ${p.sigma}, dt = ${p.dt}, k = ${p.k}, A = ${p.A}, q0 = ${p.q0}, cash0 = ${p.cash0}`,
    '',
    align(rows),
    '',
    `Spread is the mean quoted spread, γσ²(T−t) + (2/γ)·ln(1+γ/k); its τ-independent term`,
    `(2/γ)·ln(1+γ/k) = ${fixed(result.spreadAtHorizon)}. Profit is cash + q·S(T). Fills: mean per run.`,
    PAPER_TABLES.has(p.gamma)
      ? ''
      : `No published reference figures are kept for γ = ${p.gamma} (only for 0.1).`,
  ]
    .join('\n')
    .trimEnd()
    .concat('\n');
}

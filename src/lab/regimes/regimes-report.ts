/**
 * The robustness report of `simulate --regimes`: per regime of a suite, each strategy's mean over
 * the seeds of PnL, spread captured, markout at 60 s, inventory std, two-sided uptime and halts;
 * the worst regime for the daemon, named; and the targets (the daemon's mean PnL ≥ 0 where no
 * loss is expected; where one is, at most half of cancel-then-replace's; the daemon above every
 * baseline in every regime). Built from each regime's multi-seed report; nothing of the machine.
 */
import { formatTable } from '../../core/text-table.js';
import type { Check } from '../simulate/figures/report.js';
import type { SeedsReport } from '../simulate/figures/seeds-report.js';
import type { StrategyName } from '../simulate/run/strategies.js';
import type { Regime } from './suite.js';

/** The columns of the per-regime table: figure key (of the figure catalogue) and heading. */
export const REGIME_COLUMNS: readonly (readonly [key: string, heading: string])[] = [
  ['pnl', 'mean PnL'],
  ['spreadCapturedBps', 'captured (bps)'],
  ['markout60Bps', 'markout 60 s (bps)'],
  ['inventoryValueStd', 'inventory std'],
  ['twoSidedAfterFirst', 'two-sided'],
  ['halts', 'halts'],
];

/** The multi-seed report's check of the invariants, carried over every regime. */
export const INVARIANTS_CHECK = 'zero invariant breaks';

/** One strategy in one regime: the means over the seeds (null when no seed had a value). */
export interface RegimeStrategyFigures {
  readonly strategy: StrategyName;
  /** Mean over the seeds, by figure key of {@link REGIME_COLUMNS}. */
  readonly means: Readonly<Record<string, number | null>>;
  readonly minPnl: number | null;
}

/** One regime's results. */
export interface RegimeResult {
  readonly name: string;
  readonly description: string;
  readonly lossExpected: boolean;
  /** The daemon first, then the baselines. */
  readonly strategies: readonly RegimeStrategyFigures[];
}

/** The whole report. */
export interface RegimesReport {
  readonly tool: 'ledger-mm simulate';
  readonly formatVersion: 1;
  readonly kind: 'regimes';
  readonly suite: string;
  readonly scenario: Omit<SeedsReport['scenario'], 'regime'>;
  readonly regimes: readonly RegimeResult[];
  /** The regime where the daemon's mean PnL is lowest. */
  readonly worst: { readonly regime: string; readonly daemonMeanPnl: number | null };
  readonly checks: readonly Check[];
}

/** One regime's figures from its multi-seed report. */
export function regimeResult(regime: Regime, report: SeedsReport): RegimeResult {
  const strategies = [...new Set(report.spread.map((x) => x.strategy))];
  return {
    name: regime.name,
    description: regime.description,
    lossExpected: regime.lossExpected === true,
    strategies: strategies.map((strategy) => {
      const means: Record<string, number | null> = {};
      let minPnl: number | null = null;
      for (const [key] of REGIME_COLUMNS) {
        const x = report.spread.find((s) => s.strategy === strategy && s.key === key);
        means[key] = x?.mean ?? null;
        if (key === 'pnl') minPnl = x?.min ?? null;
      }
      return { strategy, means, minPnl };
    }),
  };
}

const pnlOf = (r: RegimeResult, s: StrategyName): number | null =>
  r.strategies.find((x) => x.strategy === s)?.means['pnl'] ?? null;

/** The targets over the regimes. */
export function regimeChecks(regimes: readonly RegimeResult[]): Check[] {
  const fmt = (x: number | null): string => (x === null ? '-' : x.toFixed(0));
  const checks: Check[] = [];
  for (const r of regimes) {
    const daemon = pnlOf(r, 'daemon');
    if (r.lossExpected) {
      const ctr = pnlOf(r, 'cancel-then-replace');
      const ok = daemon !== null && ctr !== null && (daemon >= 0 || (ctr < 0 && -daemon <= -ctr / 2));
      checks.push({
        name: `${r.name}: the daemon loses at most half of cancel-then-replace's loss`,
        ok,
        detail: `daemon ${fmt(daemon)}, cancel-then-replace ${fmt(ctr)}`,
      });
    } else {
      checks.push({
        name: `${r.name}: the daemon's mean PnL ≥ 0`,
        ok: daemon !== null && daemon >= 0,
        detail: `daemon ${fmt(daemon)}`,
      });
    }
    const baselines = r.strategies.filter((x) => x.strategy !== 'daemon');
    const behind = baselines.filter((b) => daemon === null || (b.means['pnl'] ?? -Infinity) >= daemon);
    checks.push({
      name: `${r.name}: the daemon's mean PnL beats every baseline`,
      ok: baselines.length > 0 && behind.length === 0,
      detail: baselines.map((b) => `${b.strategy} ${fmt(b.means['pnl'] ?? null)}`).join(', '),
    });
  }
  return checks;
}

/** Assembles the report from each regime's multi-seed report, in suite order. */
export function buildRegimesReport(
  suite: string,
  runs: readonly { readonly regime: Regime; readonly report: SeedsReport }[],
): RegimesReport {
  const first = runs[0];
  if (first === undefined) throw new RangeError('no regimes');
  const regimes = runs.map((x) => regimeResult(x.regime, x.report));
  let worst: RegimesReport['worst'] = {
    regime: regimes[0]!.name,
    daemonMeanPnl: pnlOf(regimes[0]!, 'daemon'),
  };
  for (const r of regimes) {
    const p = pnlOf(r, 'daemon');
    if (p !== null && (worst.daemonMeanPnl === null || p < worst.daemonMeanPnl))
      worst = { regime: r.name, daemonMeanPnl: p };
  }
  // Each regime's report names its regime; the suite's scenario is theirs without it.
  const { regime: _regime, ...scenario } = first.report.scenario;
  const broken = runs.filter((x) => x.report.checks.some((c) => c.name === INVARIANTS_CHECK && !c.ok));
  return {
    tool: 'ledger-mm simulate',
    formatVersion: 1,
    kind: 'regimes',
    suite,
    scenario,
    regimes,
    worst,
    checks: [
      ...regimeChecks(regimes),
      {
        name: INVARIANTS_CHECK,
        ok: broken.length === 0,
        detail:
          broken.length === 0 ? 'every run' : `broken in ${broken.map((x) => x.regime.name).join(', ')}`,
      },
    ],
  };
}

/** A mean as printed. */
export function regimeCell(key: string, v: number | null): string {
  if (v === null) return '-';
  if (key === 'twoSidedAfterFirst') return `${(v * 100).toFixed(2)} %`;
  if (key === 'pnl' || key === 'inventoryValueStd') return v.toFixed(0);
  if (key === 'halts') return Number.isInteger(v) ? String(v) : v.toFixed(2);
  return v.toFixed(2);
}

/** The table rows: one per regime and strategy. */
export function regimeRows(r: RegimesReport): { headers: string[]; rows: string[][] } {
  return {
    headers: ['regime', 'strategy', ...REGIME_COLUMNS.map(([, h]) => h), 'min PnL'],
    rows: r.regimes.flatMap((g) =>
      g.strategies.map((s) => [
        g.name,
        s.strategy,
        ...REGIME_COLUMNS.map(([k]) => regimeCell(k, s.means[k] ?? null)),
        regimeCell('pnl', s.minPnl),
      ]),
    ),
  };
}

/** The printed summary. */
export function formatRegimesSummary(r: RegimesReport): string {
  const s = r.scenario;
  const t = regimeRows(r);
  const lines = [
    `suite ${r.suite}: ${r.regimes.length} regimes × seeds ${s.seeds.join(', ')}, ${s.hours} simulated hours each, latency ${s.latency}, pairs ${s.pairs.join(', ')}; config/paper.json${s.configFiles.map((f) => ` + ${f}`).join('')}; market ${s.market ?? 'config/sim.json'}`,
    ...r.regimes.map((g) => `  ${g.name}: ${g.description}`),
    '',
    'Means over the seeds:',
    formatTable(t.headers, t.rows),
    `worst regime for the daemon: ${r.worst.regime} (mean PnL ${regimeCell('pnl', r.worst.daemonMeanPnl)})`,
    ...r.checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`),
  ];
  return `${lines.join('\n')}\n`;
}

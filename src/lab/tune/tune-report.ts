import { formatTable } from '../../core/text-table.js';
import type { CandidateScore, TuneReport } from './tune.js';

/** The printed report of `ledger-mm tune`: the objective, the training ranking, the test figures. */

const fixed = (x: number | null, d: number, unit = ''): string =>
  x === null ? '-' : `${x.toFixed(d)}${unit}`;

const HEADERS = [
  'candidate',
  'parameters',
  'mean PnL',
  'min PnL',
  'PnL > 0',
  'captured',
  'markout 60 s',
  'inventory std',
  'min two-sided',
  'halts',
  'constraints',
];

function row(s: CandidateScore): string[] {
  return [
    `c${s.index}`,
    s.text,
    fixed(s.meanPnl, 2),
    fixed(s.minPnl, 2),
    `${s.positivePnlSeeds}/${s.seeds.length}`,
    fixed(s.meanCapturedBps, 2, ' bps'),
    fixed(s.meanMarkout60Bps, 2, ' bps'),
    fixed(s.meanInventoryStd, 0),
    `${(s.minUptime * 100).toFixed(2)} %`,
    String(s.halts),
    s.misses.length === 0 ? 'met' : `missed: ${s.misses.join(', ')}`,
  ];
}

/** With regimes: each candidate's objective and its mean PnL per regime. */
function regimeTable(r: TuneReport, scores: readonly CandidateScore[]): string {
  const names = r.regimes?.names ?? [];
  return formatTable(
    ['candidate', `objective (${r.regimes?.rankOn ?? 'mean'})`, ...names],
    scores.map((s) => [
      `c${s.index}`,
      fixed(s.objectivePnl, 2),
      ...names.map((n) => fixed(s.regimePnl?.[n] ?? null, 2)),
    ]),
  );
}

/** The whole printed report. */
export function formatTune(r: TuneReport): string {
  const s = r.scenario;
  const lines = [
    `${s.hours} simulated hours a run, latency ${s.latency}; config/paper.json${s.configFiles.map((f) => ` + ${f}`).join('')}; market ${s.market ?? 'config/sim.json'}`,
    `searched: ${r.params.map((p) => `${p.key} ∈ {${p.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}}`).join('; ')}`,
    `objective: ${r.objective.text}`,
    '',
    `Training seeds ${r.train.join(', ')}: ${r.trainRanking.length} candidates, best first (c0 is the config as it is):`,
    formatTable(HEADERS, r.trainRanking.map(row)),
  ];
  if (r.regimes !== undefined)
    lines.push('Mean PnL per regime on the training seeds:', regimeTable(r, r.trainRanking));
  if (r.testScores.length > 0) {
    lines.push(
      `Test seeds ${r.test.join(', ')} (never seen by the ranking): the best on training and c0, in training order:`,
      formatTable(HEADERS, r.testScores.map(row)),
    );
    if (r.regimes !== undefined)
      lines.push('Mean PnL per regime on the test seeds:', regimeTable(r, r.testScores));
    const best = r.testScores.find((x) => x.index !== 0);
    const base = r.testScores.find((x) => x.index === 0);
    if (best !== undefined && base !== undefined) {
      lines.push(
        `best on training (c${best.index}) on the test seeds: mean PnL ${best.meanPnl.toFixed(2)} against ${base.meanPnl.toFixed(2)} for the config as it is`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

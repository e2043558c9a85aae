/**
 * The text a simulation prints: the scenario, the venue's limit, the figures (with the baselines
 * beside them under `--compare`), the pairs, and the targets. Plain-text tables, two spaces
 * between columns.
 */
import { Dec } from '../../../core/decimal.js';
import { formatTable } from '../../../core/text-table.js';
import { FIGURES } from '../figures/figure-catalogue.js';
import type { RunFigures } from '../figures/figures.js';
import type { SimulationReport } from '../figures/report.js';
import type { VenueLimit } from '../figures/venue-limit.js';

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
/** A base quantity to 4 decimal places for the table (report.json keeps 8). */
const trim = (s: string): string => new Dec(s).toFixed(4);
const pct = (x: number | null): string => (x === null ? '-' : `${(x * 100).toFixed(1)} %`);

/** The venue limit, two lines. */
export function formatLimit(limit: VenueLimit, daemon: RunFigures): string {
  return [
    `Venue limit (one placement in flight: prepare ${secs(limit.prepareMs)} + submit ${secs(limit.submitMs)} + confirm ${secs(limit.confirmMs)} = ${secs(limit.placementMs)} per placement, at the profile's means):`,
    `  least time to two-sided: ${secs(limit.minTimeToTwoSidedMs)} (the daemon: ${daemon.timeToFirstTwoSidedMs === null ? 'never' : secs(daemon.timeToFirstTwoSidedMs)}, the limit is ${pct(daemon.vsLimit.timeToTwoSidedShare)} of it)`,
    `  most placements per hour: ${limit.maxPlacementsPerHour.toFixed(1)} (the daemon: ${daemon.placementsPerHour.toFixed(1)}, ${pct(daemon.vsLimit.placementRateShare)} of the limit)`,
    `  most two-sided uptime after the run's ${daemon.fullFills} full fills (each empties its side for at least one placement): ${pct(daemon.twoSidedBound)} (the daemon: ${pct(daemon.twoSidedAfterFirst)})`,
  ].join('\n');
}

/** The figures table: one value column per run, and `× daemon` beside each baseline. */
export function formatFigures(report: SimulationReport): string {
  const [daemon, ...baselines] = report.runs;
  if (daemon === undefined) return '';
  const headers = ['figure', daemon.strategy, ...baselines.flatMap((b) => [b.strategy, '× daemon'])];
  const rows = FIGURES.map((f, i) => {
    const row = report.compare?.[i];
    return [
      f.label,
      f.text(daemon),
      ...baselines.flatMap((b, j) => {
        const r = row?.baselines[j]?.ratio ?? null;
        return [f.text(b), r === null ? '-' : r.toFixed(2)];
      }),
    ];
  });
  return formatTable(headers, rows);
}

/** One row per pair of the daemon's run. */
export function formatPairs(daemon: RunFigures): string {
  const headers = [
    'pair',
    'two-sided',
    'first at',
    'longest gap',
    'spread',
    'fills',
    'volume',
    'captured',
    'inventory mean ± std',
    'position',
    'PnL',
  ];
  const rows = daemon.pairs.map((p) => [
    p.pair,
    `${(p.twoSidedAfterFirst * 100).toFixed(2)} %`,
    p.timeToTwoSidedMs === null ? 'never' : secs(p.timeToTwoSidedMs),
    secs(p.longestOneSidedMs),
    p.avgQuotedSpreadBps === null ? '-' : `${p.avgQuotedSpreadBps.toFixed(2)} bps`,
    String(p.fills),
    p.volumeQuote,
    p.spreadCapturedBps === null ? '-' : `${p.spreadCapturedBps.toFixed(2)} bps`,
    `${trim(p.inventoryMean)} ± ${trim(p.inventoryStd)}`,
    p.finalPosition,
    p.pnl,
  ]);
  return formatTable(headers, rows);
}

/** One line per halt or guard episode of a run (none when it had none). */
export function formatEpisodes(run: RunFigures): string[] {
  const total = run.halts.count + run.guardTrips.count;
  if (total === 0) return [];
  const lines = [
    `${run.strategy}: ${run.halts.count} halt(s) for ${secs(run.halts.totalMs)}, ${run.guardTrips.count} inventory guard trip(s) for ${secs(run.guardTrips.totalMs)}${total > run.guardEpisodes.length ? ` (first ${run.guardEpisodes.length} listed)` : ''}:`,
  ];
  for (const e of run.guardEpisodes) {
    lines.push(
      `  ${e.kind === 'halt' ? 'HALT' : 'trip'}  ${e.pair ?? 'account'}  ${e.rule}  at ${secs(e.start)} for ${secs(e.end - e.start)}: ${e.detail}`,
    );
  }
  return lines;
}

/** The whole printed summary. */
export function formatSummary(report: SimulationReport): string {
  const s = report.scenario;
  const daemon = report.runs[0];
  if (daemon === undefined) return '';
  const lines = [
    `${s.hours} simulated hours, latency ${s.latency}, seed ${String(s.seed)}, pairs ${s.pairs.join(', ')}; config/paper.json${s.configFiles.map((f) => ` + ${f}`).join('')}; market ${s.market ?? 'config/sim.json'}`,
    '',
    formatLimit(report.venueLimit, daemon),
    '',
    formatFigures(report),
    formatPairs(daemon),
    ...report.checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`),
  ];
  for (const r of report.runs) lines.push(...formatEpisodes(r));
  const b = daemon.invariantBreaks;
  if (b.total > 0) {
    lines.push(
      `invariant breaks: ${b.duplicateCommits} duplicate commits, ${b.duplicateLive} duplicate live orders, ${b.overlappingPlacements} overlapping placements, ${b.concurrentPrepares} concurrent prepares`,
    );
  }
  if (daemon.daemon.errors > 0) lines.push(`daemon errors: ${daemon.daemon.messages.join(' | ')}`);
  return `${lines.join('\n')}\n`;
}

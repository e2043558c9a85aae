/**
 * `report.html`: one self-contained page (inline CSS and SVG, no script, no external link or
 * resource) with the scenario, the targets, the figures (beside the baselines' under
 * `--compare`), the venue's limit, and the charts of the daemon's run: per pair the reference
 * price with the daemon's best bid and ask and its fills; the inventory value per pair; the PnL;
 * and the occupancy of the placement pipeline.
 */
import { FIGURES } from '../figures/figure-catalogue.js';
import type { SimulationReport } from '../figures/report.js';
import { esc, lineChart, stackedBars } from './svg-chart.js';

const COLORS = { reference: '#555', bid: '#1a7f37', ask: '#cf222e', buy: '#1a7f37', sell: '#cf222e' };
const PAIR_COLORS = ['#0969da', '#bf8700', '#8250df', '#1a7f37', '#cf222e'];
const PHASES = [
  { key: 'prepare', name: 'prepare', color: '#0969da' },
  { key: 'sign', name: 'sign + checks', color: '#8250df' },
  { key: 'submit', name: 'submit', color: '#bf8700' },
  { key: 'confirm', name: 'awaiting commit', color: '#1a7f37' },
] as const;

const CSS = `body{font-family:sans-serif;margin:24px;color:#1f2328;max-width:1000px}
table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #d0d7de;padding:3px 8px;font-size:13px;text-align:right}
td:first-child,th:first-child{text-align:left}.ok{color:#1a7f37}.fail{color:#cf222e}h2{margin-top:28px}svg{display:block;margin:10px 0}`;

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = `<tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  return `<table>${head}${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</table>`;
}

function figuresTable(r: SimulationReport): string {
  const [daemon, ...baselines] = r.runs;
  if (daemon === undefined) return '';
  const headers = ['figure', daemon.strategy, ...baselines.flatMap((b) => [b.strategy, '× daemon'])];
  const rows = FIGURES.map((f, i) => [
    f.label,
    f.text(daemon),
    ...baselines.flatMap((b, j) => {
      const ratio = r.compare?.[i]?.baselines[j]?.ratio ?? null;
      return [f.text(b), ratio === null ? '-' : ratio.toFixed(2)];
    }),
  ]);
  return table(headers, rows);
}

function pairsTable(r: SimulationReport): string {
  const daemon = r.runs[0];
  if (daemon === undefined) return '';
  const s = (ms: number | null): string => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);
  return table(
    [
      'pair',
      'two-sided',
      'first two-sided',
      'longest one-sided',
      'quoted spread',
      'fills',
      'volume',
      'captured',
      'inventory mean ± std',
      'PnL',
    ],
    daemon.pairs.map((p) => [
      p.pair,
      `${(p.twoSidedAfterFirst * 100).toFixed(2)} %`,
      s(p.timeToTwoSidedMs),
      s(p.longestOneSidedMs),
      p.avgQuotedSpreadBps === null ? '-' : `${p.avgQuotedSpreadBps.toFixed(2)} bps`,
      String(p.fills),
      p.volumeQuote,
      p.spreadCapturedBps === null ? '-' : `${p.spreadCapturedBps.toFixed(2)} bps`,
      `${p.inventoryMean} ± ${p.inventoryStd}`,
      p.pnl,
    ]),
  );
}

/** Every halt and guard trip of every run, or a line saying there was none. */
function episodesTable(r: SimulationReport): string {
  const rows = r.runs.flatMap((run) =>
    run.guardEpisodes.map((e) => [
      run.strategy,
      e.kind === 'halt' ? 'HALT' : 'reducing only',
      e.pair ?? 'account',
      e.rule,
      `${(e.start / 3_600_000).toFixed(2)} h`,
      `${((e.end - e.start) / 60_000).toFixed(1)} min`,
      e.detail,
    ]),
  );
  const counts = r.runs
    .map((run) => `${run.strategy}: ${run.halts.count} halt(s), ${run.guardTrips.count} inventory trip(s)`)
    .join('; ');
  if (rows.length === 0) return `<p>None (${esc(counts)}).</p>`;
  return `<p class="fail">${esc(counts)}.</p>${table(['run', 'kind', 'pair', 'rule', 'from', 'for', 'reason'], rows)}`;
}

function charts(r: SimulationReport): string {
  const s = r.series;
  const out: string[] = [];
  for (const p of s.pairs) {
    out.push(
      lineChart({
        title: `${p.pair}: reference price, the daemon's best bid and ask, fills`,
        durationMs: s.durationMs,
        yLabel: `price (${p.pair.split('/')[1] ?? 'quote'})`,
        height: 300,
        lines: [
          { name: 'reference', color: COLORS.reference, points: p.reference },
          { name: 'bid', color: COLORS.bid, points: p.bid, step: true },
          { name: 'ask', color: COLORS.ask, points: p.ask, step: true },
        ],
        markers: [
          {
            name: 'we bought',
            color: COLORS.buy,
            shape: 'up',
            points: p.fills.filter((f) => f[2] > 0).map((f) => [f[0], f[1]] as const),
          },
          {
            name: 'we sold',
            color: COLORS.sell,
            shape: 'down',
            points: p.fills.filter((f) => f[2] < 0).map((f) => [f[0], f[1]] as const),
          },
        ],
      }),
    );
  }
  out.push(
    lineChart({
      title: 'Inventory: position × reference',
      yLabel: 'inventory value (quote units)',
      durationMs: s.durationMs,
      lines: s.inventory.map((x, i) => ({
        name: x.pair,
        color: PAIR_COLORS[i % PAIR_COLORS.length]!,
        points: x.points,
      })),
    }),
    lineChart({
      title: 'PnL: trading cash flows + position at the reference',
      yLabel: 'PnL (quote units)',
      durationMs: s.durationMs,
      lines: [{ name: 'PnL', color: '#0969da', points: s.pnl, width: 1.5 }],
    }),
  );
  const bucketMs = s.occupancy.length > 1 ? s.occupancy[1]!.t - s.occupancy[0]!.t : s.durationMs;
  out.push(
    stackedBars({
      title: 'Placement pipeline occupancy, by phase',
      yLabel: 'share of each bucket (0–1)',
      durationMs: s.durationMs,
      bucketMs,
      buckets: s.occupancy.map((b) => ({ t: b.t, values: PHASES.map((ph) => b[ph.key]) })),
      keys: PHASES,
    }),
  );
  return out.join('\n');
}

/** Renders the report page. */
export function renderHtml(r: SimulationReport): string {
  const sc = r.scenario;
  const l = r.venueLimit;
  const daemon = r.runs[0];
  const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const checks = r.checks
    .map(
      (c) =>
        `<li class="${c.ok ? 'ok' : 'fail'}">${c.ok ? 'PASS' : 'FAIL'}: ${esc(c.name)} (${esc(c.detail)})</li>`,
    )
    .join('');
  const strategies = Object.entries(sc.strategies)
    .map(([name, text]) => `<li><b>${esc(name)}</b>: ${esc(text)}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ledger-mm simulate: ${esc(sc.pairs.join(', '))}, ${sc.hours} h</title><style>${CSS}</style></head>
<body>
<h1>ledger-mm simulate</h1>
<p>${sc.hours} simulated hours from ${esc(sc.simulatedStart)}, latency <b>${esc(sc.latency)}</b>, seed <b>${esc(String(sc.seed))}</b>, pairs ${esc(sc.pairs.join(', '))}. Daemon config: config/paper.json${esc(sc.configFiles.map((f) => ` + ${f}`).join(''))}; market: ${esc(sc.market ?? 'config/sim.json')}. Every figure comes from the simulated venue's ground truth.</p>
<ul>${strategies}</ul>
<h2>Targets</h2><ul>${checks}</ul>
<h2>Figures</h2>${figuresTable(r)}
<h2>Halts and guard trips</h2>${episodesTable(r)}
<h2>Venue limit</h2>
<p>One placement in flight per party: prepare ${secs(l.prepareMs)} + submit ${secs(l.submitMs)} + confirm ${secs(l.confirmMs)} = ${secs(l.placementMs)} per placement at the profile's means. Least time to two-sided: <b>${secs(l.minTimeToTwoSidedMs)}</b>; most placements per hour: <b>${l.maxPlacementsPerHour.toFixed(1)}</b>.${
    daemon === undefined
      ? ''
      : ` The daemon: first two-sided after ${daemon.timeToFirstTwoSidedMs === null ? 'never' : secs(daemon.timeToFirstTwoSidedMs)} (the limit is ${daemon.vsLimit.timeToTwoSidedShare === null ? '-' : `${(daemon.vsLimit.timeToTwoSidedShare * 100).toFixed(1)} %`} of it), ${daemon.placementsPerHour.toFixed(1)} placements per hour (${(daemon.vsLimit.placementRateShare * 100).toFixed(1)} % of the limit). Its ${daemon.fullFills} full fills each emptied a side for at least one placement: two-sided uptime could not exceed ${(daemon.twoSidedBound * 100).toFixed(2)} % (the daemon: ${(daemon.twoSidedAfterFirst * 100).toFixed(2)} %).`
  }</p>
<h2>Pairs (daemon)</h2>${pairsTable(r)}
<h2>Charts (daemon)</h2>
${charts(r)}
</body></html>
`;
}

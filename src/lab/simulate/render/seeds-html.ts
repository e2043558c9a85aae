/**
 * The multi-seed `report.html`: one self-contained page (inline CSS and SVG, no script) with the
 * targets over every seed, the per-seed table, the mean, minimum and maximum of every figure, and
 * the spread of the main figures drawn seed by seed for each strategy. Each seed's own report,
 * with its charts, is linked (`seed-N/report.html` beside this page).
 */
import { FIGURES } from '../figures/figure-catalogue.js';
import { seedRows, spreadRows, type SeedsReport } from '../figures/seeds-report.js';
import { esc, ticks } from './svg-chart.js';

const CSS = `body{font-family:sans-serif;margin:24px;color:#1f2328;max-width:1200px}
table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #d0d7de;padding:3px 8px;font-size:13px;text-align:right}
td:first-child,th:first-child{text-align:left}.ok{color:#1a7f37}.fail{color:#cf222e}h2{margin-top:28px}svg{display:block;margin:10px 0}`;
const STRATEGY_COLORS = ['#0969da', '#cf222e', '#bf8700', '#8250df'];

/** The figures drawn seed by seed, with the unit of their axis. */
const SPREAD_CHARTS: readonly { key: string; unit: string; scale: number }[] = [
  { key: 'pnl', unit: 'PnL (quote units)', scale: 1 },
  { key: 'spreadCapturedBps', unit: 'spread captured (bps of volume)', scale: 1 },
  { key: 'markout60Bps', unit: 'markout at 60 s (bps)', scale: 1 },
  { key: 'inventoryValueStd', unit: 'inventory value std (quote units)', scale: 1 },
  { key: 'twoSidedAfterFirst', unit: 'two-sided uptime (%)', scale: 100 },
];

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = `<tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  return `<table>${head}${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</table>`;
}

/** One figure, a column per seed, a dot per strategy, each strategy's mean dashed. */
function seedChart(r: SeedsReport, key: string, unit: string, scale: number): string {
  const def = FIGURES.find((f) => f.key === key);
  if (def === undefined) return '';
  const strategies = [...new Set(r.seeds.flatMap((s) => s.runs.map((x) => x.strategy)))];
  const w = 960;
  const h = 260;
  const pad = { left: 88, right: 16, top: 52, bottom: 44 };
  const points = r.seeds.flatMap((s, i) =>
    s.runs.flatMap((run) => {
      const v = def.value(run);
      if (v === null) return [];
      const x = (typeof v === 'number' ? v : v.toNumber()) * scale;
      return [{ i, strategy: run.strategy, v: x }];
    }),
  );
  let lo = Math.min(0, ...points.map((p) => p.v));
  let hi = Math.max(0, ...points.map((p) => p.v));
  if (hi === lo) [lo, hi] = [lo - 1, hi + 1];
  const margin = (hi - lo) * 0.08;
  lo -= margin;
  hi += margin;
  const cols = Math.max(1, r.seeds.length);
  const x = (i: number): number => pad.left + ((w - pad.left - pad.right) * (i + 0.5)) / cols;
  const y = (v: number): number => h - pad.bottom - ((h - pad.top - pad.bottom) * (v - lo)) / (hi - lo);
  const color = (s: string): string =>
    STRATEGY_COLORS[strategies.indexOf(s as never) % STRATEGY_COLORS.length]!;
  const grid = ticks(lo, hi)
    .map(
      (v) =>
        `<line x1="${pad.left}" x2="${w - pad.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="${v === 0 ? '#999' : '#eee'}"/><text x="${pad.left - 4}" y="${(y(v) + 3).toFixed(1)}" font-size="10" text-anchor="end">${Number(v.toPrecision(6))}</text>`,
    )
    .join('');
  const seedTicks = r.seeds
    .map(
      (s, i) =>
        `<text x="${x(i).toFixed(1)}" y="${h - pad.bottom + 14}" font-size="10" text-anchor="middle">${s.seed}</text>`,
    )
    .join('');
  const dots = points
    .map((p) => {
      const dx = (strategies.indexOf(p.strategy) - (strategies.length - 1) / 2) * 8;
      return `<circle cx="${(x(p.i) + dx).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="3.5" fill="${color(p.strategy)}"/>`;
    })
    .join('');
  const means = strategies
    .map((s) => {
      const vs = points.filter((p) => p.strategy === s).map((p) => p.v);
      if (vs.length === 0) return '';
      const m = y(vs.reduce((a, b) => a + b, 0) / vs.length).toFixed(1);
      return `<line x1="${pad.left}" x2="${w - pad.right}" y1="${m}" y2="${m}" stroke="${color(s)}" stroke-dasharray="5 4"/>`;
    })
    .join('');
  const legend = strategies
    .map(
      (s, i) =>
        `<g transform="translate(${pad.left + i * 200},34)"><rect width="10" height="10" y="-9" fill="${color(s)}"/><text x="14" font-size="11">${esc(s)} (dashed: mean)</text></g>`,
    )
    .join('');
  const labels =
    `<text x="${pad.left + (w - pad.left - pad.right) / 2}" y="${h - 6}" font-size="11" text-anchor="middle">seed</text>` +
    `<text transform="translate(14,${pad.top + (h - pad.top - pad.bottom) / 2}) rotate(-90)" font-size="11" text-anchor="middle">${esc(unit)}</text>`;
  const frame = `<rect x="${pad.left}" y="${pad.top}" width="${w - pad.left - pad.right}" height="${h - pad.top - pad.bottom}" fill="none" stroke="#999"/>`;
  return `<svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" font-family="sans-serif"><text x="${pad.left}" y="16" font-size="13" font-weight="bold">${esc(`${def.label}, by seed`)}</text>${legend}${labels}${grid}${seedTicks}${frame}${means}${dots}</svg>`;
}

/** Renders the multi-seed report page. */
export function renderSeedsHtml(r: SeedsReport): string {
  const sc = r.scenario;
  const checks = r.checks
    .map(
      (c) =>
        `<li class="${c.ok ? 'ok' : 'fail'}">${c.ok ? 'PASS' : 'FAIL'}: ${esc(c.name)} (${esc(c.detail)})</li>`,
    )
    .join('');
  const strategies = Object.entries(sc.strategies)
    .map(([name, text]) => `<li><b>${esc(name)}</b>: ${esc(text)}</li>`)
    .join('');
  const per = seedRows(r);
  const spread = spreadRows(r);
  const links = r.seeds.map((s) => `<a href="seed-${s.seed}/report.html">seed ${s.seed}</a>`).join(' · ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ledger-mm simulate: ${r.seeds.length} seeds, ${sc.hours} h</title><style>${CSS}</style></head>
<body>
<h1>ledger-mm simulate: ${r.seeds.length} seeds</h1>
<p>${sc.hours} simulated hours from ${esc(sc.simulatedStart)} on each of seeds ${esc(sc.seeds.join(', '))}, latency <b>${esc(sc.latency)}</b>, pairs ${esc(sc.pairs.join(', '))}. Daemon config: config/paper.json${esc(sc.configFiles.map((f) => ` + ${f}`).join(''))}; market: ${esc(sc.market ?? 'config/sim.json')}. Every figure comes from the simulated venue's ground truth. Each seed's report: ${links}.</p>
<ul>${strategies}</ul>
<h2>Targets</h2><ul>${checks}</ul>
<h2>Per seed</h2>${table(per.headers, per.rows)}
<h2>Over the seeds: mean, minimum, maximum</h2>${table(spread.headers, spread.rows)}
<h2>Spread of the results</h2>
${SPREAD_CHARTS.map((c) => seedChart(r, c.key, c.unit, c.scale)).join('\n')}
</body></html>
`;
}

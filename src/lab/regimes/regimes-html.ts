/**
 * `report.html` of `simulate --regimes`: one self-contained page with the per-regime table, the
 * worst regime, the targets, and a link to each regime's own multi-seed report.
 */
import { esc } from '../simulate/render/svg-chart.js';
import { regimeRows, type RegimesReport } from './regimes-report.js';

/** The page. */
export function renderRegimesHtml(r: RegimesReport): string {
  const t = regimeRows(r);
  const head = t.headers.map((h) => `<th>${esc(h)}</th>`).join('');
  const rows = t.rows
    .map((row) => {
      const worst = row[0] === r.worst.regime && row[1] === 'daemon';
      return `<tr${worst ? ' class="worst"' : ''}>${row.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`;
    })
    .join('\n');
  const regimes = r.regimes
    .map(
      (g) => `<li><a href="${esc(g.name)}/report.html"><b>${esc(g.name)}</b></a>: ${esc(g.description)}</li>`,
    )
    .join('\n');
  const checks = r.checks
    .map(
      (c) =>
        `<li class="${c.ok ? 'pass' : 'fail'}">${c.ok ? 'PASS' : 'FAIL'} ${esc(c.name)}: ${esc(c.detail)}</li>`,
    )
    .join('\n');
  const s = r.scenario;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ledger-mm simulate: regimes (${esc(r.suite)})</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
td:first-child,td:nth-child(2){text-align:left}tr.worst{background:#fde8e8}
li.pass{color:#176317}li.fail{color:#a11}
</style></head><body>
<h1>Robustness over the ${esc(r.suite)} suite</h1>
<p>${s.hours} simulated hours on each of seeds ${esc(s.seeds.join(', '))}, latency <b>${esc(s.latency)}</b>, pairs ${esc(s.pairs.join(', '))}. Daemon config: config/paper.json${esc(s.configFiles.map((f) => ` + ${f}`).join(''))}; market: ${esc(s.market ?? 'config/sim.json')}, changed per regime:</p>
<ul>
${regimes}
</ul>
<h2>Means over the seeds</h2>
<table><thead><tr>${head}</tr></thead><tbody>
${rows}
</tbody></table>
<p>Worst regime for the daemon: <b>${esc(r.worst.regime)}</b>.</p>
<h2>Targets</h2>
<ul>
${checks}
</ul>
</body></html>
`;
}

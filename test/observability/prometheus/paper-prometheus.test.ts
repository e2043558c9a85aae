/**
 * Paper mode under a real Prometheus (Debian's `prometheus` package), all on 127.0.0.1:
 *
 * - `ledger-mm paper` runs in-process exactly as the command does (simulated venue over HTTP,
 *   latency `fast`, the daemon with its own observability attachment), metrics on a free port;
 * - its real `/metrics` passes `promtool check metrics`;
 * - a Prometheus server scrapes it every second with deploy/prometheus/alerts.yml loaded, and
 *   after a short run every expression of the Grafana dashboard and of the alerts is evaluated
 *   through the HTTP API: each must succeed, the quoting and pipeline panels (and every panel
 *   that is not event-driven) must return data, every rule must evaluate cleanly, and a healthy
 *   paper session must fire no alert.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';

import {
  describeWithTools,
  run,
  sleep,
  startMonitoredPaper,
  waitFor,
  type MonitoredPaper,
} from '../../support/monitoring-stack.js';
import {
  ALERTS_FILE,
  alertBlocks,
  api,
  dashboardQueries,
  hasFiniteValue,
  labelValuesQuery,
  loadDashboard,
  metricCatalogue,
  ownFamilies,
  query,
  queryRange,
  selectorProblems,
  substituteVariables,
} from './support/monitoring-files.js';

/** How long paper mode runs under Prometheus before the queries (real time). */
const RUN_MS = 20_000;
/** The value `$__rate_interval`, `$__interval` and `$__range` take in the queries. */
const WINDOW = '30s';

/**
 * Panels fed only by events a short healthy paper session may not produce (errors, retries,
 * fills, rotations, 429s, denials): their queries must succeed, but may return nothing. Every
 * other panel must return data.
 */
const MAY_BE_EMPTY = new Set([
  'Cancel outcomes per minute',
  'Stage errors per minute',
  'Unknown submissions and resolutions',
  'Retries and abandoned prepares',
  'Fills per minute',
  'Fill markouts, mean over the last hour (bps)',
  'Fill markout at 60 s by side: median and 10th percentile (bps)',
  'Filled volume (base)',
  'Filled notional (quote)',
  'Volume over the time range (quote)',
  'Contract rotations and residual expiries',
  'Risk denials per minute',
  // Empty while nothing is paused or halted (a paper session pauses nothing).
  'Held on purpose: pauses, kill switch, daily loss',
  'Venue errors per minute by code',
  'Client retries per minute',
  '429 RATE_LIMITED per minute',
  // The Parties row: series only with firm.parties, and paper mode runs one party.
  'Party takes placements',
  'Party can fund a side',
  'Party pipeline busy share',
  'Party placements and refusals per hour',
  'Party open orders and queue',
  'Party funding headroom',
  // Paper mode hedges nothing (config/paper.json has no hedge section).
  'Hedge: position and what is left unhedged (base)',
  'Hedge cost since start (quote)',
]);

/** The quoting and pipeline panels: they must return finite numbers, not just series. */
const CORE = [
  'Two-sided now',
  'Two-sided uptime (time range)',
  'Two-sided uptime',
  'Quoted spread',
  'Our best bid and ask vs the reference price: $pair',
  'Quote distance from the reference',
  'Reference age',
  'Live quotes',
  'Stage latency p50',
  'Stage latency p95',
  'Queue depth',
  'Oldest queued item age',
  'Placement outcomes per minute',
];

describeWithTools('paper mode scraped by a real Prometheus', ['prometheus', 'promtool'], ({ bin, dir }) => {
  let stack: MonitoredPaper | null = null;
  let metricsUrl = '';
  let startedAt = 0;

  beforeAll(async () => {
    stack = await startMonitoredPaper(bin.prometheus, dir(), { ruleFiles: [ALERTS_FILE] });
    metricsUrl = stack.paper.metricsUrl;
    startedAt = Date.now();
  }, 60_000);

  afterAll(() => stack?.stop(), 40_000);

  const failureContext = (): string => stack?.logs() ?? '';

  it('the real /metrics of paper mode passes promtool check metrics', async () => {
    // Once something has been placed, so the pipeline families have samples too, and the
    // daemon says it is ready (ledger_mm_ready, the /readyz verdict).
    await waitFor(
      'a first placement, and ledger_mm_ready 1',
      async () => {
        const body = await (await fetch(metricsUrl)).text();
        return body.includes('ledger_mm_placements_total{') && /^ledger_mm_ready 1$/m.test(body);
      },
      20_000,
      200,
    );
    const r = await fetch(metricsUrl);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await r.text();

    // The daemon's own families: no finding at all.
    const own = await run(bin.promtool, ['check', 'metrics'], { input: ownFamilies(text) });
    expect(own.code, own.stdout + own.stderr).toBe(0);
    expect((own.stdout + own.stderr).trim()).toBe('');

    // The whole exposition, prom-client's process metrics included: no finding either (the
    // gauges prom-client names `_total`, nodejs_active_*_total, are left out of the registry).
    const all = await run(bin.promtool, ['check', 'metrics'], { input: text });
    expect(all.code, all.stdout + all.stderr).toBe(0);
    expect((all.stdout + all.stderr).trim()).toBe('');
    expect(text).not.toMatch(/^nodejs_active_(handles|requests|resources)_total\b/m);
    expect(text).toMatch(/^nodejs_active_handles\{/m);

    // The account gauge: one-hot, on ACTIVE.
    for (const [status, v] of [
      ['ACTIVE', 1],
      ['SUSPENDED', 0],
      ['DISABLED', 0],
      ['unknown', 0],
    ] as const) {
      expect(text).toMatch(new RegExp(`^ledger_mm_account_status\\{status="${status}"\\} ${v}$`, 'm'));
    }
  });

  it('evaluates every dashboard and alert expression against the scraped paper session', async () => {
    const base = stack!.prometheus.url;
    const catalogue = await metricCatalogue();

    // Prometheus scrapes the daemon.
    await waitFor(
      'the target to be up',
      async () => {
        const r = await query(base, 'up{job="ledger-mm"} == 1');
        return r.status === 'success' && (r.data?.result.length ?? 0) === 1;
      },
      15_000,
    );
    // Paper mode quotes both pairs two-sided, and a run of RUN_MS gives the rates samples.
    await waitFor(
      'both pairs two-sided in Prometheus',
      async () => {
        const r = await query(base, 'sum(ledger_mm_two_sided{job="ledger-mm"}) == 2');
        return (r.data?.result.length ?? 0) === 1;
      },
      40_000,
      500,
    );
    const left = RUN_MS - (Date.now() - startedAt);
    if (left > 0) await sleep(left);
    const end = Date.now() / 1000;
    const start = startedAt / 1000;

    // -- The dashboard: every target expression, over the run, with "All" selected.
    const d = loadDashboard();
    const failures: string[] = [];
    const empty: string[] = [];
    const byPanel = new Map<string, { data: boolean; finite: boolean }>();
    for (const q of dashboardQueries(d)) {
      const expr = substituteVariables(q.expr, WINDOW);
      const where = `${q.panel} [${q.refId}] ${expr}`;
      for (const p of selectorProblems(expr, catalogue)) failures.push(`${where}: ${p}`);
      const instant = await query(base, expr);
      if (instant.status !== 'success') failures.push(`${where}: instant: ${instant.error}`);
      const range = await queryRange(base, expr, start, end, 1);
      if (range.status !== 'success') {
        failures.push(`${where}: range: ${range.error}`);
        continue;
      }
      if ((instant.warnings ?? []).length + (range.warnings ?? []).length > 0) {
        failures.push(`${where}: warnings ${JSON.stringify([instant.warnings, range.warnings])}`);
      }
      const result = range.data?.result ?? [];
      const seen = byPanel.get(q.panel) ?? { data: false, finite: false };
      byPanel.set(q.panel, {
        data: seen.data || result.length > 0,
        finite: seen.finite || hasFiniteValue(result),
      });
      if (result.length === 0) empty.push(where);
    }
    expect(failures, failureContext()).toEqual([]);
    for (const title of CORE) {
      expect(byPanel.get(title), `${title}: no such panel`).toBeDefined();
      expect(byPanel.get(title)?.finite, `${title}: no finite value${failureContext()}`).toBe(true);
    }
    const noData = [...byPanel].filter(([t, s]) => !s.data && !MAY_BE_EMPTY.has(t)).map(([t]) => t);
    expect(noData, `panels with no data:\n${empty.join('\n')}${failureContext()}`).toEqual([]);

    // -- The template variables list the instance and both pairs.
    for (const v of d.templating.list.filter((x) => x.type === 'query')) {
      const lv = labelValuesQuery(v.definition ?? '')!;
      const r = await query(base, lv.selector);
      expect(r.status, v.name).toBe('success');
      const values = new Set((r.data?.result ?? []).map((s) => s.metric[lv.label]));
      if (v.name === 'pair') expect([...values].sort()).toEqual(['BTC/USDC', 'ETH/USDC']);
      else expect(values.size, v.name).toBeGreaterThan(0);
    }

    // -- The alerts: loaded, annotated, evaluated without error, each expression valid.
    const rules = await api<{
      groups: {
        name: string;
        rules: {
          type: string;
          name: string;
          query: string;
          health: string;
          lastError?: string;
          annotations?: Record<string, string>;
          labels?: Record<string, string>;
          lastEvaluation: string;
        }[];
      }[];
    }>(base, '/api/v1/rules');
    expect(rules.status).toBe('success');
    await waitFor(
      'every rule to be evaluated',
      async () => {
        const r = await api<{ groups: { rules: { lastEvaluation: string }[] }[] }>(base, '/api/v1/rules');
        return (r.data?.groups ?? []).every((g) =>
          g.rules.every((x) => !x.lastEvaluation.startsWith('0001')),
        );
      },
      10_000,
    );
    const fresh = await api<typeof rules.data>(base, '/api/v1/rules');
    const alerting = (fresh.data?.groups ?? []).flatMap((g) => g.rules).filter((x) => x.type === 'alerting');
    expect(alerting.map((x) => x.name).sort()).toEqual(
      [...alertBlocks(fs.readFileSync(ALERTS_FILE, 'utf8')).keys()].sort(),
    );
    for (const rule of alerting) {
      expect(rule.health, `${rule.name}: ${rule.lastError ?? ''}`).toBe('ok');
      expect(rule.labels?.['severity'], rule.name).toMatch(/^(critical|warning)$/);
      for (const key of ['summary', 'description', 'runbook_url']) {
        expect(rule.annotations?.[key]?.trim().length ?? 0, `${rule.name} ${key}`).toBeGreaterThan(20);
      }
      expect(selectorProblems(rule.query, catalogue), rule.name).toEqual([]);
      const instant = await query(base, rule.query);
      expect(instant.status, `${rule.name}: ${instant.error ?? ''}`).toBe('success');
      const range = await queryRange(base, rule.query, start, end, 1);
      expect(range.status, `${rule.name}: ${range.error ?? ''}`).toBe('success');
    }

    // -- A healthy paper session fires nothing.
    const alerts = await api<{ alerts: { labels: Record<string, string>; state: string }[] }>(
      base,
      '/api/v1/alerts',
    );
    expect(alerts.status).toBe('success');
    const firing = (alerts.data?.alerts ?? []).filter((a) => a.state === 'firing').map((a) => a.labels);
    expect(firing, failureContext()).toEqual([]);
    const pending = (alerts.data?.alerts ?? []).filter((a) => a.state === 'pending');
    console.log(
      [
        `paper under Prometheus: ${Math.round(end - start)} s scraped every 1 s;`,
        `${dashboardQueries(d).length} dashboard and ${alerting.length} alert expressions evaluated;`,
        `empty (event-driven) panels: ${
          [...byPanel]
            .filter(([, s]) => !s.data)
            .map(([t]) => t)
            .join(', ') || 'none'
        };`,
        `pending alerts: ${pending.map((a) => a.labels['alertname']).join(', ') || 'none'}`,
      ].join(' '),
    );
    // Sanity of the accounting the uptime panels use: two-sided seconds accrue on both pairs.
    const uptime = await query(base, 'min(rate(ledger_mm_two_sided_seconds_total{job="ledger-mm"}[20s]))');
    expect(Number(uptime.data?.result[0]?.value?.[1])).toBeGreaterThan(0.25);
  }, 90_000);

  it('paper mode stops on SIGTERM with exit 0 and closes its metrics server', async () => {
    stack!.paper.proc.emit('SIGTERM');
    const code = await Promise.race([stack!.paper.exited, sleep(30_000).then(() => 'timeout' as const)]);
    expect(code, failureContext()).toBe(0);
    expect(stack!.paper.proc.exits).toEqual([0]);
    // Refused, not timed out: the server is gone, not hanging.
    await expect(fetch(metricsUrl, { signal: AbortSignal.timeout(1_000) })).rejects.toMatchObject({
      cause: { code: 'ECONNREFUSED' },
    });
  }, 40_000);
});

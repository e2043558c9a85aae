/**
 * The deploy/ files checked with Debian's promtool (no server): the rules and the Prometheus
 * config pass `promtool check`, the promtool unit tests of the alerts pass, every dashboard
 * expression is valid PromQL (checked as a recording rule), and every metric name and label
 * the alerts and the dashboard use exists on the daemon's registry.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';

import { describeWithTools, run } from '../../support/monitoring-stack.js';

import {
  ALERTS_FILE,
  ALERT_UNIT_TESTS_FILE,
  DASHBOARD_FILE,
  DEPLOY,
  PROMETHEUS_CONFIG_FILE,
  RUNBOOK_BASE,
  alertBlocks,
  alertExpressions,
  allPanels,
  dashboardQueries,
  familyOf,
  labelValuesQuery,
  loadDashboard,
  metricCatalogue,
  runbookSections,
  selectorProblems,
  stripAnnotations,
  substituteVariables,
  type Catalogue,
} from './support/monitoring-files.js';

describeWithTools('deploy/ files against promtool', ['promtool'], ({ bin, dir }) => {
  const tool = bin.promtool;
  let catalogue: Catalogue;

  beforeAll(async () => {
    catalogue = await metricCatalogue();
  });

  it('promtool check rules passes on alerts.yml', async () => {
    const r = await run(tool, ['check', 'rules', ALERTS_FILE]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const count = alertBlocks(fs.readFileSync(ALERTS_FILE, 'utf8')).size;
    expect(r.stdout).toContain(`SUCCESS: ${count} rules found`);
  });

  it('promtool check config passes on prometheus.yml, with alerts.yml as its rule file', async () => {
    // rule_files are resolved against the config file's directory; run it from elsewhere too.
    for (const cwd of [path.dirname(PROMETHEUS_CONFIG_FILE), os.tmpdir()]) {
      const r = await run(tool, ['check', 'config', PROMETHEUS_CONFIG_FILE], { cwd });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('SUCCESS: 1 rule files found');
      expect(r.stdout).toContain(ALERTS_FILE.replace(`${path.dirname(PROMETHEUS_CONFIG_FILE)}/`, ''));
    }
  });

  it('the promtool unit tests of the alerts pass (each alert fires when it should, not before)', async () => {
    // Annotations are stripped: promtool compares them verbatim, and these tests are about
    // when the alerts fire.
    fs.writeFileSync(path.join(dir(), 'alerts.yml'), stripAnnotations(fs.readFileSync(ALERTS_FILE, 'utf8')));
    fs.copyFileSync(ALERT_UNIT_TESTS_FILE, path.join(dir(), 'alerts.test.yml'));
    const r = await run(tool, ['test', 'rules', 'alerts.test.yml'], { cwd: dir(), timeoutMs: 30_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('SUCCESS');
    // Every alert has at least one unit test.
    const tests = fs.readFileSync(ALERT_UNIT_TESTS_FILE, 'utf8');
    for (const name of alertBlocks(fs.readFileSync(ALERTS_FILE, 'utf8')).keys()) {
      expect(tests, name).toMatch(
        new RegExp(`alertname: ${name}\\s*\\n\\s*exp_alerts:\\s*\\n\\s*- exp_labels`),
      );
    }
  });

  it('every alert has severity, summary, description and a runbook_url to its RUNBOOK.md section', () => {
    const blocks = alertBlocks(fs.readFileSync(ALERTS_FILE, 'utf8'));
    expect([...blocks.keys()].sort()).toEqual(
      [
        'LedgerMmAccountNotActive',
        'LedgerMmAuthFailure',
        'LedgerMmBookStale',
        'LedgerMmConfigReloadRejected',
        'LedgerMmEventLoopLag',
        'LedgerMmQuotingStopped',
        'LedgerMmRestarting',
        'LedgerMmDown',
        'LedgerMmEchoRefused',
        'LedgerMmExecutionAlarm',
        'LedgerMmForeignOrders',
        'LedgerMmHedgePositionAtCap',
        'LedgerMmHedgeVenueFailing',
        'LedgerMmKillSwitchTripped',
        'LedgerMmNotReady',
        'LedgerMmNotTwoSided',
        'LedgerMmPartyCannotFund',
        'LedgerMmPartyDroppedOut',
        'LedgerMmPausedLong',
        'LedgerMmReferenceStale',
        'LedgerMmReferenceSourcesLow',
        'LedgerMmRiskHalted',
        'LedgerMmSideMissing',
        'LedgerMmStrandedOrders',
        'LedgerMmTargetMissing',
        'LedgerMmUnknownOrders',
        'LedgerMmVenueErrorRate',
        'LedgerMmWatchdogDown',
        'LedgerMmWatchdogTriggered',
      ].sort(),
    );
    for (const [name, text] of blocks) {
      expect(text, name).toMatch(/\n\s+severity: (critical|warning)\n/);
      for (const key of ['summary', 'description', 'runbook_url']) {
        expect(text, `${name} ${key}`).toMatch(new RegExp(`\\n\\s+annotations:[\\s\\S]*\\n\\s+${key}: \\S`));
      }
      expect(text, `${name} runbook_url`).toContain(`runbook_url: '${RUNBOOK_BASE}#${name.toLowerCase()}'`);
    }
    // RUNBOOK.md: one section per alert (GitHub's anchor of "## Name" is the name in lower
    // case), each with what it means and what to do; no section without an alert.
    const sections = runbookSections();
    expect([...sections.keys()].sort()).toEqual([...blocks.keys()].sort());
    for (const [name, body] of sections) {
      expect(body, name).toMatch(/^Severity: (critical|warning)\.$/m);
      expect(body, name).toContain(`Severity: ${/\n\s+severity: (\w+)\n/.exec(blocks.get(name)!)![1]}.`);
      expect(body, name).toMatch(/^\*\*Meaning\.\*\* \S[\s\S]+^\*\*Do\.\*\* \S/m);
    }
  });

  it('the dashboard has the datasource, the pair variable and the rows the issue asks for', () => {
    const d = loadDashboard();
    expect(d.uid).toBe('ledger-mm');
    expect(d.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(d.schemaVersion).toBeLessThanOrEqual(41);
    const vars = new Map(d.templating.list.map((v) => [v.name, v]));
    expect(vars.get('datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(vars.get('datasource')?.current?.value).toBe('prometheus');
    expect(vars.get('pair')).toMatchObject({
      type: 'query',
      definition: 'label_values(ledger_mm_reference_price, pair)',
      query: 'label_values(ledger_mm_reference_price, pair)',
      multi: true,
      includeAll: true,
      allValue: '.*',
    });
    expect(vars.get('instance')).toMatchObject({
      type: 'query',
      multi: true,
      includeAll: true,
      allValue: '.*',
    });
    const rows = d.panels.filter((p) => p.type === 'row').map((p) => p.title);
    for (const row of ['Quoting', 'Pipeline', 'Orders and fills', 'Money', 'Venue health', 'Process']) {
      expect(rows).toContain(row);
    }
    const ids = new Set<number>();
    for (const p of d.panels) {
      expect(ids.has(p.id!), `duplicate panel id ${p.id}`).toBe(false);
      ids.add(p.id!);
      const g = p.gridPos!;
      expect(g.x + g.w, p.title).toBeLessThanOrEqual(24);
    }
    for (const p of allPanels(d)) {
      expect(p.datasource, p.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(p.targets?.length ?? 0, p.title).toBeGreaterThan(0);
      for (const t of p.targets ?? []) {
        expect(t.datasource, p.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
        expect(t.expr?.trim() ?? '', p.title).not.toBe('');
      }
    }
    // No two panels overlap on the grid.
    const placed = d.panels.map((p) => ({ t: p.title, ...p.gridPos! }));
    for (const [i, a] of placed.entries()) {
      for (const b of placed.slice(i + 1)) {
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `${a.t} overlaps ${b.t}`).toBe(false);
      }
    }
  });

  it('every dashboard expression is valid PromQL (promtool checks it as a recording rule)', async () => {
    const queries = dashboardQueries(loadDashboard());
    expect(queries.length).toBeGreaterThan(50);
    const lines = ['groups:', '  - name: dashboard', '    rules:'];
    for (const [i, q] of queries.entries()) {
      const expr = substituteVariables(q.expr);
      expect(expr, `${q.panel} ${q.refId}: a variable is left`).not.toContain('$');
      lines.push(`      - record: dashboard:query_${i}`, `        expr: ${JSON.stringify(expr)}`);
    }
    const file = path.join(dir(), 'dashboard-rules.yml');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await run(tool, ['check', 'rules', file]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`SUCCESS: ${queries.length} rules found`);
  });

  it('every metric name and label matcher in the dashboard is a real one of the daemon', () => {
    const d = loadDashboard();
    const problems: string[] = [];
    for (const q of dashboardQueries(d)) {
      for (const p of selectorProblems(substituteVariables(q.expr), catalogue)) {
        problems.push(`${q.panel} ${q.refId}: ${p}`);
      }
    }
    for (const v of d.templating.list) {
      if (v.type !== 'query') continue;
      const lv = labelValuesQuery(v.definition ?? '');
      expect(lv, v.name).not.toBeNull();
      const family = familyOf(lv!.selector, catalogue);
      expect(family, v.name).not.toBeNull();
      expect([...catalogue.families.get(family!)!, 'instance', 'job'], v.name).toContain(lv!.label);
    }
    expect(problems).toEqual([]);
  });

  it('every ledger_mm_* name anywhere in deploy/ (rules, runbooks, panel texts) is a real metric', () => {
    const files = [
      ALERTS_FILE,
      PROMETHEUS_CONFIG_FILE,
      DASHBOARD_FILE,
      path.join(DEPLOY, 'docker-compose.yml'),
    ];
    const unknown: string[] = [];
    for (const file of files) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/\bledger_mm_[a-z0-9_]+/g)) {
        if (familyOf(m[0], catalogue) === null) unknown.push(`${path.basename(file)}: ${m[0]}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('every metric name and label matcher in the alert expressions is a real one of the daemon', () => {
    const exprs = alertExpressions(fs.readFileSync(ALERTS_FILE, 'utf8'));
    expect(exprs.size).toBe(alertBlocks(fs.readFileSync(ALERTS_FILE, 'utf8')).size);
    const problems: string[] = [];
    for (const [name, expr] of exprs) {
      expect(expr, name).toMatch(/[a-z_]+/);
      for (const p of selectorProblems(expr, catalogue)) problems.push(`${name}: ${p}`);
    }
    expect(problems).toEqual([]);
  });
});

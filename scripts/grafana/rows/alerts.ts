/**
 * One panel per alert of deploy/prometheus/alerts.yml, read from that file (the rules exist
 * once): the number of series that meet the alert's condition now, before its `for:` delay.
 * 0 is green; any other count is red for a critical alert, orange for a warning.
 */
import fs from 'node:fs';
import { parse } from 'yaml';
import type { PanelSpec } from '../panel-spec.js';

export const ROW = 'Alerts';

interface Rule {
  readonly alert?: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: { readonly severity?: string };
  readonly annotations?: { readonly summary?: string; readonly runbook_url?: string };
}

/** The alerting rules of a Prometheus rule file, in file order. */
export function alertRules(file: string): (Rule & { alert: string })[] {
  const doc = parse(fs.readFileSync(file, 'utf8')) as { groups: { rules: Rule[] }[] };
  return doc.groups
    .flatMap((g) => g.rules)
    .filter((r): r is Rule & { alert: string } => r.alert !== undefined);
}

/** The panels: four across, in the order of the file. */
export function alertPanels(file: string): PanelSpec[] {
  return alertRules(file).map((r) => {
    const severity = r.labels?.severity ?? 'warning';
    const summary = (r.annotations?.summary ?? '').replace(/\{\{ *\$labels\.(\w+) *\}\}/g, '<$1>');
    return {
      kind: 'stat',
      title: r.alert,
      description:
        `${severity}: ${summary}. Series meeting the condition now` +
        `${r.for === undefined ? '' : ` (it fires after ${r.for})`}, all instances: ` +
        `${r.expr.trim()}. Runbook: ${r.annotations?.runbook_url ?? 'RUNBOOK.md'}`,
      unit: 'short',
      w: 6,
      h: 4,
      decimals: 0,
      thresholds: [
        ['green', null],
        [severity === 'critical' ? 'red' : 'orange', 1],
      ],
      colorMode: 'background',
      textMode: 'value',
      targets: [[r.alert, `count(${r.expr.trim()}) or vector(0)`]],
    };
  });
}

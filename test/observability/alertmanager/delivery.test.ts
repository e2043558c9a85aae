/**
 * Alerts reach someone: paper mode, a real Prometheus (Debian's `prometheus`) evaluating
 * deploy/prometheus/alerts.yml against it, a real Alertmanager (Debian's
 * `prometheus-alertmanager`) with deploy/alertmanager/alertmanager.yml, and the test's own HTTP
 * server as the webhook receiver, all on 127.0.0.1.
 *
 * The fault: paper mode runs with an extra config file, which the test then breaks
 * (`risk.ordersPerMinute` -5). The daemon rejects the reload and keeps its params; its counter
 * `ledger_mm_config_reloads_total{outcome="rejected"}` goes 0 → 1; Prometheus fires
 * LedgerMmConfigReloadRejected; Alertmanager delivers it to the webhook, which the test reads:
 * exactly that alert, with its labels, summary and runbook_url.
 *
 * The shipped Alertmanager config is used as it is, with two changes: the receiver's URL (the
 * test's server) and group_wait 1 s (instead of 10 s: test time).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';

import {
  describeWithTools,
  sleep,
  startAlertmanager,
  startMonitoredPaper,
  stopAll,
  waitFor,
  type MonitoredPaper,
  type ToolServer,
} from '../../support/monitoring-stack.js';
import { ALERTS_FILE, DEPLOY, RUNBOOK_BASE } from '../prometheus/support/monitoring-files.js';

const ALERTMANAGER_CONFIG = path.join(DEPLOY, 'alertmanager/alertmanager.yml');

/** Alertmanager's webhook payload (version 4), the parts the test reads. */
interface WebhookPayload {
  version: string;
  status: 'firing' | 'resolved';
  receiver: string;
  alerts: {
    status: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
    startsAt: string;
    generatorURL: string;
  }[];
}

describeWithTools('an alert delivered end to end', ['prometheus', 'alertmanager'], ({ bin, dir }) => {
  let stack: MonitoredPaper | null = null;
  let am: ToolServer | null = null;
  let webhook: http.Server | null = null;
  const received: WebhookPayload[] = [];
  let extraConfig = '';

  beforeAll(async () => {
    // The receiver.
    webhook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString('utf8')));
      req.on('end', () => {
        received.push(JSON.parse(body) as WebhookPayload);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => webhook!.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/ledger-mm`;

    // Alertmanager with the shipped config, pointed at the receiver.
    const config = parse(fs.readFileSync(ALERTMANAGER_CONFIG, 'utf8')) as {
      route: { group_wait: string };
      receivers: { webhook_configs?: { url: string }[] }[];
    };
    config.route.group_wait = '1s';
    for (const r of config.receivers) for (const w of r.webhook_configs ?? []) w.url = hookUrl;
    const amConfig = path.join(dir(), 'alertmanager.yml');
    fs.writeFileSync(amConfig, stringify(config));
    am = await startAlertmanager(bin.alertmanager, dir(), amConfig);

    // Paper mode with an extra config file the test will break.
    extraConfig = path.join(dir(), 'extra.json');
    fs.writeFileSync(extraConfig, JSON.stringify({ risk: { ordersPerMinute: 30 } }));
    // Prometheus scraping it: the shipped rules, alerts sent to this Alertmanager.
    stack = await startMonitoredPaper(bin.prometheus, dir(), {
      ruleFiles: [ALERTS_FILE],
      alertmanagerPort: Number(new URL(am.url).port),
      paper: { args: ['--config', extraConfig], ready: true },
    });
  }, 90_000);

  afterAll(async () => {
    await stopAll(stack, am);
    await new Promise((r) => (webhook === null ? r(null) : webhook.close(r)));
  }, 40_000);

  const context = (): string => `\n--- alertmanager log ---\n${am?.log() ?? ''}${stack?.logs(3_000) ?? ''}`;

  it('a rejected config reload reaches the webhook through Prometheus and Alertmanager', async () => {
    // Scraped, with the rejected counter at 0, before the fault.
    await waitFor(
      'Prometheus to have the rejected-reload counter at 0',
      async () => {
        const r = (await (
          await fetch(
            `${stack!.prometheus.url}/api/v1/query?query=${encodeURIComponent('ledger_mm_config_reloads_total{outcome="rejected"} == 0')}`,
          )
        ).json()) as { data: { result: unknown[] } };
        return r.data.result.length === 1;
      },
      20_000,
    );
    expect(received, 'nothing is delivered before the fault').toEqual([]);

    // The fault: an invalid value in a watched config file.
    fs.writeFileSync(extraConfig, JSON.stringify({ risk: { ordersPerMinute: -5 } }));
    await waitFor(
      'the daemon to reject the reload',
      async () => /config reload rejected/.test(stack!.paper.logs()),
      20_000,
      100,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}${context()}`);
    });

    await waitFor('a webhook delivery', async () => received.length > 0, 45_000, 200).catch(
      (err: unknown) => {
        throw new Error(`${String(err)}${context()}`);
      },
    );
    const payload = received[0]!;
    expect(payload).toMatchObject({ version: '4', status: 'firing', receiver: 'ledger-mm-webhook' });
    expect(payload.alerts).toHaveLength(1);
    const alert = payload.alerts[0]!;
    expect(alert.labels).toMatchObject({
      alertname: 'LedgerMmConfigReloadRejected',
      severity: 'warning',
      job: 'ledger-mm',
      outcome: 'rejected',
      instance: `127.0.0.1:${stack!.paper.metricsPort}`,
    });
    expect(alert.annotations['runbook_url']).toBe(`${RUNBOOK_BASE}#ledgermmconfigreloadrejected`);
    expect(alert.annotations['summary']).toContain('rejected a config reload');
    expect(alert.status).toBe('firing');
    // The daemon still runs on its old params: ready, quoting.
    const metrics = await (await fetch(stack!.paper.metricsUrl)).text();
    expect(metrics).toMatch(/^ledger_mm_ready 1$/m);
    // No other alert was delivered: the fault fired this one alone.
    await sleep(2_000);
    const names = new Set(received.flatMap((p) => p.alerts.map((a) => a.labels['alertname'])));
    expect([...names], context()).toEqual(['LedgerMmConfigReloadRejected']);
  }, 90_000);
});

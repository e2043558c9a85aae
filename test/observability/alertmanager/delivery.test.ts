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
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runPaper } from '../../../src/cli/paper.js';
import {
  DEPLOY,
  RUNBOOK_BASE,
  freePort,
  sleep,
  startPrometheus,
  waitFor,
  which,
  type PrometheusServer,
  writeScrapeConfig,
} from '../prometheus/support.js';
import { FakeProcess } from '../../helpers/fake-process.js';

const prometheus = which('prometheus');
const alertmanager = which('prometheus-alertmanager') ?? which('alertmanager');
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

describe.skipIf(!prometheus || !alertmanager)(
  `an alert delivered end to end (${
    prometheus && alertmanager
      ? `${prometheus}, ${alertmanager}`
      : 'SKIPPED: apt-get install prometheus prometheus-alertmanager'
  })`,
  () => {
    let dir = '';
    /** The process seam paper mode listens on: the test raises SIGTERM itself. */
    const proc = new FakeProcess();
    const logs: string[] = [];
    let paper: Promise<number> | null = null;
    let prom: PrometheusServer | null = null;
    let am: ChildProcess | null = null;
    let amLog = '';
    let webhook: http.Server | null = null;
    const received: WebhookPayload[] = [];
    let extraConfig = '';
    let metricsPort = 0;

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-am-'));

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
      const amConfig = path.join(dir, 'alertmanager.yml');
      fs.writeFileSync(amConfig, stringify(config));
      const amPort = await freePort();
      am = spawn(
        alertmanager!,
        [
          `--config.file=${amConfig}`,
          `--storage.path=${path.join(dir, 'am-data')}`,
          `--web.listen-address=127.0.0.1:${amPort}`,
          '--cluster.listen-address=',
          '--log.level=warn',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const keep = (d: Buffer): void => {
        amLog = (amLog + d.toString('utf8')).slice(-8_000);
      };
      am.stdout?.on('data', keep);
      am.stderr?.on('data', keep);
      await waitFor(
        'Alertmanager ready',
        async () => (await fetch(`http://127.0.0.1:${amPort}/-/ready`)).ok,
        20_000,
        200,
      );

      // Paper mode with an extra config file the test will break.
      extraConfig = path.join(dir, 'extra.json');
      fs.writeFileSync(extraConfig, JSON.stringify({ risk: { ordersPerMinute: 30 } }));
      metricsPort = await freePort();
      paper = runPaper(
        ['--latency', 'fast', '--config', extraConfig],
        {
          stdout: (t) => logs.push(t),
          stderr: (t) => logs.push(t),
          env: {
            LEDGER_MM_METRICS_HOST: '127.0.0.1',
            LEDGER_MM_METRICS_PORT: String(metricsPort),
            LEDGER_MM_LOG_LEVEL: 'warn',
            LEDGER_MM_LOG_PRETTY: 'false',
          },
          cwd: dir,
        },
        { proc, logDestination: { write: (l: string) => logs.push(l) } },
      );
      paper.then(
        (code) => logs.push(`\n[paper exited with ${code}]\n`),
        (err: unknown) => logs.push(`\n[paper failed: ${String(err)}]\n`),
      );
      const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      await waitFor(
        'the daemon ready',
        async () => /^ledger_mm_ready 1$/m.test(await (await fetch(metricsUrl)).text()),
        40_000,
        200,
      );

      // Prometheus: the shipped rules, alerts sent to this Alertmanager.
      const port = await freePort();
      const promConfig = writeScrapeConfig(dir, { metricsPort, alertmanagerPort: amPort });
      prom = await startPrometheus(prometheus!, {
        configFile: promConfig,
        dataDir: path.join(dir, 'tsdb'),
        port,
      });
    }, 90_000);

    afterAll(async () => {
      const stops: Promise<unknown>[] = [];
      if (prom !== null) stops.push(prom.stop());
      if (am !== null && am.exitCode === null) {
        stops.push(new Promise((r) => am!.once('exit', r)));
        am.kill('SIGTERM');
      }
      if (paper !== null) {
        proc.emit('SIGTERM');
        stops.push(Promise.race([paper, sleep(20_000)]));
      }
      await Promise.all(stops);
      if (paper !== null && proc.exits.length === 0) proc.emit('SIGTERM');
      await new Promise((r) => (webhook === null ? r(null) : webhook.close(r)));
      if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
    }, 40_000);

    const context = (): string =>
      `\n--- alertmanager log ---\n${amLog}\n--- prometheus log ---\n${prom?.log() ?? ''}\n--- paper log (tail) ---\n${logs.join('').slice(-3_000)}`;

    it('a rejected config reload reaches the webhook through Prometheus and Alertmanager', async () => {
      // Scraped, with the rejected counter at 0, before the fault.
      await waitFor(
        'Prometheus to have the rejected-reload counter at 0',
        async () => {
          const r = (await (
            await fetch(
              `${prom!.url}/api/v1/query?query=${encodeURIComponent('ledger_mm_config_reloads_total{outcome="rejected"} == 0')}`,
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
        async () => /config reload rejected/.test(logs.join('')),
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
        instance: `127.0.0.1:${metricsPort}`,
      });
      expect(alert.annotations['runbook_url']).toBe(`${RUNBOOK_BASE}#ledgermmconfigreloadrejected`);
      expect(alert.annotations['summary']).toContain('rejected a config reload');
      expect(alert.status).toBe('firing');
      // The daemon still runs on its old params: ready, quoting.
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toMatch(/^ledger_mm_ready 1$/m);
      // No other alert was delivered: the fault fired this one alone.
      await sleep(2_000);
      const names = new Set(received.flatMap((p) => p.alerts.map((a) => a.labels['alertname'])));
      expect([...names], context()).toEqual(['LedgerMmConfigReloadRejected']);
    }, 90_000);
  },
);

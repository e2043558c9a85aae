/**
 * The setup the tests share that run the deploy/ monitoring files through the real tools
 * (Debian's `prometheus` package: prometheus and promtool; `prometheus-alertmanager`; `.ci/run`
 * installs both): finding the binaries, skipping a suite whose tools are missing (its title says
 * what to install), a temp directory per suite, running a tool to completion, paper mode
 * in-process on a free metrics port, and Prometheus and Alertmanager as child processes with
 * their logs kept and one stop each. What the tests assert stays in the tests.
 *
 * Everything here talks to 127.0.0.1 only and bounds every wait with a timeout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';

import { runPaper } from '../../src/cli/paper.js';
import { FakeProcess } from './fake-process.js';

/** The repository root (the default working directory of {@link run}). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each tool: the names its binary goes by, and the Debian package it comes in. */
const TOOLS = {
  prometheus: { binaries: ['prometheus'], pkg: 'prometheus' },
  promtool: { binaries: ['promtool'], pkg: 'prometheus' },
  alertmanager: { binaries: ['prometheus-alertmanager', 'alertmanager'], pkg: 'prometheus-alertmanager' },
} as const;
/** A tool a suite may need. */
export type MonitoringTool = keyof typeof TOOLS;

/** What the body of {@link describeWithTools} gets. */
export interface ToolSuite<T extends MonitoringTool> {
  /** Each tool's absolute path. */
  readonly bin: Readonly<Record<T, string>>;
  /** The suite's temp directory: created before the body's hooks run, removed after them. */
  readonly dir: () => string;
}

/**
 * A `describe` that runs when every tool in `tools` is on PATH, titled `what (path, path…)`, and
 * is skipped otherwise, titled with what is missing and the `apt-get install` that brings it.
 */
export function describeWithTools<T extends MonitoringTool>(
  what: string,
  tools: readonly T[],
  body: (suite: ToolSuite<T>) => void,
): void {
  const found = new Map(tools.map((t) => [t, firstOnPath(TOOLS[t].binaries)] as const));
  const missing = tools.filter((t) => found.get(t) === null);
  const packages = [...new Set(missing.map((t) => TOOLS[t].pkg))].join(' ');
  const title =
    missing.length === 0
      ? `${what} (${tools.map((t) => found.get(t)).join(', ')})`
      : `${what} (SKIPPED: ${missing.join(', ')} not on PATH; apt-get install ${packages})`;
  describe.skipIf(missing.length > 0)(title, () => {
    let dir = '';
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-monitoring-'));
    });
    // Registered first, so it runs last (after hooks run in reverse): once the servers stopped.
    afterAll(() => {
      if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
    });
    body({
      bin: Object.fromEntries(found) as Record<T, string>,
      dir: () => {
        if (dir === '') throw new Error('the suite directory exists only while its hooks and tests run');
        return dir;
      },
    });
  });
}

/** The absolute path of the first of `names` that is an executable on PATH, or null. */
function firstOnPath(names: readonly string[]): string | null {
  for (const name of names) {
    for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
      if (dir === '') continue;
      const file = path.join(dir, name);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return file;
      } catch {
        // Not here.
      }
    }
  }
  return null;
}

/** The result of {@link run}. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `cmd` to completion (stdin from `input`, cwd the repository root), killing it after `timeoutMs`. */
export function run(
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} did not finish within ${opts.timeoutMs ?? 20_000} ms`));
    }, opts.timeoutMs ?? 20_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => {
      // The tool may exit before reading all of stdin; its exit code tells.
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` resolves true, polling every `everyMs`; throws after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 250,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= until) {
      const why = last instanceof Error ? `: ${last.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await sleep(everyMs);
  }
}

// ------------------------------------------------------------------------- paper mode

/** `ledger-mm paper` running in-process (see {@link startPaper}). */
export interface PaperSession {
  /** The process seam it listens on: the test raises SIGTERM itself. */
  readonly proc: FakeProcess;
  readonly metricsPort: number;
  readonly metricsUrl: string;
  /** Its exit code, once it exits. */
  readonly exited: Promise<number>;
  /** Everything it wrote (stdout, stderr, its log lines), and how it ended. */
  logs(): string;
  /** SIGTERM, at most 20 s for the stop, then a second SIGTERM if it hung. */
  stop(): Promise<void>;
}

/**
 * Starts `ledger-mm paper --latency fast [args]` exactly as the command runs it (its own
 * observability attachment), in `cwd`, its metrics on a port free right now (log level warn,
 * plain logs). Resolves once `/metrics` answers, or with `ready` once it reads `ledger_mm_ready 1`.
 */
export async function startPaper(
  cwd: string,
  opts: { args?: readonly string[]; ready?: boolean } = {},
): Promise<PaperSession> {
  const proc = new FakeProcess();
  const logs: string[] = [];
  const metricsPort = await freePort();
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const env = {
    LEDGER_MM_METRICS_HOST: '127.0.0.1',
    LEDGER_MM_METRICS_PORT: String(metricsPort),
    LEDGER_MM_LOG_LEVEL: 'warn',
    LEDGER_MM_LOG_PRETTY: 'false',
  };
  const exited = runPaper(
    ['--latency', 'fast', ...(opts.args ?? [])],
    { stdout: (t) => logs.push(t), stderr: (t) => logs.push(t), env, cwd },
    { proc, logDestination: { write: (l: string) => logs.push(l) } },
  );
  exited.then(
    (code) => logs.push(`\n[paper exited with ${code}]\n`),
    (err: unknown) => logs.push(`\n[paper failed: ${String(err)}]\n`),
  );
  const session: PaperSession = {
    proc,
    metricsPort,
    metricsUrl,
    exited,
    logs: () => logs.join(''),
    stop: async () => {
      if (proc.exits.length > 0) return;
      proc.emit('SIGTERM');
      await Promise.race([exited, sleep(20_000)]);
      // A second SIGTERM ends a stop that hung (the relay exits at once on it).
      if (proc.exits.length === 0) proc.emit('SIGTERM');
    },
  };
  const ready = opts.ready === true;
  await waitFor(
    ready ? 'the daemon ready (ledger_mm_ready 1)' : `the daemon's metrics on ${metricsUrl}`,
    async () => {
      const r = await fetch(metricsUrl, { signal: AbortSignal.timeout(1_000) });
      return ready ? /^ledger_mm_ready 1$/m.test(await r.text()) : r.ok;
    },
    ready ? 40_000 : 20_000,
    100,
  ).catch(async (err: unknown) => {
    await session.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${session.logs()}`);
  });
  return session;
}

// ------------------------------------------------------------------------- servers

/** Prometheus or Alertmanager as a child process of a test. */
export interface ToolServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** The tail of its log, for failure messages. */
  log(): string;
  /** SIGTERM, then SIGKILL after `graceMs`. Resolves once it exited. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Writes `<dir>/prometheus.yml`: the rule files evaluated every second, the daemon on
 * `metricsPort` scraped every second (job `ledger-mm`), alerts sent to the Alertmanager on
 * `alertmanagerPort` when given. Returns its path.
 */
export function writeScrapeConfig(
  dir: string,
  o: { ruleFiles: readonly string[]; metricsPort: number; alertmanagerPort?: number },
): string {
  const file = path.join(dir, 'prometheus.yml');
  const alerting =
    o.alertmanagerPort === undefined
      ? []
      : [
          'alerting:',
          '  alertmanagers:',
          '    - static_configs:',
          `        - targets: ['127.0.0.1:${o.alertmanagerPort}']`,
        ];
  fs.writeFileSync(
    file,
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      ...o.ruleFiles.map((f) => `  - ${JSON.stringify(f)}`),
      ...alerting,
      'scrape_configs:',
      '  - job_name: ledger-mm',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${o.metricsPort}']`,
      '',
    ].join('\n'),
  );
  return file;
}

/** Starts `prometheus` on a free port with {@link writeScrapeConfig}'s config, its data under `dir`. */
export async function startPrometheus(
  binary: string,
  dir: string,
  scrape: Parameters<typeof writeScrapeConfig>[1],
): Promise<ToolServer> {
  const configFile = writeScrapeConfig(dir, scrape);
  const port = await freePort();
  return startServer('Prometheus', binary, port, path.dirname(configFile), [
    `--config.file=${configFile}`,
    `--storage.tsdb.path=${path.join(dir, 'tsdb')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--storage.tsdb.retention.time=1h',
    '--log.level=warn',
  ]);
}

/** Starts the Alertmanager on a free port with `configFile`, its data under `dir`, no cluster. */
export async function startAlertmanager(
  binary: string,
  dir: string,
  configFile: string,
): Promise<ToolServer> {
  const port = await freePort();
  return startServer('Alertmanager', binary, port, dir, [
    `--config.file=${configFile}`,
    `--storage.path=${path.join(dir, 'am-data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--cluster.listen-address=',
    '--log.level=warn',
  ]);
}

/** Spawns a server listening on 127.0.0.1:`port`; resolves once its `/-/ready` answers 200. */
async function startServer(
  name: string,
  binary: string,
  port: number,
  cwd: string,
  args: readonly string[],
): Promise<ToolServer> {
  const child = spawn(binary, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer): void => {
    log = (log + d.toString('utf8')).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let stopping: Promise<void> | null = null;
  const server: ToolServer = {
    url: `http://127.0.0.1:${port}`,
    child,
    log: () => log,
    stop: (graceMs = 5_000) => {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(timer);
        }
      })();
      return stopping;
    },
  };
  try {
    await waitFor(
      `${name} ready on ${server.url}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`${binary} exited with ${child.exitCode}: ${log}`);
        const r = await fetch(`${server.url}/-/ready`, { signal: AbortSignal.timeout(1_000) });
        return r.ok;
      },
      20_000,
    );
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/** Paper mode and a Prometheus scraping it (see {@link startMonitoredPaper}). */
export interface MonitoredPaper {
  readonly paper: PaperSession;
  readonly prometheus: ToolServer;
  /** Prometheus's log and the last `paperTail` characters of paper mode's, for a failure message. */
  logs(paperTail?: number): string;
  /** Stops both at once. */
  stop(): Promise<void>;
}

/**
 * {@link startPaper} in `dir`, then {@link startPrometheus} scraping it with `ruleFiles` (alerts
 * sent to the Alertmanager on `alertmanagerPort` when given), its data under `dir` too.
 */
export async function startMonitoredPaper(
  prometheusBinary: string,
  dir: string,
  o: {
    ruleFiles: readonly string[];
    alertmanagerPort?: number;
    paper?: Parameters<typeof startPaper>[1];
  },
): Promise<MonitoredPaper> {
  const paper = await startPaper(dir, o.paper);
  let prometheus: ToolServer;
  try {
    prometheus = await startPrometheus(prometheusBinary, dir, {
      ruleFiles: o.ruleFiles,
      metricsPort: paper.metricsPort,
      ...(o.alertmanagerPort === undefined ? {} : { alertmanagerPort: o.alertmanagerPort }),
    });
  } catch (err) {
    await paper.stop();
    throw err;
  }
  return {
    paper,
    prometheus,
    logs: (paperTail = 4_000) =>
      `\n--- prometheus log ---\n${prometheus.log()}\n--- paper log (tail) ---\n${paper.logs().slice(-paperTail)}`,
    stop: () => stopAll(prometheus, paper),
  };
}

/** Stops whatever of `parts` was started, all at once (a suite's teardown). */
export async function stopAll(...parts: readonly ({ stop(): Promise<void> } | null)[]): Promise<void> {
  await Promise.all(parts.flatMap((p) => (p === null ? [] : [p.stop()])));
}

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { linearFit } from './measure.js';

/**
 * Steady-state memory of paper trading: `ledger-mm paper --latency fast` of the BUILT CLI, run
 * as a child process in real time (fresh venue and journal in a temp directory, its metrics on a
 * free loopback port), its `/metrics` scraped every `sampleMs` for `process_resident_memory_bytes`,
 * `nodejs_heap_size_used_bytes` and `ledger_mm_orders` (the orders the registry holds). At the
 * end: the last figures, the peak, and the growth over the last `windowMs` (a least-squares slope
 * and the first/last delta), judged against the noise of the samples. The child is stopped with
 * SIGTERM (it cancels its quotes) and its exit awaited.
 */

/** Options of {@link runPaperMemory}. */
export interface PaperMemoryOptions {
  /** How long the child trades. Default 10 minutes. */
  readonly durationMs?: number;
  /** The growth window at the end. Default the last half of the run, at most 5 minutes. */
  readonly windowMs?: number;
  /** Default 10 s. */
  readonly sampleMs?: number;
  /** The CLI to run (default this build's `dist/cli/main.js`). */
  readonly cli?: string;
  /** Extra arguments of `ledger-mm paper` (e.g. `--seed 3`). */
  readonly args?: readonly string[];
  /** Called with each sample (progress). */
  readonly onSample?: (s: MemorySample, durationMs: number) => void;
}

/** One scrape of the child. */
export interface MemorySample {
  /** ms since the child started. */
  readonly t: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  /** Σ `ledger_mm_orders` over states: the orders the registry holds. */
  readonly registryOrders: number | null;
}

/** Growth of one series over the window. */
export interface Growth {
  /** Least-squares slope, MiB per minute. */
  readonly slopeMiBPerMin: number;
  /** Last sample − first sample of the window, MiB. */
  readonly deltaMiB: number;
  /** The samples' scatter around the line (residual standard deviation), MiB. */
  readonly noiseMiB: number;
  /**
   * True when the fitted rise over the window exceeds the noise: more than twice the residual
   * standard deviation and more than 1 MiB.
   */
  readonly growing: boolean;
}

/** What {@link runPaperMemory} reports. */
export interface PaperMemoryResult {
  readonly durationMs: number;
  readonly windowMs: number;
  readonly sampleMs: number;
  readonly samples: readonly MemorySample[];
  /** The last sample's figures, MiB. */
  readonly rssMiB: number;
  readonly heapUsedMiB: number;
  readonly peakRssMiB: number;
  readonly rss: Growth;
  readonly heap: Growth;
  /** Registry size at the end and its peak (eviction keeps it bounded). */
  readonly registryOrders: number | null;
  readonly peakRegistryOrders: number | null;
  /** Quotes placed by the child (`placed …` log lines). */
  readonly placements: number;
  readonly exitCode: number | null;
}

const MiB = 1024 * 1024;

/** The built CLI next to this module (`dist/lab/bench/` → `dist/cli/main.js`). */
export const BUILT_CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** Runs the measurement; see the module doc. */
export async function runPaperMemory(o: PaperMemoryOptions = {}): Promise<PaperMemoryResult> {
  const durationMs = o.durationMs ?? 600_000;
  const windowMs = o.windowMs ?? Math.min(300_000, durationMs / 2);
  const sampleMs = o.sampleMs ?? 10_000;
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-bench-paper-'));
  const logFile = path.join(dir, 'paper.log');
  const log = fs.openSync(logFile, 'w');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LEDGER_MM_METRICS_PORT: String(port),
    LEDGER_MM_STORE_PATH: path.join(dir, 'store', 'ledger-mm.sqlite'),
  };
  const child = spawn(
    process.execPath,
    [o.cli ?? BUILT_CLI, 'paper', '--latency', 'fast', ...(o.args ?? [])],
    { cwd: dir, env, stdio: ['ignore', log, log] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((c) => (exitCode = c));
  const samples: MemorySample[] = [];
  const t0 = performance.now();
  try {
    for (let next = sampleMs; next <= durationMs; next += sampleMs) {
      await delay(next - (performance.now() - t0));
      if (exitCode !== undefined) throw new Error(`the paper child exited early (code ${String(exitCode)})`);
      const text = await scrape(port);
      if (text === null) continue;
      const s: MemorySample = {
        t: Math.round(performance.now() - t0),
        rssBytes: metric(text, 'process_resident_memory_bytes') ?? 0,
        heapUsedBytes: metric(text, 'nodejs_heap_size_used_bytes') ?? 0,
        registryOrders: sumOf(text, 'ledger_mm_orders'),
      };
      samples.push(s);
      o.onSample?.(s, durationMs);
    }
  } catch (err) {
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
    throw new Error(
      `${err instanceof Error ? err.message : String(err)}\n--- paper log (tail) ---\n${tail}`,
      {
        cause: err,
      },
    );
  } finally {
    if (exitCode === undefined) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(killer);
    fs.closeSync(log);
  }
  const placements = (fs.readFileSync(logFile, 'utf8').match(/\bplaced (BUY|SELL)\b/g) ?? []).length;
  fs.rmSync(dir, { recursive: true, force: true });
  if (samples.length === 0) throw new Error('no sample of the paper child could be taken');
  const last = samples[samples.length - 1]!;
  const end = last.t;
  const inWindow = samples.filter((s) => s.t >= end - windowMs);
  const orders = samples.map((s) => s.registryOrders).filter((n): n is number => n !== null);
  return {
    durationMs,
    windowMs,
    sampleMs,
    samples,
    rssMiB: last.rssBytes / MiB,
    heapUsedMiB: last.heapUsedBytes / MiB,
    peakRssMiB: Math.max(...samples.map((s) => s.rssBytes)) / MiB,
    rss: growth(inWindow, (s) => s.rssBytes),
    heap: growth(inWindow, (s) => s.heapUsedBytes),
    registryOrders: last.registryOrders,
    peakRegistryOrders: orders.length === 0 ? null : Math.max(...orders),
    placements,
    exitCode: (await exited) ?? null,
  };
}

/** Growth of one series over samples; see {@link Growth}. */
export function growth(samples: readonly MemorySample[], value: (s: MemorySample) => number): Growth {
  const xs = samples.map((s) => s.t / 60_000);
  const ys = samples.map((s) => value(s) / MiB);
  const fit = linearFit(xs, ys);
  const span = xs.length > 1 ? xs[xs.length - 1]! - xs[0]! : 0;
  const rise = fit.slope * span;
  return {
    slopeMiBPerMin: fit.slope,
    deltaMiB: ys.length > 1 ? ys[ys.length - 1]! - ys[0]! : 0,
    noiseMiB: fit.residualSd,
    growing: rise > Math.max(1, 2 * fit.residualSd),
  };
}

/** The value of an unlabelled sample `name` in a Prometheus exposition. */
export function metric(text: string, name: string): number | null {
  const m = new RegExp(`^${name} (\\S+)`, 'm').exec(text);
  return m === null ? null : Number(m[1]);
}

/** The sum of every sample of `name` (any labels), or null when there is none. */
export function sumOf(text: string, name: string): number | null {
  let total: number | null = null;
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'gm'))) {
    total = (total ?? 0) + Number(m[1]);
  }
  return total;
}

async function scrape(port: number): Promise<string | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5_000) });
    return res.ok ? await res.text() : null;
  } catch {
    return null; // not listening yet, or a slow scrape: skip this sample
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** A free loopback port (bound and released; the child binds it right after). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

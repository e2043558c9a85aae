/**
 * Steady-state memory of paper trading: `ledger-mm paper --latency fast` of the BUILT CLI, run
 * as a child process in real time (fresh venue and journal in a temp directory, its metrics on a
 * free loopback port), its `/metrics` scraped every `sampleMs` for `process_resident_memory_bytes`,
 * the V8 heap (used and total), external memory and `ledger_mm_orders` (the orders the registry
 * holds). At the end: the last figures, the peak, and the growth over a window (a least-squares
 * slope and the first/last delta) against the noise of the samples. The child is stopped with
 * SIGTERM (it cancels its quotes) and its exit awaited.
 *
 * The growth is judged only after the warm-up ({@link PAPER_WARMUP_MS}: 81 minutes, until the
 * venue's retained history is full) and over at least {@link MIN_STEADY_MS} after it. A shorter
 * run reports the growth over its last minutes for information: it measures the fill of bounded
 * windows, not a leak (see {@link verdictWindow}).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { PAPER_WARMUP_MS } from '../rig/paper-venue.js';
import { linearFit } from './measure.js';

/** The least steady-state span (after the warm-up) whose growth is judged. */
export const MIN_STEADY_MS = 30 * 60_000;

/** Options of {@link runPaperMemory}. */
export interface PaperMemoryOptions {
  /** How long the child trades. Default 10 minutes. */
  readonly durationMs?: number;
  /** Memory still filling bounded windows until then. Default {@link PAPER_WARMUP_MS}. */
  readonly warmupMs?: number;
  /**
   * The growth window of a run too short to judge (shown for information). Default the last half
   * of the run, at most 5 minutes. A judged run's window is everything after the warm-up.
   */
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
  /** The V8 heap's reserved size (used + headroom); null when the exposition lacks it. */
  readonly heapTotalBytes: number | null;
  /** Memory of C++ objects bound to JS objects (`external`), null when absent. */
  readonly externalBytes: number | null;
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
  readonly warmupMs: number;
  /** The growth window: from `windowStartMs` (ms since start) to the last sample. */
  readonly windowStartMs: number;
  readonly windowMs: number;
  /** True when the window lies after the warm-up and spans {@link MIN_STEADY_MS}. */
  readonly judged: boolean;
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
  const warmupMs = o.warmupMs ?? PAPER_WARMUP_MS;
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
        heapTotalBytes: metric(text, 'nodejs_heap_size_total_bytes'),
        externalBytes: metric(text, 'nodejs_external_memory_bytes'),
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
  return summarisePaperMemory(samples, {
    durationMs,
    warmupMs,
    sampleMs,
    ...(o.windowMs === undefined ? {} : { windowMs: o.windowMs }),
    placements,
    exitCode: (await exited) ?? null,
  });
}

/** The result of a run from its samples (at least one); see {@link PaperMemoryResult}. */
export function summarisePaperMemory(
  samples: readonly MemorySample[],
  run: Pick<PaperMemoryResult, 'durationMs' | 'warmupMs' | 'sampleMs' | 'placements' | 'exitCode'> & {
    readonly windowMs?: number;
  },
): PaperMemoryResult {
  const last = samples[samples.length - 1];
  if (last === undefined) throw new RangeError('no memory sample');
  const w = verdictWindow(last.t, run.warmupMs, run.windowMs);
  const inWindow = samples.filter((s) => s.t >= w.startMs);
  const orders = samples.map((s) => s.registryOrders).filter((n): n is number => n !== null);
  return {
    durationMs: run.durationMs,
    warmupMs: run.warmupMs,
    windowStartMs: w.startMs,
    windowMs: last.t - w.startMs,
    judged: w.judged,
    sampleMs: run.sampleMs,
    samples,
    rssMiB: last.rssBytes / MiB,
    heapUsedMiB: last.heapUsedBytes / MiB,
    peakRssMiB: Math.max(...samples.map((s) => s.rssBytes)) / MiB,
    rss: growth(inWindow, (s) => s.rssBytes),
    heap: growth(inWindow, (s) => s.heapUsedBytes),
    registryOrders: last.registryOrders,
    peakRegistryOrders: orders.length === 0 ? null : Math.max(...orders),
    placements: run.placements,
    exitCode: run.exitCode,
  };
}

/**
 * Where the growth window of a run whose last sample is at `endMs` starts, and whether its growth
 * is judged: from the end of the warm-up when at least {@link MIN_STEADY_MS} follows it (judged),
 * else the last `shortWindowMs` (default half the run, at most 5 minutes; not judged, since the
 * memory is still filling the venue's and the registry's bounded windows).
 */
export function verdictWindow(
  endMs: number,
  warmupMs: number,
  shortWindowMs?: number,
): { readonly startMs: number; readonly judged: boolean } {
  if (endMs - warmupMs >= MIN_STEADY_MS) return { startMs: warmupMs, judged: true };
  return { startMs: Math.max(0, endMs - (shortWindowMs ?? Math.min(300_000, endMs / 2))), judged: false };
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

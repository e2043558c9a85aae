/**
 * What every part of `npm run bench` shares: the machine it ran on, a CPU and wall-clock meter,
 * and a meter for the in-process simulated venue's own share of the CPU (in production the venue
 * is a remote host, so the daemon's local cost is the total minus that share).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';

/** The machine the figures were taken on. */
export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
  readonly platform: string;
  readonly totalMemoryMiB: number;
}

/** The CPU model (from `os.cpus()`), core count, Node version, platform and total memory. */
export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    totalMemoryMiB: Math.round(os.totalmem() / 1024 / 1024),
  };
}

/** CPU (user + system) and wall time spent between two readings, µs. */
export interface Spent {
  readonly cpuUs: number;
  /** The system (kernel) part of `cpuUs`: writes and fsyncs of the journal, mostly. */
  readonly sysUs: number;
  readonly wallUs: number;
}

/** A running CPU and wall-clock meter: `start()` → work → `stop()` adds to the totals. */
export class CpuMeter {
  private cpuUs = 0;
  private sysUs = 0;
  private wallUs = 0;
  private startCpu: NodeJS.CpuUsage | null = null;
  private startWall = 0;

  start(): void {
    this.startCpu = process.cpuUsage();
    this.startWall = performance.now();
  }

  stop(): Spent {
    if (this.startCpu === null) throw new Error('CpuMeter.stop() without start()');
    const wall = (performance.now() - this.startWall) * 1000;
    const used = process.cpuUsage(this.startCpu);
    const cpu = used.user + used.system;
    this.cpuUs += cpu;
    this.sysUs += used.system;
    this.wallUs += wall;
    this.startCpu = null;
    return { cpuUs: cpu, sysUs: used.system, wallUs: wall };
  }

  get total(): Spent {
    return { cpuUs: this.cpuUs, sysUs: this.sysUs, wallUs: this.wallUs };
  }
}

/**
 * Time spent inside the simulated venue (its request handler and its own timers), µs of
 * high-resolution wall time: the process is single-threaded and these sections never wait, so
 * their wall time is their CPU time. Nested sections count once.
 */
export class VenueMeter {
  private us = 0;
  private depth = 0;

  /** Runs `fn`, adding its duration to the venue's share. */
  run<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.depth += 1;
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      this.us += (performance.now() - t0) * 1000;
      this.depth -= 1;
    }
  }

  /** µs spent in the venue so far. */
  get totalUs(): number {
    return this.us;
  }
}

/** CPU and wall time of one kind of section (journal writes, signatures), summed, with a count. */
export class SectionMeter {
  cpuUs = 0;
  wallUs = 0;
  calls = 0;

  /** Runs `fn`, adding its CPU (user + system) and wall time. */
  run<T>(fn: () => T): T {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      const c = process.cpuUsage(c0);
      this.cpuUs += c.user + c.system;
      this.wallUs += (performance.now() - t0) * 1000;
      this.calls += 1;
    }
  }

  /** The totals so far. */
  snapshot(): { cpuUs: number; wallUs: number; calls: number } {
    return { cpuUs: this.cpuUs, wallUs: this.wallUs, calls: this.calls };
  }
}

/** Mean, percentiles and extremes of a sample. */
export interface Summary {
  readonly n: number;
  readonly mean: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

/** Summarises `xs` (empty: zeros). */
export function summarise(xs: readonly number[]): Summary {
  if (xs.length === 0) return { n: 0, mean: 0, p50: 0, p95: 0, max: 0 };
  const s = [...xs].sort((a, b) => a - b);
  const pct = (p: number): number => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
  return {
    n: s.length,
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    p50: pct(50),
    p95: pct(95),
    max: s[s.length - 1] ?? 0,
  };
}

/** Least-squares line through (x, y); slope per unit of x, and the residuals' standard deviation. */
export interface LinearFit {
  readonly slope: number;
  readonly intercept: number;
  readonly residualSd: number;
}

/** Fits y = a + b·x. Fewer than two points: a flat line through the mean. */
export function linearFit(xs: readonly number[], ys: readonly number[]): LinearFit {
  const n = Math.min(xs.length, ys.length);
  if (n === 0) return { slope: 0, intercept: 0, residualSd: 0 };
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i]!;
    my += ys[i]!;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const intercept = my - slope * mx;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (ys[i]! - (intercept + slope * xs[i]!)) ** 2;
  return { slope, intercept, residualSd: n > 2 ? Math.sqrt(ss / (n - 2)) : 0 };
}

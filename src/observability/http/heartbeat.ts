/**
 * The daemon's heartbeat, what `/healthz` answers and the watchdog (`ledger-mm watchdog`) reads:
 * alive only while the quote cycle is actually running, so a daemon stuck in a dead loop, whose
 * event loop still answers HTTP, reads as dead.
 *
 * | daemon phase | alive while |
 * |---|---|
 * | created, preflight, recovering | at most `startupGraceMs` after the heartbeat was made (the start) |
 * | running | the last quote cycle completed at most `staleMs` ago (the entry into running counts as one) |
 * | closing | always: the daemon's own bounded stop is cancelling its orders |
 * | closed, failed | never |
 *
 * It observes the daemon's events (`daemon-phase`, `cycle`) and never decides anything else.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import { Poller } from '../../core/poller.js';

/** The heartbeat's answer at one instant. */
export interface HeartbeatVerdict {
  readonly alive: boolean;
  readonly phase: string;
  /** Quote cycles seen since the start. */
  readonly cycles: number;
  /** Time since the last completed quote cycle, ms; null before the first. */
  readonly lastCycleAgeMs: number | null;
  /** Why it is not alive; empty when alive. */
  readonly reasons: readonly string[];
}

/** The events the heartbeat reads (a `DaemonEvent` fits). */
export type HeartbeatEvent =
  | { readonly type: 'daemon-phase'; readonly phase: string; readonly at: number }
  | { readonly type: 'cycle' }
  | { readonly type: string };

/** Options of {@link DaemonHeartbeat}. */
export interface DaemonHeartbeatOptions {
  readonly clock: Clock;
  /** Config `watchdog.heartbeatStaleMs`. */
  readonly staleMs: number;
  /** Config `watchdog.startupGraceMs`. */
  readonly startupGraceMs: number;
}

const STARTING = new Set(['created', 'preflight', 'recovering']);

/** See the module doc. */
export class DaemonHeartbeat {
  private phase = 'created';
  private readonly startedAt: number;
  private lastCycleAt: number | null = null;
  private runningSince: number | null = null;
  private cycles = 0;

  constructor(private readonly o: DaemonHeartbeatOptions) {
    this.startedAt = o.clock.now();
  }

  /** Feeds one daemon event. */
  observe(e: HeartbeatEvent): void {
    if (e.type === 'daemon-phase' && 'phase' in e) {
      this.phase = e.phase;
      if (e.phase === 'running') this.runningSince ??= this.o.clock.now();
    } else if (e.type === 'cycle') {
      this.cycles += 1;
      this.lastCycleAt = this.o.clock.now();
    }
  }

  /** Alive or not, now. */
  verdict(): HeartbeatVerdict {
    const now = this.o.clock.now();
    const lastCycleAgeMs = this.lastCycleAt === null ? null : now - this.lastCycleAt;
    const base = { phase: this.phase, cycles: this.cycles, lastCycleAgeMs };
    const dead = (reason: string): HeartbeatVerdict => ({ ...base, alive: false, reasons: [reason] });
    if (STARTING.has(this.phase)) {
      const age = now - this.startedAt;
      return age <= this.o.startupGraceMs
        ? { ...base, alive: true, reasons: [] }
        : dead(
            `still ${this.phase} ${seconds(age)} after the start (watchdog.startupGraceMs ${seconds(this.o.startupGraceMs)})`,
          );
    }
    if (this.phase === 'closing') return { ...base, alive: true, reasons: [] };
    if (this.phase !== 'running') return dead(`daemon ${this.phase}`);
    const since = Math.max(this.lastCycleAt ?? -Infinity, this.runningSince ?? -Infinity);
    const age = now - since;
    return age <= this.o.staleMs
      ? { ...base, alive: true, reasons: [] }
      : dead(
          `the quote cycle has not run for ${seconds(age)} (watchdog.heartbeatStaleMs ${seconds(this.o.staleMs)})`,
        );
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** One beat in the heartbeat file (`watchdog.heartbeatFile`). */
export interface HeartbeatFileBeat {
  /** Increases on every write; the watchdog counts a beat when it changed and `alive` is true. */
  readonly seq: number;
  readonly alive: boolean;
  readonly phase: string;
  readonly pid: number;
  /** The daemon's clock, ISO 8601: for people; the watchdog times beats on its own clock. */
  readonly at: string;
}

/**
 * Rewrites the heartbeat file every `everyMs` (default 1 s) with the verdict, atomically (a
 * temporary file renamed over it), so a reader on a shared volume never sees half a beat. A
 * write that fails is reported once per streak and retried on the next tick.
 */
export class HeartbeatFileWriter {
  private poller: Poller | null = null;
  private seq = 0;
  private failing = false;

  constructor(
    private readonly o: {
      readonly clock: Clock;
      readonly file: string;
      readonly verdict: () => HeartbeatVerdict;
      readonly everyMs?: number;
      readonly onError?: (err: unknown) => void;
    },
  ) {}

  /** Starts the beats (the first at once). */
  start(): void {
    this.poller ??= new Poller({
      name: 'heartbeat-file',
      clock: this.o.clock,
      intervalMs: this.o.everyMs ?? 1_000,
      task: async () => this.write(),
    });
    this.poller.start();
  }

  /** Stops the beats and writes a last one marked not alive. */
  async close(): Promise<void> {
    await this.poller?.close();
    this.poller = null;
    this.write(false);
  }

  private write(alive?: boolean): void {
    const v = this.o.verdict();
    const beat: HeartbeatFileBeat = {
      seq: ++this.seq,
      alive: alive ?? v.alive,
      phase: v.phase,
      pid: process.pid,
      at: new Date(this.o.clock.now()).toISOString(),
    };
    const tmp = path.join(path.dirname(this.o.file), `.${path.basename(this.o.file)}.${process.pid}.tmp`);
    try {
      fs.writeFileSync(tmp, `${JSON.stringify(beat)}\n`);
      fs.renameSync(tmp, this.o.file);
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.o.onError?.(err);
      this.failing = true;
    }
  }
}

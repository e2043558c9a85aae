/**
 * The dead-man switch: watches the daemon's heartbeat and, once it has been silent for
 * `deadAfterMs`, cancels every resting order of the party, again every `sweepMs` for as long as
 * the heartbeat stays silent (so a daemon that is alive but cut off from the watchdog gets its
 * quotes pulled, never added to: nothing here places an order). The moment a heartbeat is seen
 * again it stands down: the running sweep is aborted (cancels already submitted run to their
 * confirmation) and nothing more is cancelled.
 *
 * Silence is measured on the watchdog's own clock from the last heartbeat seen, or from the
 * watchdog's start before the first one (a daemon that never answers is dead too). It is checked
 * on a deadline timer of its own, not only when a read comes back: a read that hangs past its
 * timeout (a stopped daemon's socket accepts and never answers) must not hold the trigger back.
 */
import { sleep, type Clock, type TimerHandle } from '../core/clock.js';
import { Poller } from '../core/poller.js';
import type { Logger } from '../logging/logger.js';
import type { HeartbeatProbe, ProbeResult } from './heartbeat-probe.js';
import type { SweepReport } from './cancel-sweep.js';
import type { WatchdogMetrics } from './watchdog-metrics.js';

/** Watching, or cancelling because the heartbeat went silent. */
export type WatchdogMode = 'watching' | 'triggered';

/** Options of {@link Watchdog}. */
export interface WatchdogOptions {
  readonly clock: Clock;
  readonly probe: HeartbeatProbe;
  /** One cancel sweep (a `CancelSweeper.sweep` fits). */
  readonly sweep: (signal: AbortSignal, onCancelled: (orderId: string) => void) => Promise<SweepReport>;
  readonly deadAfterMs: number;
  readonly pollMs: number;
  readonly sweepMs: number;
  readonly logger: Logger;
  readonly metrics?: WatchdogMetrics;
}

/** One trigger, as `/status` shows it. */
export interface TriggerRecord {
  readonly at: number;
  /** The last heartbeat seen before it (null: none since the watchdog started). */
  readonly lastHeartbeatAt: number | null;
  /** When a re-list first showed nothing resting (null: not yet). */
  clearedAt: number | null;
  /** When the heartbeat came back (null: not yet). */
  endedAt: number | null;
  /** Orders this trigger's sweeps cancelled. */
  readonly cancelled: string[];
}

/** See the module doc. */
export class Watchdog {
  private modeValue: WatchdogMode = 'watching';
  private readonly startedAt: number;
  private lastHeartbeatAt: number | null = null;
  private lastProbe: ProbeResult | null = null;
  private poller: Poller | null = null;
  private deadline: TimerHandle | null = null;
  private closed = false;
  private sweeping: { readonly abort: AbortController; readonly done: Promise<void> } | null = null;
  private readonly history: TriggerRecord[] = [];

  constructor(private readonly o: WatchdogOptions) {
    this.startedAt = o.clock.now();
  }

  get mode(): WatchdogMode {
    return this.modeValue;
  }

  /** Seconds since the last heartbeat (since the start, before the first). */
  heartbeatAgeSeconds(): number {
    return (this.o.clock.now() - (this.lastHeartbeatAt ?? this.startedAt)) / 1000;
  }

  /** Starts watching (the first read at once). */
  start(): void {
    this.poller ??= new Poller({
      name: 'heartbeat',
      clock: this.o.clock,
      intervalMs: this.o.pollMs,
      task: (signal) => this.tick(signal),
      onError: (err) => this.o.logger.error({ err }, 'watchdog heartbeat read failed'),
    });
    this.poller.start();
    this.armDeadline();
  }

  /** Stops watching and any sweep (cancels already submitted are let confirm). */
  async close(): Promise<void> {
    this.closed = true;
    this.disarmDeadline();
    await this.poller?.close();
    await this.standDown('the watchdog stops');
  }

  /** What `/status` shows: the mode, the heartbeat, the last triggers and what they cancelled. */
  status(): Record<string, unknown> {
    const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());
    return {
      mode: this.modeValue,
      lastHeartbeatAt: iso(this.lastHeartbeatAt),
      heartbeatAgeSeconds: this.heartbeatAgeSeconds(),
      deadAfterMs: this.o.deadAfterMs,
      lastRead: this.lastProbe,
      triggers: this.history.map((t) => ({
        at: iso(t.at),
        lastHeartbeatAt: iso(t.lastHeartbeatAt),
        clearedAt: iso(t.clearedAt),
        endedAt: iso(t.endedAt),
        cancelled: [...t.cancelled],
      })),
    };
  }

  private async tick(signal: AbortSignal): Promise<void> {
    this.checkSilence();
    const result = await this.o.probe(signal);
    if (signal.aborted) return;
    this.lastProbe = result;
    const m = this.o.metrics;
    if (result.alive) {
      this.lastHeartbeatAt = this.o.clock.now();
      m?.lastHeartbeat.set(this.lastHeartbeatAt / 1000);
      this.armDeadline();
      if (this.modeValue === 'triggered') {
        const t = this.history.at(-1);
        if (t !== undefined) t.endedAt = this.lastHeartbeatAt;
        this.o.logger.warn(
          { read: result.detail },
          'daemon heartbeat is back: the watchdog stands down (cancels already submitted are let confirm; nothing more is cancelled)',
        );
        await this.standDown('the daemon is back');
      }
      return;
    }
    m?.probeFailures.inc();
    this.o.logger.debug({ read: result.detail }, 'no heartbeat');
    this.checkSilence();
  }

  private checkSilence(): void {
    if (this.modeValue !== 'watching' || this.closed) return;
    const since = this.lastHeartbeatAt ?? this.startedAt;
    const silentMs = this.o.clock.now() - since;
    if (silentMs < this.o.deadAfterMs) {
      this.armDeadline();
      return;
    }
    this.trigger(silentMs);
  }

  /** (Re)schedules {@link checkSilence} for the moment the silence would reach `deadAfterMs`. */
  private armDeadline(): void {
    this.disarmDeadline();
    if (this.closed) return;
    const since = this.lastHeartbeatAt ?? this.startedAt;
    const dueIn = Math.max(0, since + this.o.deadAfterMs - this.o.clock.now());
    this.deadline = this.o.clock.setTimeout(() => {
      this.deadline = null;
      this.checkSilence();
    }, dueIn);
  }

  private disarmDeadline(): void {
    if (this.deadline !== null) this.o.clock.clearTimeout(this.deadline);
    this.deadline = null;
  }

  private trigger(silentMs: number): void {
    const now = this.o.clock.now();
    this.modeValue = 'triggered';
    const record: TriggerRecord = {
      at: now,
      lastHeartbeatAt: this.lastHeartbeatAt,
      clearedAt: null,
      endedAt: null,
      cancelled: [],
    };
    this.history.push(record);
    if (this.history.length > 20) this.history.shift();
    this.o.metrics?.triggers.inc();
    this.o.metrics?.daemonAlive.set(0);
    this.o.logger.error(
      { silentMs, lastRead: this.lastProbe?.detail ?? null },
      `daemon heartbeat silent for ${(silentMs / 1000).toFixed(1)} s (watchdog.deadAfterMs ` +
        `${this.o.deadAfterMs} ms): cancelling every resting order of the party`,
    );
    const abort = new AbortController();
    this.sweeping = { abort, done: this.sweepLoop(record, abort.signal) };
  }

  private async standDown(why: string): Promise<void> {
    const s = this.sweeping;
    this.sweeping = null;
    if (s !== null) {
      s.abort.abort(new DOMException(why, 'AbortError'));
      await s.done;
    }
    this.modeValue = 'watching';
    this.o.metrics?.daemonAlive.set(1);
    this.armDeadline();
  }

  private async sweepLoop(record: TriggerRecord, signal: AbortSignal): Promise<void> {
    const { logger, metrics: m, clock } = this.o;
    while (!signal.aborted) {
      m?.sweeps.inc();
      try {
        const note = (id: string): void => {
          if (!record.cancelled.includes(id)) record.cancelled.push(id);
        };
        const r = await this.o.sweep(signal, note);
        r.cancelled.forEach(note);
        m?.ordersCancelled.inc(r.cancelled.length);
        for (const f of r.failures) m?.cancelFailures.inc({ reason: f.reason });
        for (const f of r.failures)
          logger.warn(f, `watchdog cancel of ${f.orderId ?? '?'} did not take effect: ${f.reason}`);
        if (r.left >= 0) m?.restingOrders.set(r.left);
        logger.info(
          { cancelled: r.cancelled, failures: r.failures.length, gone: r.gone, left: r.left },
          `watchdog sweep: ${r.cancelled.length} cancelled, ${r.failures.length} failed, ${r.left} still resting`,
        );
        if (r.left === 0 && record.clearedAt === null) {
          record.clearedAt = clock.now();
          const fromTrigger = (record.clearedAt - record.at) / 1000;
          m?.clearSeconds.set(fromTrigger);
          logger.warn(
            {
              fromTriggerS: fromTrigger,
              fromLastHeartbeatS:
                record.lastHeartbeatAt === null ? null : (record.clearedAt - record.lastHeartbeatAt) / 1000,
            },
            `nothing of the party rests, ${fromTrigger.toFixed(1)} s after the trigger; still watching`,
          );
        }
      } catch (err) {
        if (signal.aborted) break;
        m?.cancelFailures.inc({ reason: 'sweep_failed' });
        logger.error({ err }, `watchdog sweep failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      try {
        await sleep(clock, this.o.sweepMs, signal);
      } catch {
        break;
      }
    }
  }
}

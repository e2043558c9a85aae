/**
 * Which of our orders the watchdog cancelled. The venue records a cancel's `reason` for audit but
 * its order shape does not return it, so the daemon cannot read the watchdog's reason back; with
 * `watchdog.statusUrl` set it asks the watchdog instead. An order of ours that ended CANCELLED
 * other than by the confirmation of our own cancel (a read that shows it cancelled, the state
 * machine's `cancelled-by-venue` alarm, a 409 ORDER_ALREADY_CANCELLED on our own cancel; at
 * recovery too) is looked up in the watchdog's `/status`; one it
 * lists is logged (WARN `cancelled by the watchdog`), counted
 * (`ledger_mm_cancelled_by_watchdog_total{pair}`) and journaled (meta
 * `watchdog.cancelled.<orderId>`, the trigger's time). Lookups are batched every `everyMs` and
 * retried up to `attempts` times while the watchdog cannot be reached; one that never answers
 * leaves the order reported as cancelled on the venue, cause not shown.
 *
 * It observes and records; it decides nothing about quoting.
 */
import { Counter, type Registry } from 'prom-client';
import { systemClock, timeoutSignal, type Clock } from '../../core/clock.js';
import { Poller } from '../../core/poller.js';
import type { Logger } from '../../logging/logger.js';
import type { TrackedOrder } from '../../orders/fsm/index.js';
import type { Daemon } from '../daemon.js';
import type { DaemonEvent } from '../daemon-types.js';
import type { DaemonAttachment } from '../run-daemon.js';

/** Options of {@link WatchdogAttribution}. */
export interface WatchdogAttributionOptions {
  /** Config `watchdog.statusUrl`. */
  readonly url: string;
  readonly clock?: Clock;
  readonly registry?: Registry;
  /** Batch period, ms. Default 2 s. */
  readonly everyMs?: number;
  /** Lookups per order before giving up. Default 5. */
  readonly attempts?: number;
  /** Bound on one request, ms. Default 5 s. */
  readonly timeoutMs?: number;
}

interface Pending {
  readonly orderId: string;
  readonly pair: string;
  readonly side: string;
  tries: number;
}

/** The watchdog's `/status`, the part read here. */
interface WatchdogStatus {
  readonly triggers?: readonly { readonly at?: string; readonly cancelled?: readonly string[] }[];
}

/** See the module doc. */
export class WatchdogAttribution {
  private readonly pending = new Map<string, Pending>();
  private readonly counter: Counter<'pair'> | null;
  private poller: Poller | null = null;
  private unsubscribe: () => void = () => undefined;

  constructor(private readonly o: WatchdogAttributionOptions) {
    this.counter =
      o.registry === undefined
        ? null
        : new Counter<'pair'>({
            name: 'ledger_mm_cancelled_by_watchdog_total',
            help: 'Orders of ours the watchdog cancelled, as its /status says (watchdog.statusUrl)',
            labelNames: ['pair'],
            registers: [o.registry],
          });
  }

  /** Starts watching the daemon's events. */
  attach(daemon: Daemon, logger: Logger): { close(): Promise<void> } {
    const clock = this.o.clock ?? systemClock;
    this.unsubscribe = daemon.subscribe((e) => this.observe(e, (key) => daemon.engine?.orders.get(key)));
    this.poller = new Poller({
      name: 'watchdog-attribution',
      clock,
      intervalMs: this.o.everyMs ?? 2_000,
      initialDelayMs: this.o.everyMs ?? 2_000,
      task: (signal) => this.lookup(daemon, logger, signal),
      onError: (err) => logger.debug({ err }, 'watchdog attribution failed'),
    });
    this.poller.start();
    return {
      close: async () => {
        this.unsubscribe();
        await this.poller?.close();
      },
    };
  }

  /** Notes an order cancelled without a cancel of ours taking effect. */
  observe(e: DaemonEvent, byKey: (key: string) => TrackedOrder | undefined): void {
    let order: TrackedOrder | undefined;
    if (e.type === 'order-alarm' && e.alarm.reason === 'cancelled-by-venue') order = e.order;
    else if (e.type === 'order-transition' && e.to === 'CANCELLED' && e.eventType !== 'CancelConfirmed')
      order = byKey(e.key);
    if (order?.orderId == null || this.pending.has(order.orderId)) return;
    this.pending.set(order.orderId, { orderId: order.orderId, pair: order.pair, side: order.side, tries: 0 });
  }

  private async lookup(daemon: Daemon, logger: Logger, signal: AbortSignal): Promise<void> {
    if (this.pending.size === 0) return;
    let status: WatchdogStatus;
    // A controller held here, on the injected clock, not AbortSignal.any(AbortSignal.timeout):
    // with that composite a heartbeat read of the watchdog's once hung far past its timeout.
    const bound = timeoutSignal(this.o.clock ?? systemClock, this.o.timeoutMs ?? 5_000, signal);
    try {
      const res = await fetch(this.o.url, { signal: bound.signal, headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      status = (await res.json()) as WatchdogStatus;
    } catch (err) {
      this.giveUpSome(logger, err);
      return;
    } finally {
      bound.dispose();
    }
    const byOrder = new Map<string, string | null>();
    for (const t of status.triggers ?? []) for (const id of t.cancelled ?? []) byOrder.set(id, t.at ?? null);
    for (const p of [...this.pending.values()]) {
      if (!byOrder.has(p.orderId)) {
        // The watchdog lists a cancel once its own confirmation read saw it, which may come a
        // little after ours: ask again before concluding.
        p.tries += 1;
        if (p.tries < (this.o.attempts ?? 5)) continue;
        this.pending.delete(p.orderId);
        logger.info(
          { orderId: p.orderId },
          `order ${p.orderId} was cancelled on the venue, not by the watchdog`,
        );
        continue;
      }
      this.pending.delete(p.orderId);
      const triggerAt = byOrder.get(p.orderId) ?? null;
      this.counter?.inc({ pair: p.pair });
      try {
        daemon.engine?.meta.set(`watchdog.cancelled.${p.orderId}`, JSON.stringify({ triggerAt }));
      } catch (err) {
        logger.warn({ err, orderId: p.orderId }, 'the watchdog attribution could not be journaled');
      }
      logger.warn(
        { orderId: p.orderId, pair: p.pair, side: p.side, triggerAt },
        `order ${p.orderId} (${p.side} ${p.pair}) was cancelled by the watchdog` +
          (triggerAt === null ? '' : ` (it found the daemon dead at ${triggerAt})`),
      );
    }
  }

  private giveUpSome(logger: Logger, err: unknown): void {
    const max = this.o.attempts ?? 5;
    for (const p of [...this.pending.values()]) {
      p.tries += 1;
      if (p.tries < max) continue;
      this.pending.delete(p.orderId);
      logger.info(
        { orderId: p.orderId, err: err instanceof Error ? err.message : String(err) },
        `order ${p.orderId} was cancelled on the venue; the watchdog could not be asked whether it was its cancel`,
      );
    }
  }
}

/** The attachment for `runDaemon`, or null when `watchdog.statusUrl` is not set. */
export function watchdogAttributionAttachment(o: {
  readonly url: string;
  readonly registry?: Registry;
}): DaemonAttachment | null {
  if (o.url === '') return null;
  const a = new WatchdogAttribution({
    url: o.url,
    ...(o.registry === undefined ? {} : { registry: o.registry }),
  });
  return { attach: async (daemon, logger) => a.attach(daemon, logger) };
}

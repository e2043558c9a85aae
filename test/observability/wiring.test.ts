/** A daemon as the wiring sees it: events, readiness and a state view. */

import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { DaemonEvent } from '../../src/daemon/daemon-types.js';
import {
  attachObservability,
  observabilityAttachment,
  type AttachedObservability,
  type ObservableDaemon,
} from '../../src/daemon/reporting/observability-wiring.js';
import { createLogger } from '../../src/logging/logger.js';
import type { Readiness } from '../../src/observability/http/readiness.js';
import type { DaemonStateView } from '../../src/observability/http/state-view.js';
import { parseExposition, valueOf } from './support/exposition.js';
class FakeDaemon implements ObservableDaemon {
  phase = 'running';
  ready: Readiness = { ready: false, reasons: ['no quote cycle has run yet'] };
  private readonly listeners = new Set<(e: DaemonEvent) => void>();

  subscribe(listener: (e: DaemonEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(e: unknown): void {
    for (const l of this.listeners) l(e as DaemonEvent);
  }
  get subscribers(): number {
    return this.listeners.size;
  }
  readiness(): Readiness {
    return this.ready;
  }
  stateView(): DaemonStateView {
    return {
      now: Date.now(),
      pairs: [
        {
          pair: 'BTC/USDC',
          quotes: [],
          reference: null,
          inventory: { base: dec('0.5') },
          pnl: null,
          riskState: 'halted',
        },
      ],
      balances: null,
      pollers: [],
      orderCounts: { OPEN: 2 },
    };
  }
}

const lines: string[] = [];
const logger = createLogger({ level: 'info', destination: { write: (l: string) => lines.push(l) } });
const config = { pairs: ['BTC/USDC'], metrics: { host: '127.0.0.1', port: 0 } };

let attached: AttachedObservability | null = null;
afterEach(async () => {
  await attached?.close();
  attached = null;
});

async function get(path: string): Promise<{ status: number; body: string }> {
  const r = await fetch(`http://127.0.0.1:${attached!.address.port}${path}`);
  return { status: r.status, body: await r.text() };
}

describe('observabilityAttachment', () => {
  it('serves the daemon: events, reloads and risk denials counted, state on scrape, readiness, status', async () => {
    const daemon = new FakeDaemon();
    const attachment = observabilityAttachment({ config });
    expect(Object.keys(attachment.venueHooks ?? {}).sort()).toEqual([
      'onRateLimited',
      'onResponse',
      'onRetry',
    ]);
    attached = await attachment.attach(daemon, logger);
    expect(lines.some((l) => l.includes('metrics and health on http://127.0.0.1:'))).toBe(true);

    daemon.emit({
      type: 'cancel',
      outcome: { key: 'k', orderId: 'o', filled: null, kind: 'cancelled' },
      ms: 1,
      at: 1,
    });
    daemon.emit({ type: 'config-reload', ok: false, error: new Error('bad'), at: 1 });
    daemon.emit({ type: 'config-reload', ok: true, version: 2, changed: [], ignored: [], at: 1 });
    daemon.emit({
      type: 'cycle',
      report: {
        verdict: { denied: [{ action: { quote: { pair: 'BTC/USDC' } }, reason: 'stale-book', detail: '' }] },
      },
    });
    daemon.emit({ type: 'daemon-phase', phase: 'running', at: 1 });
    const queuedAt = Date.now() - 5_000;
    daemon.emit({
      type: 'queue',
      queue: 'placement',
      depth: 3,
      inFlight: 1,
      oldestWaitMs: 1_000,
      at: queuedAt,
    });
    daemon.emit({ type: 'queue', queue: 'cancel', depth: 0, inFlight: 2, oldestWaitMs: 0, at: queuedAt });

    const m = await get('/metrics');
    expect(m.status).toBe(200);
    const f = parseExposition(m.body);
    expect(valueOf(f, 'ledger_mm_cancels_total', { outcome: 'cancelled' })).toBe(1);
    expect(valueOf(f, 'ledger_mm_config_reloads_total', { outcome: 'rejected' })).toBe(1);
    expect(valueOf(f, 'ledger_mm_config_reloads_total', { outcome: 'applied' })).toBe(1);
    expect(valueOf(f, 'ledger_mm_risk_denials_total', { pair: 'BTC/USDC', reason: 'stale_book' })).toBe(1);
    expect(valueOf(f, 'ledger_mm_inventory_base', { pair: 'BTC/USDC' })).toBe(0.5);
    expect(valueOf(f, 'ledger_mm_risk_state', { pair: 'BTC/USDC', state: 'halted' })).toBe(1);
    expect(valueOf(f, 'ledger_mm_orders', { state: 'OPEN' })).toBe(2);
    expect(valueOf(f, 'ledger_mm_metrics_collect_errors_total')).toBe(0);
    expect(f.has('process_cpu_seconds_total')).toBe(true);

    // ledger_mm_ready is the /readyz verdict, from the same provider.
    expect(valueOf(f, 'ledger_mm_ready')).toBe(0);
    expect((await get('/readyz')).status).toBe(503);
    daemon.ready = { ready: true, reasons: [] };
    expect((await get('/readyz')).status).toBe(200);
    expect(valueOf(parseExposition((await get('/metrics')).body), 'ledger_mm_ready')).toBe(1);
    daemon.ready = { ready: false, reasons: ['the account is SUSPENDED: the venue refuses new placements'] };
    expect(valueOf(parseExposition((await get('/metrics')).body), 'ledger_mm_ready')).toBe(0);
    daemon.ready = { ready: true, reasons: [] };
    expect((await get('/healthz')).status).toBe(200);
    const status = JSON.parse((await get('/status')).body) as {
      phase: string;
      pairs: { inventory: unknown }[];
      queues: {
        placement: { depth: number; inFlight: number; oldestWaitMs: number };
        cancel: unknown;
      } | null;
    };
    expect(status.phase).toBe('running');
    expect(status.pairs[0]?.inventory).toEqual({ base: '0.5', quote: null });
    // The queues as their events last reported them; the oldest wait projected to now.
    expect(status.queues?.placement).toMatchObject({ depth: 3, inFlight: 1 });
    expect(status.queues?.placement.oldestWaitMs).toBeGreaterThanOrEqual(6_000);
    expect(status.queues?.cancel).toEqual({ depth: 0, inFlight: 2, oldestWaitMs: 0 });

    await attached.close();
    await attached.close();
    expect(daemon.subscribers).toBe(0);
  });

  it('sets ledger_mm_ready to 0 and counts the error when the readiness provider throws', async () => {
    const daemon = new FakeDaemon();
    daemon.ready = { ready: true, reasons: [] };
    const attachment = observabilityAttachment({ config });
    attached = await attachment.attach(daemon, logger);
    expect(valueOf(parseExposition((await get('/metrics')).body), 'ledger_mm_ready')).toBe(1);
    daemon.readiness = () => {
      throw new Error('state unavailable');
    };
    const f = parseExposition((await get('/metrics')).body);
    expect(valueOf(f, 'ledger_mm_ready')).toBe(0);
    expect(valueOf(f, 'ledger_mm_metrics_collect_errors_total')).toBe(1);
    expect((await get('/readyz')).status).toBe(500);
  });

  it('refuses to run blind: a taken port rejects the attach and releases the subscription', async () => {
    const first = new FakeDaemon();
    attached = await observabilityAttachment({ config }).attach(first, logger);
    const port = attached.address.port;
    const second = new FakeDaemon();
    const attachment = observabilityAttachment({
      config: { ...config, metrics: { host: '127.0.0.1', port } },
    });
    await expect(
      attachObservability(attachment.metrics, second, { host: '127.0.0.1', port }),
    ).rejects.toThrow(`the metrics server cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`);
    expect(second.subscribers).toBe(0);
  });
});

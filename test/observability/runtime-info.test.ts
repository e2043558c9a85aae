import { describe, expect, it } from 'vitest';

import { buildCommit, packageVersion } from '../../src/observability/http/build-info.js';
import { EventLoopMonitor } from '../../src/observability/http/event-loop-monitor.js';
import { LabelGuard, OTHER, parseSlot, snake, stageLabel } from '../../src/observability/metrics/labels.js';
import { testMetrics } from './support/test-metrics.js';

describe('build info', () => {
  it('reads the package version once, and the commit from LEDGER_MM_COMMIT only', () => {
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
    expect(packageVersion(new URL('file:///nonexistent/package.json'))).toBe('unknown');
    expect(buildCommit({ LEDGER_MM_COMMIT: ' 1a2b3c4d ' })).toBe('1a2b3c4d');
    expect(buildCommit({})).toBe('unknown');
    expect(buildCommit({ LEDGER_MM_COMMIT: 'rm -rf /; echo' })).toBe('unknown');
  });
});

describe('EventLoopMonitor', () => {
  it('sees a blocked event loop, and the lag gauge reports the same figure', async () => {
    const monitor = new EventLoopMonitor({ resolutionMs: 10, windowMs: 60_000 });
    const t = testMetrics({ eventLoop: monitor });
    try {
      await new Promise((r) => setTimeout(r, 30));
      const until = Date.now() + 250;
      while (Date.now() < until) {
        // busy: the loop is blocked
      }
      await new Promise((r) => setTimeout(r, 30));
      expect(monitor.window().max).toBeGreaterThan(0.15);
      // The lag the probe reads is the window's p99: with a few samples a 10 ms apart, the blocked one.
      expect(monitor.lagSeconds()).toBeGreaterThan(0.15);
      expect(await t.value('ledger_mm_event_loop_lag_max_seconds')).toBeGreaterThan(0.15);
      monitor.roll();
      expect(monitor.window().max).toBeGreaterThan(0.15); // the last complete window
    } finally {
      t.close();
      monitor.close();
      monitor.close();
    }
    // Closed, it still answers from the last complete window, which holds the blocked sample.
    expect(monitor.lagSeconds()).toBe(monitor.window().p99);
    expect(monitor.lagSeconds()).toBeGreaterThan(0.15);
  });
});

describe('labels', () => {
  it('parses quote and registry slots', () => {
    expect(parseSlot('BTC/USDC:SELL:2')).toEqual({ pair: 'BTC/USDC', side: 'SELL', level: '2' });
    expect(parseSlot('BTC/USDC:BUY:0#1')).toEqual({ pair: 'BTC/USDC', side: 'BUY', level: '0' });
    expect(parseSlot('BTC/USDC')).toBeNull();
    expect(parseSlot(null)).toBeNull();
  });

  it('uses snake_case stage and outcome values', () => {
    expect(stageLabel('cancel-confirm')).toBe('cancel_confirm');
    expect(snake('never-committed')).toBe('never_committed');
  });

  it('guards: allowed sets, patterns and caps', () => {
    let overflow = 0;
    const g = new LabelGuard({ max: 2, pattern: /^[a-z]+$/, onOverflow: () => (overflow += 1) });
    expect(['a', 'b', 'a', 'c', 'B'].map((v) => g.value(v))).toEqual(['a', 'b', 'a', OTHER, OTHER]);
    expect(overflow).toBe(2);
    const allowed = new LabelGuard({ max: 0, allowed: ['x'] });
    expect([allowed.value('x'), allowed.value('y')]).toEqual(['x', OTHER]);
  });
});

import { describe, expect, it } from 'vitest';
import { renderRegimesHtml } from '../../../src/lab/regimes/regimes-html.js';
import { buildRegimesReport, formatRegimesSummary } from '../../../src/lab/regimes/regimes-report.js';
import { findRegime } from '../../../src/lab/regimes/suite.js';
import type { SeedsReport } from '../../../src/lab/simulate/figures/seeds-report.js';

/** A multi-seed report holding only the spread rows the regimes report reads. */
function seeds(pnl: Record<string, number>): SeedsReport {
  const spread = Object.entries(pnl).flatMap(([strategy, p]) => [
    { key: 'pnl', label: 'PnL', format: 'money', strategy, n: 4, mean: p, min: p - 100, max: p + 100 },
    { key: 'spreadCapturedBps', label: 'c', format: 'bps', strategy, n: 4, mean: 5, min: 4, max: 6 },
    {
      key: 'twoSidedAfterFirst',
      label: 't',
      format: 'pct',
      strategy,
      n: 4,
      mean: 0.98,
      min: 0.97,
      max: 0.99,
    },
    { key: 'halts', label: 'h', format: 'count', strategy, n: 4, mean: 0.25, min: 0, max: 1 },
  ]);
  return {
    tool: 'ledger-mm simulate',
    formatVersion: 1,
    kind: 'seeds',
    scenario: {
      hours: 6,
      latency: 'realistic',
      configFiles: [],
      market: null,
      pairs: ['BTC/USDC'],
      seeds: [1, 2, 3, 4],
      simulatedStart: '2025-01-06T00:00:00.000Z',
      strategies: {},
      regime: 'calm',
    },
    venueLimit: {} as SeedsReport['venueLimit'],
    seeds: [],
    spread: spread as unknown as SeedsReport['spread'],
    checks: [{ name: 'zero invariant breaks', ok: true, detail: 'every run' }],
  };
}

describe('the regimes report', () => {
  const report = buildRegimesReport('standard', [
    {
      regime: findRegime('calm'),
      report: seeds({ daemon: 900, 'cancel-then-replace': 300, 'tuned-spread': 400 }),
    },
    {
      regime: findRegime('jumpy'),
      report: seeds({ daemon: -50, 'cancel-then-replace': 100, 'tuned-spread': -400 }),
    },
    {
      regime: findRegime('informed'),
      report: seeds({ daemon: -400, 'cancel-then-replace': -1000, 'tuned-spread': -900 }),
    },
  ]);

  it('names the regime where the daemon’s mean PnL is lowest', () => {
    expect(report.worst).toEqual({ regime: 'informed', daemonMeanPnl: -400 });
    expect(report.scenario).not.toHaveProperty('regime');
  });

  it('checks each target per regime: PnL ≥ 0, half the loss under informed flow, above every baseline', () => {
    const verdict = Object.fromEntries(report.checks.map((c) => [c.name, c.ok]));
    expect(verdict).toEqual({
      "calm: the daemon's mean PnL ≥ 0": true,
      "calm: the daemon's mean PnL beats every baseline": true,
      "jumpy: the daemon's mean PnL ≥ 0": false,
      "jumpy: the daemon's mean PnL beats every baseline": false,
      "informed: the daemon loses at most half of cancel-then-replace's loss": true,
      "informed: the daemon's mean PnL beats every baseline": true,
      'zero invariant breaks': true,
    });
  });

  it('prints and renders a row per regime and strategy, with the means', () => {
    const text = formatRegimesSummary(report);
    expect(text).toMatch(/jumpy\s+│?\s*cancel-then-replace/);
    expect(text).toContain('worst regime for the daemon: informed (mean PnL -400)');
    expect(text).toContain('FAIL  jumpy: the daemon');
    const html = renderRegimesHtml(report);
    expect(html).toContain('<a href="calm/report.html">');
    expect(html.match(/<tr class="worst">/g)).toHaveLength(1);
  });
});

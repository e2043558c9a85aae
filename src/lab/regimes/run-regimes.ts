/**
 * `ledger-mm simulate --regimes`: the scenario in every regime of a suite, on several seeds
 * each, the daemon beside the baselines (cancel-then-replace and the tuned plain spread model by
 * default). Each regime is one multi-seed simulation (`simulateSeeds`), written to `DIR/<regime>/`
 * as it ends; the report over the regimes goes to `DIR/report.json` and `DIR/report.html`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { simulateSeeds, writeSeedsReport, type SimulateSeedsOptions } from '../simulate/run/multi-seed.js';
import { loadScenario } from '../simulate/run/scenario.js';
import type { StrategyName } from '../simulate/run/strategies.js';
import { renderRegimesHtml } from './regimes-html.js';
import { buildRegimesReport, type RegimesReport } from './regimes-report.js';
import { suiteRegimes } from './suite.js';

/** The baselines a regimes run sets beside the daemon unless told. */
export const REGIME_BASELINES: readonly StrategyName[] = ['cancel-then-replace', 'tuned-spread'];

/** Options of {@link simulateRegimes}. */
export interface SimulateRegimesOptions extends Omit<SimulateSeedsOptions, 'compare' | 'onSeed' | 'input'> {
  readonly input: SimulateSeedsOptions['input'];
  readonly suite: string;
  /** Where each regime's report goes (`DIR/<regime>/`); null: nowhere. */
  readonly dir: string | null;
  /** Told as each regime starts (progress). */
  readonly onRegime?: (name: string, index: number, total: number) => void;
}

/** Runs the suite; see the module doc. Throws ScenarioError or ConfigError before running. */
export async function simulateRegimes(o: SimulateRegimesOptions): Promise<RegimesReport> {
  const regimes = suiteRegimes(o.suite);
  // Fail on a bad config, market or regime before any run.
  for (const r of regimes) loadScenario({ ...o.input, seed: o.seeds[0] ?? 1, regime: r.name });
  const runs = [];
  for (const [i, regime] of regimes.entries()) {
    o.onRegime?.(regime.name, i, regimes.length);
    const { suite: _suite, dir: _dir, onRegime: _onRegime, ...seedsOptions } = o;
    const report = await simulateSeeds({
      ...seedsOptions,
      input: { ...o.input, regime: regime.name },
      compare: true,
      baselines: o.baselines ?? REGIME_BASELINES,
    });
    if (o.dir !== null) writeSeedsReport(report, join(resolve(o.dir), regime.name));
    runs.push({ regime, report });
  }
  return buildRegimesReport(o.suite, runs);
}

/** Writes the regimes `report.json` and `report.html` into `dir` (created); returns their paths. */
export function writeRegimesReport(report: RegimesReport, dir: string): { json: string; html: string } {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const json = join(out, 'report.json');
  const html = join(out, 'report.html');
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(html, renderRegimesHtml(report));
  return { json, html };
}

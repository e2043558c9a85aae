/**
 * The rules between keys of the `strategy` section (min ≤ max, a static source needs a price, an
 * override only for a configured pair…), which the formats of single keys cannot express. The
 * loader reports them with the other issues, and the strategy refuses to resolve parameters that
 * break them, so `check` refuses what `run` would.
 */
import type { ConfigIssue } from '../errors.js';
import { renderValue } from '../errors.js';
import { OPT_DEC } from '../param-spec.js';
import type { PairStrategyConfig, PairStrategyOverride, StrategyConfig } from './strategy-params.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = base[k];
    out[k] = isObject(b) && isObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

/** The defaults merged with the override of `pair` (when there is one). */
export function pairConfig(config: StrategyConfig, pair: string): PairStrategyConfig {
  const override = config.pairs.find((o) => o.pair === pair);
  if (override === undefined) return config.defaults;
  const { pair: _pair, ...rest } = override;
  return deepMerge(config.defaults, rest) as unknown as PairStrategyConfig;
}

/** The rules between keys of one pair's config; `[dotted key within the pair, value, reason]`. */
function pairProblems(c: PairStrategyConfig): Array<[string, unknown, string]> {
  const out: Array<[string, unknown, string]> = [];
  if (!(c.spread.minBps > 0)) {
    out.push(['spread.minBps', c.spread.minBps, 'must be > 0 (a zero distance lets a bid meet our own ask)']);
  }
  if (c.spread.maxBps < c.spread.minBps) {
    out.push(['spread.maxBps', c.spread.maxBps, `must be at least spread.minBps (${c.spread.minBps})`]);
  }
  if ((c.inventory.targetBase === '') !== (c.inventory.rangeBase === '')) {
    out.push([
      c.inventory.targetBase === '' ? 'inventory.targetBase' : 'inventory.rangeBase',
      '',
      'inventory.targetBase and inventory.rangeBase are set together',
    ]);
  }
  if (c.reference.source === 'static' && c.reference.staticPrice === '') {
    out.push(['reference.staticPrice', '', 'must be set when reference.source is "static"']);
  }
  if (c.reference.source === 'external' && c.external.url === '') {
    out.push(['external.url', '', 'must be set when reference.source is "external"']);
  }
  const ladder = c.levels.ladder;
  if (Array.isArray(ladder) ? ladder.length > 0 : true) {
    if (c.levels.count !== 1) {
      out.push([
        'levels.ladder',
        ladder,
        `replaces levels.count (${c.levels.count}): the rungs are the levels; set levels.count to 1 or remove the ladder`,
      ]);
    }
    if (c.levels.sizeIncrement !== '0') {
      out.push([
        'levels.ladder',
        ladder,
        `replaces levels.sizeIncrement (${c.levels.sizeIncrement}): each rung has its size; set levels.sizeIncrement to "0" or remove the ladder`,
      ]);
    }
  }
  if (c.reference.source === 'exchanges' && c.exchanges.sources.length < c.exchanges.minSources) {
    out.push([
      'exchanges.sources',
      c.exchanges.sources.length,
      `must list at least exchanges.minSources (${c.exchanges.minSources}) sources when reference.source is "exchanges"`,
    ]);
  }
  const floor = OPT_DEC.resolve(c.guards.priceFloor);
  const ceiling = OPT_DEC.resolve(c.guards.priceCeiling);
  if (floor !== null && ceiling !== null && !floor.lt(ceiling)) {
    out.push([
      'guards.priceCeiling',
      c.guards.priceCeiling,
      `must be above guards.priceFloor (${c.guards.priceFloor})`,
    ]);
  }
  if (c.inventory.minBaseShare >= c.inventory.maxBaseShare) {
    out.push(['inventory.maxBaseShare', c.inventory.maxBaseShare, 'must be above inventory.minBaseShare']);
  }
  if (c.inventory.maxSkewBps > 0 && !(c.inventory.rangeShare > 0)) {
    out.push([
      'inventory.rangeShare',
      c.inventory.rangeShare,
      'must be > 0 when inventory.maxSkewBps is > 0',
    ]);
  }
  return out;
}

/** Every problem of the `strategy` section against the configured pair list (empty when valid). */
export function strategyConfigIssues(config: StrategyConfig, pairs: readonly string[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const fromDefaults = new Set<string>();
  for (const [key, value, reason] of pairProblems(config.defaults)) {
    fromDefaults.add(key);
    issues.push({ key: `strategy.defaults.${key}`, value: renderValue(value), reason });
  }
  config.pairs.forEach((o: PairStrategyOverride, i) => {
    if (!pairs.includes(o.pair)) {
      issues.push({
        key: `strategy.pairs[${i}].pair`,
        value: renderValue(o.pair),
        reason: `is not one of the configured pairs (${pairs.join(', ') || 'none'})`,
      });
    }
    for (const [key, value, reason] of pairProblems(pairConfig(config, o.pair))) {
      if (fromDefaults.has(key)) continue;
      issues.push({ key: `strategy.pairs[${i}] (${o.pair}).${key}`, value: renderValue(value), reason });
    }
  });
  return issues;
}

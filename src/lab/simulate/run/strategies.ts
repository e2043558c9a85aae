/**
 * The strategies a simulation runs: the daemon as configured, and the baselines `--compare` sets
 * beside it on the same seed and market. A baseline is what a market maker would run without this
 * daemon's quoting: the plain spread model (`strategy.*.model` "spread") with one level a side,
 * everything else (spreads, sizes, skew, tolerances, risk) as configured, and one rule changed.
 * So a daemon configured with another model or a ladder is compared with the plain quoting it
 * replaces, never with a copy of itself.
 */
import type { MmConfig } from '../../../config/schema.js';
import type { ReconcileFn } from '../../../daemon/daemon-types.js';
import type { OwnOrderView, WalletInput } from '../../../market/market-snapshot.js';
import type { ReconcileParams } from '../../../strategy/params.js';
import type { Action, StrategyResult } from '../../../strategy/quote-types.js';
import { planReconcile, type Deferred, type ReconcilePlan } from '../../../strategy/reconciler.js';

/** Strategy names; the daemon first. */
export const STRATEGIES = ['daemon', 'cancel-then-replace', 'no-tolerance', 'tuned-spread'] as const;
/** A strategy a simulation can run. */
export type StrategyName = (typeof STRATEGIES)[number];

/** The baselines of `--compare` (the default set; `--baseline` picks any of {@link BASELINE_NAMES}). */
export const BASELINES: readonly StrategyName[] = ['cancel-then-replace', 'no-tolerance'];

/** Every baseline a run may name. */
export const BASELINE_NAMES: readonly StrategyName[] = [
  'cancel-then-replace',
  'no-tolerance',
  'tuned-spread',
];

/**
 * The tuned plain spread model: the best of `tune` over the plain spread model on training seeds
 * 11-12 (30 bps a side, tolerance 12 bps, skew up to 30 bps; README, "The plain spread model's
 * best configuration").
 */
export const TUNED_SPREAD = { halfSpreadBps: 30, priceToleranceBps: 12, maxSkewBps: 30 } as const;

/** One line per strategy, for the report. */
export const STRATEGY_DESCRIPTIONS: Readonly<Record<StrategyName, string>> = {
  daemon: 'the daemon as configured: make before break, reprice beyond the price tolerance',
  'cancel-then-replace':
    'the plain spread model, one level: on every refresh cancel all of a pair’s orders, wait for the cancels, then place everything again',
  'no-tolerance':
    'the plain spread model, one level, with strategy.reconcile.priceToleranceBps = 0: reprice on any change of the desired price',
  'tuned-spread':
    'the tuned plain spread model, one level: 30 bps a side, priceToleranceBps 12, maxSkewBps 30 (the best of tune over the plain model)',
};

/** What a strategy changes in a run: the config and the reconciler. */
export interface StrategySetup {
  readonly config: MmConfig;
  readonly reconciler?: ReconcileFn;
}

/** The config and reconciler of `name` over the scenario's config. */
export function strategySetup(name: StrategyName, config: MmConfig): StrategySetup {
  switch (name) {
    case 'daemon':
      return { config };
    case 'cancel-then-replace':
      return { config: plainQuoting(config), reconciler: planCancelThenReplace };
    case 'no-tolerance': {
      const plain = plainQuoting(config);
      return {
        config: {
          ...plain,
          strategy: { ...plain.strategy, reconcile: { ...plain.strategy.reconcile, priceToleranceBps: 0 } },
        },
      };
    }
    case 'tuned-spread':
      return { config: tunedSpread(config) };
  }
}

/** {@link plainQuoting} with the {@link TUNED_SPREAD} parameters in defaults and overrides. */
export function tunedSpread(config: MmConfig): MmConfig {
  const plain = plainQuoting(config);
  const s = plain.strategy;
  const t = TUNED_SPREAD;
  const spread = { bidBps: t.halfSpreadBps, askBps: t.halfSpreadBps };
  const defaults = {
    ...s.defaults,
    spread: { ...s.defaults.spread, ...spread },
    inventory: { ...s.defaults.inventory, maxSkewBps: t.maxSkewBps },
  };
  const pairs = s.pairs.map((o) => ({
    ...o,
    ...(o.spread === undefined ? {} : { spread: { ...o.spread, ...spread } }),
    ...(o.inventory === undefined ? {} : { inventory: { ...o.inventory, maxSkewBps: t.maxSkewBps } }),
  }));
  return {
    ...plain,
    strategy: {
      ...s,
      defaults,
      pairs,
      reconcile: { ...s.reconcile, priceToleranceBps: t.priceToleranceBps },
    },
  };
}

/** `config` quoting with the plain spread model and one level a side, in defaults and overrides. */
export function plainQuoting(config: MmConfig): MmConfig {
  const s = config.strategy;
  const defaults = { ...s.defaults, model: 'spread' as const, levels: { ...s.defaults.levels, count: 1 } };
  const pairs = s.pairs.map((o) => {
    const { model: _model, ...rest } = o;
    return rest.levels === undefined ? rest : { ...rest, levels: { ...rest.levels, count: 1 } };
  });
  return { ...config, strategy: { ...s, defaults, pairs } };
}

/**
 * The cancel-then-replace baseline, the common open-source default: on every refresh, cancel all
 * of a pair's orders, wait until the cancels are through, then place everything again. It is a
 * variant of the daemon's own reconciler, plugged into the same daemon (same strategy, tolerances,
 * risk gate and pipeline), so the comparison isolates this one rule against make-before-break.
 *
 * Per pair, from the daemon's own plan:
 * - an order of the pair being placed (or unknown): wait, do nothing;
 * - an order of the pair being cancelled: cancel whatever still rests, place nothing;
 * - resting orders and the daemon's plan wants any change on the pair (a reprice, a refresh, a
 *   missing side, a duplicate): that is a refresh, so cancel every resting order of the pair;
 * - nothing left on the book: place every desired quote of the pair (the plan's placements);
 * - otherwise keep the orders.
 */
export function planCancelThenReplace(
  desired: StrategyResult,
  own: readonly OwnOrderView[],
  balances: WalletInput,
  params: ReconcileParams,
): ReconcilePlan {
  const base = planReconcile(desired, own, balances, params);
  const pairOfKey = new Map(own.map((o) => [o.key, o.pair]));
  const pairOf = (a: Action): string | undefined =>
    a.type === 'place' ? a.quote.pair : pairOfKey.get(a.key);
  const pairs = [...new Set([...desired.quotes.map((q) => q.pair), ...own.map((o) => o.pair)])].sort();
  const cancels: Action[] = [];
  const places: Action[] = [];
  const kept: string[] = [];
  const deferred: Deferred[] = [];
  for (const pair of pairs) {
    const mine = own.filter((o) => o.pair === pair);
    const resting = mine.filter((o) => o.resting && !o.cancelling && !o.unknown);
    const wanted = base.actions.filter((a) => pairOf(a) === pair);
    if (mine.some((o) => !o.resting && !o.cancelling)) {
      kept.push(...resting.map((o) => o.key));
      deferred.push({ slot: pair, reason: 'cancel-then-replace: waiting for a placement' });
    } else if (mine.some((o) => o.cancelling) || (resting.length > 0 && wanted.length > 0)) {
      for (const o of resting)
        cancels.push({ type: 'cancel', key: o.key, reason: 'cancel-then-replace: refresh' });
      deferred.push({ slot: pair, reason: 'cancel-then-replace: waiting for the cancels' });
    } else if (resting.length === 0) {
      for (const a of wanted) if (a.type === 'place') places.push({ ...a, replaces: null });
    } else {
      kept.push(...resting.map((o) => o.key));
    }
  }
  return { actions: [...cancels, ...places], kept, deferred: [...base.deferred, ...deferred] };
}

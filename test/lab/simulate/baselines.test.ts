import { describe, expect, it } from 'vitest';
import { Dec } from '../../../src/core/decimal.js';
import { loadScenario } from '../../../src/lab/simulate/run/scenario.js';
import { planCancelThenReplace, strategySetup } from '../../../src/lab/simulate/run/strategies.js';
import type { OwnOrderView } from '../../../src/market/market-snapshot.js';
import type { ReconcileParams } from '../../../src/strategy/params.js';
import type { DesiredQuote, StrategyResult } from '../../../src/strategy/quote-types.js';

const d = (s: string): Dec => new Dec(s);
const PAIR = 'BTC/USDC';
const params: ReconcileParams = {
  priceToleranceBps: 8,
  sizeTolerancePct: 30,
  oversizeMultiple: 0,
  maxOrderAgeMs: 3_600_000,
  ordersPerSlot: 2,
};
const balances = {
  BTC: { available: d('10'), locked: d('0') },
  USDC: { available: d('100000'), locked: d('0') },
};

function quote(side: 'BUY' | 'SELL', price: string): DesiredQuote {
  return {
    slot: `${PAIR}:${side}:0`,
    pair: PAIR,
    side,
    level: 0,
    price: d(price),
    quantity: d('0.1'),
    reference: d('100'),
    referenceAt: 0,
  };
}

const desired: StrategyResult = {
  quotes: [quote('BUY', '99.9'), quote('SELL', '100.1')],
  skipped: [],
  references: { [PAIR]: { price: d('100'), at: 0 } },
  now: 1_000,
};

function own(
  key: string,
  side: 'BUY' | 'SELL',
  price: string,
  state: Partial<OwnOrderView> = {},
): OwnOrderView {
  return {
    key,
    slot: `${PAIR}:${side}:0`,
    pair: PAIR,
    side,
    price: d(price),
    remaining: d('0.1'),
    resting: true,
    unknown: false,
    cancelling: false,
    since: 0,
    ...state,
  };
}

const kinds = (plan: ReturnType<typeof planCancelThenReplace>): string[] =>
  plan.actions.map((a) =>
    a.type === 'cancel'
      ? `cancel ${a.key}`
      : `place ${a.quote.slot}${a.replaces === null ? '' : ' (replacing)'}`,
  );

describe('the cancel-then-replace baseline (a reconcile variant)', () => {
  it('places every quote of a pair with nothing on the book, replacing nothing', () => {
    expect(kinds(planCancelThenReplace(desired, [], balances, params))).toEqual([
      `place ${PAIR}:BUY:0`,
      `place ${PAIR}:SELL:0`,
    ]);
  });

  it('keeps orders within tolerance', () => {
    const plan = planCancelThenReplace(
      desired,
      [own('b', 'BUY', '99.9'), own('a', 'SELL', '100.1')],
      balances,
      params,
    );
    expect(plan.actions).toEqual([]);
    expect(plan.kept.sort()).toEqual(['a', 'b']);
  });

  it('on a refresh cancels every order of the pair and places nothing (break before make)', () => {
    // The bid is 20 bps off: the daemon would replace it (make before break); the baseline cancels all.
    const plan = planCancelThenReplace(
      desired,
      [own('b', 'BUY', '99.7'), own('a', 'SELL', '100.1')],
      balances,
      params,
    );
    expect(kinds(plan)).toEqual(['cancel b', 'cancel a']);
  });

  it('waits for the cancels to go through, then for every placement to rest', () => {
    const cancelling = [
      own('b', 'BUY', '99.7', { resting: false, cancelling: true }),
      own('a', 'SELL', '100.1'),
    ];
    expect(kinds(planCancelThenReplace(desired, cancelling, balances, params))).toEqual(['cancel a']);
    const placing = [own('pending:x', 'BUY', '99.9', { resting: false }), own('a2', 'SELL', '100.2')];
    expect(planCancelThenReplace(desired, placing, balances, params).actions).toEqual([]);
  });

  it('the no-tolerance baseline is the daemon with a price tolerance of 0', () => {
    const scenario = loadScenario({
      hours: 1,
      seed: 1,
      latency: 'fast',
      configFiles: [],
      market: null,
      cwd: process.cwd(),
      env: {},
    });
    expect(scenario.config.strategy.reconcile.priceToleranceBps).toBe(8);
    const setup = strategySetup('no-tolerance', scenario.config);
    expect(setup.config.strategy.reconcile.priceToleranceBps).toBe(0);
    expect(setup.config.strategy.reconcile.sizeTolerancePct).toBe(
      scenario.config.strategy.reconcile.sizeTolerancePct,
    );
    expect(setup.reconciler).toBeUndefined();
    expect(strategySetup('cancel-then-replace', scenario.config).reconciler).toBe(planCancelThenReplace);
  });

  it('the baselines quote with the plain spread model and one level, whatever the daemon runs', () => {
    const scenario = loadScenario({
      hours: 1,
      seed: 1,
      latency: 'realistic',
      configFiles: [],
      market: null,
      cwd: process.cwd(),
      env: {},
    });
    const ladder = {
      ...scenario.config,
      strategy: {
        ...scenario.config.strategy,
        defaults: {
          ...scenario.config.strategy.defaults,
          model: 'latency-aware' as const,
          levels: { ...scenario.config.strategy.defaults.levels, count: 3 },
        },
        pairs: [{ pair: PAIR, model: 'avellaneda-stoikov' as const, levels: { count: 2 } }],
      },
    };
    for (const name of ['cancel-then-replace', 'no-tolerance'] as const) {
      const s = strategySetup(name, ladder).config.strategy;
      expect([s.defaults.model, s.defaults.levels.count]).toEqual(['spread', 1]);
      expect(s.pairs).toEqual([{ pair: PAIR, levels: { count: 1 } }]);
      expect(s.defaults.spread).toEqual(ladder.strategy.defaults.spread);
    }
    expect(strategySetup('daemon', ladder).config).toBe(ladder);
  });
});

import { describe, expect, it } from 'vitest';

import { latencyAwareModel, latencyAwareShape } from '../../../src/strategy/models/latency-aware-model.js';
import { UNMEASURED } from '../../../src/core/pipeline-timing.js';
import { MODEL_NAMES, QUOTING_MODELS, quotingModel } from '../../../src/strategy/models/registry.js';
import { pairParamSpecs } from '../../../src/config/sections/strategy-params.js';
import { orderFits } from '../../../src/strategy/reconciler.js';
import { computeQuotes } from '../../../src/strategy/strategy.js';
import { NOW, PAIR, bal, book, d, market, own, pairParams, params, snapshot } from '../support/fixtures.js';

/**
 * The latency-aware model's distances. σ = 1 bp per √s and times of 100 s / 25 s give moves of
 * exactly 10 bps over a placement and 5 bps over a cancel.
 */

const LATENCY = { spreadZ: 1.5, marginBps: 8, toxicZ: 1, toxicShare: 0.3, insideZ: 0.75, outsideZ: 2 };
const P = pairParams({ model: 'latency-aware', spread: { bidBps: 5, askBps: 5 }, latency: LATENCY });
const TIMED = { placementMs: 100_000, cancelMs: 25_000, queued: 0 };

describe('latencyAwareShape', () => {
  it.each([
    // half = max(5, 1.5·10 + 8) = 23; toxic = max(1·5, 0.3·23) = 6.9; inside = min(7.5, 23 − 6.9).
    { name: 'measured timing', sigma: 1, timing: TIMED, half: 23, toxic: 6.9, inside: 7.5, outside: 20 },
    // σ 0: the floor is the margin (8) over spread.bidBps (5); nothing is toxic above 0.3·8.
    { name: 'no volatility', sigma: 0, timing: TIMED, half: 8, toxic: 2.4, inside: 0, outside: 0 },
    // σ 3: moves 30 / 15 bps; half 53, toxic max(15, 15.9) = 15.9, inside min(22.5, 37.1).
    { name: 'high volatility', sigma: 3, timing: TIMED, half: 53, toxic: 15.9, inside: 22.5, outside: 60 },
  ])('$name', ({ sigma, timing, half, toxic, inside, outside }) => {
    const s = latencyAwareShape(sigma, timing, P, 0);
    expect(s.bidBps).toBeCloseTo(half, 9);
    expect(s.askBps).toBeCloseTo(half, 9);
    expect(s.tolerance?.BUY.toxicEdgeBps).toBeCloseTo(toxic, 9);
    expect(s.tolerance?.BUY.insideBps).toBeCloseTo(inside, 9);
    expect(s.tolerance?.SELL.outsideBps).toBeCloseTo(outside, 9);
    expect(s.tolerance?.BUY.sigmaBps).toBe(sigma);
  });

  it('the reprice edge never lies inside the toxic zone', () => {
    const tight = pairParams({ model: 'latency-aware', latency: { insideZ: 10, toxicShare: 0.9 } });
    const s = latencyAwareShape(1, TIMED, tight, 0);
    const t = s.tolerance!.BUY;
    expect(s.bidBps - t.insideBps).toBeGreaterThanOrEqual(t.toxicEdgeBps - 1e-9);
  });

  it('uses the priors until the pipeline has measured itself', () => {
    const prior = pairParams({ model: 'latency-aware', latency: { placementMs: 100_000, cancelMs: 25_000 } });
    expect(latencyAwareShape(1, UNMEASURED, prior, 0)).toEqual(latencyAwareShape(1, TIMED, prior, 0));
  });

  it('longer measured placements widen the quotes', () => {
    const slow = latencyAwareShape(1, { ...TIMED, placementMs: 400_000 }, P, 0);
    expect(slow.bidBps).toBeCloseTo(1.5 * 20 + 8, 9);
  });

  // half 23, toxic 6.9, inside 7.5: a reducing quote is stable from 14.4 bps out.
  const distancesOf = (s: ReturnType<typeof latencyAwareShape>) => ({
    bid: s.bidBps - s.centerShiftBps,
    ask: s.askBps + s.centerShiftBps,
  });
  it.each([
    // Long 4 bps: both quotes move down by it.
    { shift: -4, bid: 27, ask: 19 },
    // Long 15 bps: the ask would be at 8, inside its toxic edge (6.9) + inside band (7.5): it stops
    // at 14.4, and the bid does not move out.
    { shift: -15, bid: 38, ask: 14.4 },
    // Short 15 bps: the mirror.
    { shift: 15, bid: 14.4, ask: 38 },
    { shift: 0, bid: 23, ask: 23 },
  ])('shift: skew $shift bps gives bid $bid, ask $ask', ({ shift, bid, ask }) => {
    const s = latencyAwareShape(1, TIMED, P, shift);
    expect(distancesOf(s).bid).toBeCloseTo(bid, 9);
    expect(distancesOf(s).ask).toBeCloseTo(ask, 9);
    expect(s.tolerance).toEqual(latencyAwareShape(1, TIMED, P, 0).tolerance);
  });

  it.each([-60, -30, -15, -7, 0, 7, 15, 30, 60])(
    'no skew (%s bps) puts a quote nearer than its toxic edge + inside band, in either mode',
    (shift) => {
      for (const skewMode of ['shift', 'keep-band'] as const) {
        const withMode = pairParams({
          model: 'latency-aware',
          spread: { bidBps: 5, askBps: 5 },
          latency: { ...LATENCY, skewMode },
        });
        const s = latencyAwareShape(1, TIMED, withMode, shift);
        const t = s.tolerance!;
        expect(distancesOf(s).bid).toBeGreaterThanOrEqual(t.BUY.toxicEdgeBps + t.BUY.insideBps - 1e-9);
        expect(distancesOf(s).ask).toBeGreaterThanOrEqual(t.SELL.toxicEdgeBps + t.SELL.insideBps - 1e-9);
      }
    },
  );

  const KEEP = pairParams({
    model: 'latency-aware',
    spread: { bidBps: 5, askBps: 5 },
    latency: {
      spreadZ: 1.5,
      marginBps: 8,
      toxicZ: 1,
      toxicShare: 0.3,
      insideZ: 0.75,
      outsideZ: 2,
      skewMode: 'keep-band',
    },
  });
  it.each([
    // Long 15 bps: the plain shift would put the ask at 8; it stops at 14.4 and the bid takes 6.4.
    { shift: -15, bid: 44.4, ask: 14.4 },
    // Short 15 bps: the mirror.
    { shift: 15, bid: 14.4, ask: 44.4 },
    // A skew the reducing side can take whole is the plain shift.
    { shift: -4, bid: 27, ask: 19 },
    { shift: 0, bid: 23, ask: 23 },
  ])('keep-band: skew $shift bps gives bid $bid, ask $ask', ({ shift, bid, ask }) => {
    const s = latencyAwareShape(1, TIMED, KEEP, shift);
    // The asymmetry (bid distance − ask distance) is the whole skew's; the tolerance is unchanged.
    expect(distancesOf(s).bid).toBeCloseTo(bid, 9);
    expect(distancesOf(s).ask).toBeCloseTo(ask, 9);
    expect(distancesOf(s).bid - distancesOf(s).ask).toBeCloseTo(-2 * shift, 9);
    expect(s.tolerance).toEqual(latencyAwareShape(1, TIMED, P, shift).tolerance);
  });

  // Outside band 20 bps (2 · 10); maxSkewBps 20, so pressure = |shift| / 20.
  const REDUCING = pairParams({
    model: 'latency-aware',
    spread: { bidBps: 5, askBps: 5 },
    inventory: { maxSkewBps: 20 },
    latency: { ...LATENCY, reducingOutsideShare: 0.25 },
  });
  it.each([
    { shift: 0, bidOutside: 20, askOutside: 20 },
    // Long at half pressure: the ask reduces; its band is 1 − 0.75 · 0.5 of 20.
    { shift: -10, bidOutside: 20, askOutside: 12.5 },
    // Long at full pressure: the ask's band is a quarter; the bid (adding) keeps its own.
    { shift: -20, bidOutside: 20, askOutside: 5 },
    // Past full pressure it stays at a quarter.
    { shift: -40, bidOutside: 20, askOutside: 5 },
    // Short: the bid reduces.
    { shift: 20, bidOutside: 5, askOutside: 20 },
  ])(
    'reducingOutsideShare 0.25: skew $shift bps gives outside bands bid $bidOutside, ask $askOutside',
    ({ shift, bidOutside, askOutside }) => {
      const t = latencyAwareShape(1, TIMED, REDUCING, shift).tolerance!;
      expect(t.BUY.outsideBps).toBeCloseTo(bidOutside, 9);
      expect(t.SELL.outsideBps).toBeCloseTo(askOutside, 9);
      // Only the outside band moves.
      expect(t.BUY.insideBps).toBeCloseTo(7.5, 9);
      expect(t.SELL.toxicEdgeBps).toBeCloseTo(6.9, 9);
    },
  );
});

describe('latencyAwareModel in the strategy', () => {
  // Mids every second, alternating ±1 bp: a σ estimate from ten returns.
  const mids = Array.from({ length: 12 }, (_, i) => ({
    at: NOW - (11 - i) * 1_000,
    price: d(i % 2 === 0 ? '100' : '100.01'),
  }));
  const m = market({ book: book([[99, 5]], [[101, 5]]), mids });
  const balances = { BTC: bal(10), USDC: bal(1_000) };

  it('before σ can be estimated the prior σ applies', () => {
    const noSigma = market({ book: book([[99, 5]], [[101, 5]]) });
    const r = computeQuotes(
      snapshot([noSigma], balances),
      [],
      balances,
      params({ [PAIR]: { model: 'latency-aware', latency: { priorSigmaBps: 2 } } }),
      TIMED,
    );
    expect(r.quotes.map((q) => q.tolerance?.sigmaBps)).toEqual([2, 2]);
  });

  it('quotes carry the tolerance, and without σ nor a prior the model quotes as the spread model', () => {
    const withSigma = computeQuotes(
      snapshot([m], balances),
      [],
      balances,
      params({ [PAIR]: { model: 'latency-aware' } }),
      TIMED,
    );
    expect(withSigma.quotes.map((q) => q.tolerance !== undefined)).toEqual([true, true]);
    const noSigma = market({ book: book([[99, 5]], [[101, 5]]) });
    const plain = computeQuotes(
      snapshot([noSigma], balances),
      [],
      balances,
      params({ [PAIR]: { model: 'latency-aware', latency: { priorSigmaBps: 0 } } }),
      TIMED,
    );
    const spread = computeQuotes(
      snapshot([noSigma], balances),
      [],
      balances,
      params({ [PAIR]: { model: 'spread' } }),
      TIMED,
    );
    expect(plain.quotes).toEqual(spread.quotes);
    expect(latencyAwareModel.name).toBe('latency-aware');
  });

  it.each(['shift', 'keep-band'] as const)(
    'skew mode %s: whatever the holdings, every quote fits its own tolerance the moment it is planned',
    (skewMode) => {
      // The pipeline's freshness check asks exactly this of a quote just planned: one that failed
      // it would be planned and refused again on every pass.
      const p = params({
        [PAIR]: {
          model: 'latency-aware',
          levels: { count: 2, spacingBps: 20 },
          inventory: { targetBase: '10', rangeBase: '5', maxSkewBps: 30 },
          latency: { skewMode },
        },
      });
      const reconcile = {
        priceToleranceBps: 8,
        sizeTolerancePct: 30,
        oversizeMultiple: 0,
        maxOrderAgeMs: 3_600_000,
        ordersPerSlot: 2,
      };
      for (let held = 1; held <= 20; held += 1) {
        const wallet = { BTC: bal(held), USDC: bal(100_000) };
        const r = computeQuotes(snapshot([m], wallet), [], wallet, p, TIMED);
        expect(r.quotes.map((q) => q.side).sort(), `${held} BTC`).toEqual(['BUY', 'BUY', 'SELL', 'SELL']);
        for (const q of r.quotes) {
          const asOrder = own({
            side: q.side,
            price: q.price,
            remaining: q.quantity,
            slot: q.slot,
            since: NOW,
          });
          expect(
            orderFits(asOrder, q, reconcile, NOW).fits,
            `${held} BTC: ${q.slot} at ${q.price.toFixed()}`,
          ).toBe(true);
        }
      }
    },
  );
});

describe('the model registry', () => {
  it('every name resolves to the model of that name, and the parameter accepts exactly them', () => {
    for (const name of MODEL_NAMES) expect(quotingModel(name).name).toBe(name);
    expect(Object.keys(QUOTING_MODELS)).toEqual(MODEL_NAMES);
    expect(pairParamSpecs.model.schema.safeParse('latency-aware').success).toBe(true);
    expect(pairParamSpecs.model.schema.safeParse('nope').success).toBe(false);
  });
});

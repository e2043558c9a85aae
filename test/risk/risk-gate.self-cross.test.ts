import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, initialRiskState } from '../../src/risk/risk-gate.js';
import type { PlaceAction } from '../../src/strategy/quote-types.js';
import { T0, d, input, own, params, place } from './support/fixtures.js';

/** The firm's quotes never trade with each other: a placement crossing an order of ours is denied. */
describe('risk gate: no self-cross', () => {
  const gate = (ownOrders: ReturnType<typeof own>[], actions: PlaceAction[]) =>
    evaluate(initialRiskState(T0, params()), input(T0, { ownOrders, actions }), params());

  it.each([
    {
      name: 'a bid at our ask',
      side: 'BUY' as const,
      price: '101',
      theirs: 'SELL' as const,
      at: '101',
      denied: true,
    },
    {
      name: 'a bid above our ask',
      side: 'BUY' as const,
      price: '102',
      theirs: 'SELL' as const,
      at: '101',
      denied: true,
    },
    {
      name: 'a bid below our ask',
      side: 'BUY' as const,
      price: '100.99',
      theirs: 'SELL' as const,
      at: '101',
      denied: false,
    },
    {
      name: 'an ask at our bid',
      side: 'SELL' as const,
      price: '99',
      theirs: 'BUY' as const,
      at: '99',
      denied: true,
    },
    {
      name: 'an ask above our bid',
      side: 'SELL' as const,
      price: '99.01',
      theirs: 'BUY' as const,
      at: '99',
      denied: false,
    },
    {
      name: 'a bid above our bid (same side)',
      side: 'BUY' as const,
      price: '150',
      theirs: 'BUY' as const,
      at: '99',
      denied: false,
    },
  ])('$name: denied $denied', ({ side, price, theirs, at, denied }) => {
    const v = gate([own('k1', theirs, '1', { price: d(at) })], [place(side, price, '1')]);
    expect(v.denied.map((x) => x.reason)).toEqual(denied ? ['self-cross'] : []);
  });

  it('an order being cancelled still counts: it may fill before the cancel lands', () => {
    const v = gate(
      [own('k1', 'SELL', '1', { price: d('100'), cancelling: true })],
      [place('BUY', '100.5', '1')],
    );
    expect(v.denied.map((x) => x.reason)).toEqual(['self-cross']);
  });

  it('two placements of one pass that would cross each other: the later one is denied', () => {
    const v = gate(
      [],
      [place('SELL', '100', '1', { priority: 0 }), place('BUY', '100', '1', { priority: 1 })],
    );
    expect(v.allowed.map((a) => (a.type === 'place' ? a.quote.side : a.type))).toEqual(['SELL']);
    expect(v.denied.map((x) => x.reason)).toEqual(['self-cross']);
  });

  it('another pair does not count', () => {
    const v = gate(
      [own('k1', 'SELL', '1', { price: d('100'), pair: 'ETH/USDC' })],
      [place('BUY', '105', '1')],
    );
    expect(v.denied).toEqual([]);
  });

  it('property: after any pass, no allowed bid is at or above any ask of ours or allowed', () => {
    const order = fc.record({
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      price: fc.integer({ min: 95, max: 105 }),
      cancelling: fc.boolean(),
    });
    const action = fc.record({
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      price: fc.integer({ min: 95, max: 105 }),
      priority: fc.integer({ min: 0, max: 5 }),
    });
    fc.assert(
      fc.property(
        fc.array(order, { maxLength: 6 }),
        fc.array(action, { maxLength: 8 }),
        (orders, actions) => {
          const ownOrders = orders.map((o, i) =>
            own(`k${i}`, o.side, '0.1', { price: d(String(o.price)), cancelling: o.cancelling }),
          );
          const v = gate(
            ownOrders,
            actions.map((a) => place(a.side, String(a.price), '0.1', { priority: a.priority })),
          );
          const placed = v.allowed.flatMap((a) => (a.type === 'place' ? [a.quote] : []));
          const bids = [
            ...ownOrders.filter((o) => o.side === 'BUY'),
            ...placed.filter((q) => q.side === 'BUY'),
          ];
          const asks = [
            ...ownOrders.filter((o) => o.side === 'SELL'),
            ...placed.filter((q) => q.side === 'SELL'),
          ];
          for (const q of placed) {
            const against = q.side === 'BUY' ? asks : bids;
            for (const o of against) {
              if (q.side === 'BUY') expect(q.price.lt(o.price)).toBe(true);
              else expect(q.price.gt(o.price)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

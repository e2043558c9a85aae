import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarketSnapshot } from '../../src/market/market-snapshot.js';
import { evaluate } from '../../src/risk/risk-gate.js';
import type { RiskInput } from '../../src/risk/risk-types.js';
import type { CancelAction, PlaceAction } from '../../src/strategy/quote-types.js';
import type { Action } from '../../src/strategy/quote-types.js';
import {
  GateRun,
  T0,
  account,
  bookAt,
  cancel,
  d,
  input,
  once,
  own,
  params,
  place,
  placements,
  snapshot,
} from './support/fixtures.js';

const KEYS = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5'];
const PAIRS = ['BTC/USDC', 'ETH/USDC', 'XRP/USDC'];

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc
    .record({
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      pair: fc.constantFrom(...PAIRS),
      qty: fc.integer({ min: 0, max: 40 }),
      priority: fc.integer({ min: 0, max: 5 }),
      replaces: fc.option(fc.constantFrom(...KEYS), { nil: null }),
    })
    .map((r) => place(r.side, r.side === 'BUY' ? '99' : '101', String(r.qty / 2), r)),
  fc.constantFrom(...KEYS).map((k) => cancel(k)),
);

const stepArb = fc.record({
  dt: fc.integer({ min: 0, max: 40_000 }),
  accountKind: fc.constantFrom('ok', 'ok', 'ok', 'none', 'suspended', 'auth'),
  bookAge: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null }),
  mid: fc.integer({ min: 90, max: 110 }),
  inventory: fc.integer({ min: -300, max: 300 }),
  pnl: fc.integer({ min: -2_000, max: 2_000 }),
  failures: fc.integer({ min: 0, max: 8 }),
  other: fc.integer({ min: 0, max: 12 }),
  actions: fc.array(actionArb, { maxLength: 12 }),
  orders: fc.uniqueArray(
    fc.record({
      key: fc.constantFrom(...KEYS),
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      pair: fc.constantFrom(...PAIRS),
      cancelling: fc.boolean(),
    }),
    { selector: (o) => o.key, maxLength: 6 },
  ),
});

type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

function toInput(now: number, s: Step): RiskInput {
  const acct =
    s.accountKind === 'none'
      ? null
      : account({
          status: s.accountKind === 'suspended' ? 'SUSPENDED' : 'ACTIVE',
          authFailing: s.accountKind === 'auth',
          maxOpenOrders: 8,
        });
  const book = s.bookAge === null ? null : bookAt(now - s.bookAge, String(s.mid - 1), String(s.mid + 1));
  return input(now, {
    snapshot: snapshot(now, { books: { 'BTC/USDC': book }, account: acct }),
    actions: s.actions,
    ownOrders: s.orders.map((o) => own(o.key, o.side, '1', { pair: o.pair, cancelling: o.cancelling })),
    inventory: { 'BTC/USDC': d(s.inventory) },
    pnl: { 'BTC/USDC': d(s.pnl) },
    pipelineFailures: s.failures,
    otherOpenOrders: s.other,
  });
}

describe('risk gate invariants (property-based)', () => {
  it('never throws, never denies a cancel, accounts for every placement, never places when not ready or halted', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 8 }), (steps) => {
        const run = new GateRun();
        let now = T0;
        for (const s of steps) {
          now += s.dt;
          const inp = toInput(now, s);
          const v = run.step(inp);

          const inCancels = inp.actions.filter((a): a is CancelAction => a.type === 'cancel');
          expect(v.allowed.slice(0, inCancels.length)).toEqual(inCancels);
          const allowedPlaces = placements(v.allowed);
          expect(allowedPlaces.length + v.denied.length).toBe(placements(inp.actions).length);
          for (const p of placements(inp.actions)) {
            const n =
              allowedPlaces.filter((a) => a === p).length + v.denied.filter((x) => x.action === p).length;
            expect(n).toBe(1);
          }
          if (!v.ready) expect(allowedPlaces).toEqual([]);
          for (const a of allowedPlaces) expect(v.pairStates[a.quote.pair]).not.toBe('halted');
          expect(allowedPlaces.map((a) => a.priority)).toEqual(
            [...allowedPlaces.map((a) => a.priority)].sort((x, y) => x - y),
          );

          const forced = v.cancels.map((c) => c.key);
          expect(new Set(forced).size).toBe(forced.length);
          for (const k of forced) {
            expect(inCancels.some((c) => c.key === k)).toBe(false);
            const o = inp.ownOrders.find((x) => x.key === k);
            expect(o?.cancelling).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('risk gate fails closed', () => {
  it('a malformed placement is denied with internal-error; the rest is judged normally', () => {
    const broken = { ...place('BUY', '99', '1', { level: 0 }) } as PlaceAction;
    (broken.quote as { price: unknown }).price = undefined;
    const good = place('SELL', '101', '1', { level: 0 });
    const v = once(input(T0, { actions: [broken, good, cancel('x')] }));
    expect(v.denied.map((x) => [x.action, x.reason])).toEqual([[broken, 'internal-error']]);
    expect(v.allowed).toEqual([cancel('x'), good]);
  });

  it('a broken input denies every placement, lets every cancel through and keeps the state', () => {
    const p = params();
    const run = new GateRun(p);
    const before = run.state;
    const inp = {
      ...input(T0),
      snapshot: null as unknown as MarketSnapshot,
      actions: [place('BUY', '99', '1'), cancel('k1')],
    };
    const v = evaluate(before, inp, p);
    expect(v.state).toBe(before);
    expect(v.allowed).toEqual([cancel('k1')]);
    expect(v.denied.map((x) => x.reason)).toEqual(['internal-error']);
    expect(v.ready).toBe(false);
    expect(v.reasons[0]).toMatchObject({ pair: null, rule: 'internal-error' });
  });

  it('even with no usable actions it returns a verdict', () => {
    const p = params();
    const v = evaluate(new GateRun(p).state, null as unknown as RiskInput, p);
    expect(v).toMatchObject({ allowed: [], denied: [], cancels: [], ready: false });
  });
});

import { describe, expect, it } from 'vitest';
import type { PartyStateEvent } from '../../../src/execution/engine-types.js';
import type { PlacementOutcome } from '../../../src/execution/execution-events.js';
import { PartyStanding } from '../../../src/execution/firm/party-standing.js';

/** A party's standing: which outcomes and account reads take it out, and what brings it back. */

const REF = { intentId: 'i', slot: 's', key: null, clientOrderId: null, orderId: null };
const DROPOUT_MS = 60_000;

function standing(): { s: PartyStanding; events: PartyStateEvent[] } {
  const events: PartyStateEvent[] = [];
  const s = new PartyStanding('p2', { dropoutMs: DROPOUT_MS, emit: (e) => events.push(e) });
  return { s, events };
}

describe('PartyStanding: a placement outcome', () => {
  const rows: {
    outcome: PlacementOutcome;
    counted: 'placed' | 'refused' | null;
    reason: string | null;
  }[] = [
    {
      outcome: { ...REF, kind: 'placed', state: 'OPEN', alreadyLive: false },
      counted: 'placed',
      reason: null,
    },
    { outcome: { ...REF, kind: 'ended', state: 'FILLED' }, counted: 'placed', reason: null },
    {
      outcome: { ...REF, kind: 'refused', code: 'API_KEY_REVOKED' },
      counted: 'refused',
      reason: 'API key refused (API_KEY_REVOKED)',
    },
    {
      outcome: { ...REF, kind: 'refused', code: 'MARKET_MAKER_SUSPENDED' },
      counted: 'refused',
      reason: 'account cannot trade (MARKET_MAKER_SUSPENDED)',
    },
    {
      outcome: { ...REF, kind: 'insufficient-balance' },
      counted: 'refused',
      reason: 'out of funds for a placement',
    },
    // An order's own refusal, a transient failure or a rate limit is not the party's standing.
    { outcome: { ...REF, kind: 'refused', code: 'PAIR_NOT_ALLOWED' }, counted: null, reason: null },
    { outcome: { ...REF, kind: 'failed', code: 'CLIENT_TIMEOUT' }, counted: null, reason: null },
    { outcome: { ...REF, kind: 'rate-limited', retryAfterMs: 1000 }, counted: null, reason: null },
    { outcome: { ...REF, kind: 'not-wanted', stage: 'queued' }, counted: null, reason: null },
  ];
  it.each(rows)(
    '$outcome.kind $outcome.code → counted $counted, out: $reason',
    ({ outcome, counted, reason }) => {
      const { s, events } = standing();
      expect(s.observe(outcome, 1_000, 500)).toBe(counted);
      expect(s.active).toBe(reason === null);
      expect(s.reason).toBe(reason);
      expect(events).toEqual(
        reason === null ? [] : [{ type: 'party-state', party: 'p2', active: false, reason, at: 1_000 }],
      );
    },
  );

  it('a party already out is counted again but announced once, for its first reason', () => {
    const { s, events } = standing();
    s.observe({ ...REF, kind: 'insufficient-balance' }, 1_000, 500);
    expect(s.observe({ ...REF, kind: 'refused', code: 'API_KEY_REVOKED' }, 2_000, 500)).toBe('refused');
    expect(s.reason).toBe('out of funds for a placement');
    expect(events).toHaveLength(1);
  });
});

describe('PartyStanding: coming back', () => {
  const rows: {
    name: string;
    out: 'key' | 'funds';
    now: number;
    lastPollAt: number | null;
    back: boolean;
  }[] = [
    {
      name: 'key: before dropoutMs',
      out: 'key',
      now: 1_000 + DROPOUT_MS - 1,
      lastPollAt: 9_999,
      back: false,
    },
    { name: 'key: at dropoutMs', out: 'key', now: 1_000 + DROPOUT_MS, lastPollAt: null, back: true },
    { name: 'funds: no newer balances read', out: 'funds', now: 30_000, lastPollAt: 500, back: false },
    {
      name: 'funds: a balances read after the refusal',
      out: 'funds',
      now: 30_000,
      lastPollAt: 501,
      back: true,
    },
    {
      name: 'funds: at dropoutMs without a read',
      out: 'funds',
      now: 1_000 + DROPOUT_MS,
      lastPollAt: 500,
      back: true,
    },
  ];
  it.each(rows)('$name → back: $back', ({ out, now, lastPollAt, back }) => {
    const { s, events } = standing();
    const outcome: PlacementOutcome =
      out === 'key'
        ? { ...REF, kind: 'refused', code: 'INVALID_API_KEY' }
        : { ...REF, kind: 'insufficient-balance' };
    s.observe(outcome, 1_000, 500);
    s.readmit(now, lastPollAt);
    expect(s.active).toBe(back);
    expect(events.map((e) => e.active)).toEqual(back ? [false, true] : [false]);
  });
});

describe('PartyStanding: account reads', () => {
  it('not ACTIVE takes the party out until a read shows it ACTIVE, whatever the time', () => {
    const { s, events } = standing();
    s.accountRead('SUSPENDED', 1_000);
    s.accountRead('SUSPENDED', 2_000); // the same news: not announced again
    s.readmit(1_000 + 10 * DROPOUT_MS, 1_000 + 10 * DROPOUT_MS);
    expect(s.active).toBe(false);
    expect(s.reason).toBe('account SUSPENDED');
    s.accountRead('ACTIVE', 3_000);
    expect(s.active).toBe(true);
    expect(events.map((e) => [e.active, e.reason, e.at])).toEqual([
      [false, 'account SUSPENDED', 1_000],
      [true, null, 3_000],
    ]);
  });

  it('an ACTIVE read does not bring back a party out for its key or funds', () => {
    const { s } = standing();
    s.observe({ ...REF, kind: 'refused', code: 'API_KEY_REVOKED' }, 1_000, 500);
    s.accountRead('ACTIVE', 2_000);
    expect(s.active).toBe(false);
  });

  it('an account read that is not ACTIVE replaces a shorter reason', () => {
    const { s, events } = standing();
    s.observe({ ...REF, kind: 'insufficient-balance' }, 1_000, 500);
    s.accountRead('REVOKED', 2_000);
    s.readmit(1_000 + DROPOUT_MS, 9_999);
    expect(s.reason).toBe('account REVOKED');
    expect(events).toHaveLength(2);
  });
});

import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import {
  initialKillSwitch,
  stepKillSwitch,
  type KillSwitchParams,
  type KillSwitchState,
  type KillSwitchTrip,
} from '../../src/risk/kill-switch.js';
import { armingChanged, decodeKillSwitch, encodeKillSwitch } from '../../src/risk/kill-switch-codec.js';
import { utcDay } from '../../src/risk/daily-loss-guard.js';

/**
 * The kill switch as a table: a path of the day's PnL in, the step of each trip out. Each path
 * step is the PnL of BTC/USDC (and ETH/USDC when given), plus whether the kill switch's pause is
 * held at that step (it is, from a trip until a resume).
 */
const NOON = Date.UTC(2025, 2, 3, 12);
const NEXT_DAY = Date.UTC(2025, 2, 4, 0, 0, 1);
const d = (s: string): Dec => new Dec(s);
const quoteOf = (pair: string): string => pair.split('/')[1]!;

interface Step {
  readonly btc: string;
  readonly eth?: string;
  /** The kill-switch pause stands during this step (default: from a trip on, until `resume`). */
  readonly resume?: true;
  readonly at?: number;
}

function params(
  over: Partial<{ drawdown: string; profitLock: string; scope: 'daemon' | 'pair' }>,
): KillSwitchParams {
  return {
    drawdown: over.drawdown === undefined ? null : d(over.drawdown),
    profitLock: over.profitLock === undefined ? null : d(over.profitLock),
    scope: over.scope ?? 'pair',
  };
}

/** Runs a path; returns `step:key:rule` per trip. */
function run(p: KillSwitchParams, path: readonly Step[]): string[] {
  let state: KillSwitchState = initialKillSwitch(NOON);
  const held = new Set<string>();
  const out: string[] = [];
  path.forEach((s, i) => {
    if (s.resume === true) held.clear();
    const dailyPnl: Record<string, Dec> = { 'BTC/USDC': d(s.btc) };
    if (s.eth !== undefined) dailyPnl['ETH/USDC'] = d(s.eth);
    const step = stepKillSwitch(
      state,
      {
        dailyPnl,
        pairs: ['BTC/USDC', 'ETH/USDC'],
        quoteOf,
        held: (k) => held.has(k),
        now: s.at ?? NOON + i * 1000,
      },
      p,
    );
    state = step.state;
    for (const t of step.trips as KillSwitchTrip[]) {
      held.add(t.key);
      out.push(`${i}:${t.key}:${t.rule}`);
    }
  });
  return out;
}

describe('stepKillSwitch', () => {
  it.each<{ name: string; p: KillSwitchParams; path: Step[]; trips: string[] }>([
    {
      name: 'off: no rule set, no trip however far the PnL falls',
      p: params({}),
      path: [{ btc: '0' }, { btc: '100' }, { btc: '-10000' }],
      trips: [],
    },
    {
      name: 'drawdown from the peak, not from zero',
      p: params({ drawdown: '50' }),
      path: [{ btc: '0' }, { btc: '80' }, { btc: '40' }, { btc: '30' }, { btc: '29' }],
      trips: ['3:BTC/USDC:drawdown'],
    },
    {
      name: 'drawdown of exactly the limit trips; just under does not',
      p: params({ drawdown: '50' }),
      path: [{ btc: '0' }, { btc: '-49.99' }, { btc: '-50' }],
      trips: ['2:BTC/USDC:drawdown'],
    },
    {
      name: 'a trip holds while the pause stands: no second trip',
      p: params({ drawdown: '50' }),
      path: [{ btc: '0' }, { btc: '-60' }, { btc: '-200' }, { btc: '-300' }],
      trips: ['1:BTC/USDC:drawdown'],
    },
    {
      name: 'resume arms it again at the PnL then: a further fall of the limit trips again',
      p: params({ drawdown: '50' }),
      path: [{ btc: '0' }, { btc: '-60' }, { btc: '-70', resume: true }, { btc: '-110' }, { btc: '-120' }],
      trips: ['1:BTC/USDC:drawdown', '4:BTC/USDC:drawdown'],
    },
    {
      name: 'profit lock from the day start, then from where it was resumed',
      p: params({ profitLock: '100' }),
      path: [
        { btc: '0' },
        { btc: '99' },
        { btc: '100' },
        { btc: '150', resume: true },
        { btc: '240' },
        { btc: '250' },
      ],
      trips: ['2:BTC/USDC:profit-lock', '5:BTC/USDC:profit-lock'],
    },
    {
      name: 'both rules: the drawdown is checked first',
      p: params({ drawdown: '10', profitLock: '5' }),
      path: [{ btc: '0' }, { btc: '4' }, { btc: '-6' }],
      trips: ['2:BTC/USDC:drawdown'],
    },
    {
      name: 'scope pair: each pair on its own figures',
      p: params({ drawdown: '50', scope: 'pair' }),
      path: [
        { btc: '0', eth: '0' },
        { btc: '-30', eth: '-30' },
        { btc: '-30', eth: '-60' },
      ],
      trips: ['2:ETH/USDC:drawdown'],
    },
    {
      name: 'scope daemon: the pairs of one quote instrument summed',
      p: params({ drawdown: '50', scope: 'daemon' }),
      path: [
        { btc: '0', eth: '0' },
        { btc: '-30', eth: '-30' },
      ],
      trips: ['1:quote:USDC:drawdown'],
    },
    {
      name: 'a new UTC day starts afresh: the old peak is gone',
      p: params({ drawdown: '50' }),
      path: [{ btc: '0' }, { btc: '200' }, { btc: '0', at: NEXT_DAY }, { btc: '-49', at: NEXT_DAY + 1 }],
      trips: [],
    },
    {
      name: 'first sight mid-day (a restart): the peak is at least the day start, 0',
      p: params({ drawdown: '50' }),
      path: [{ btc: '-40' }, { btc: '-50' }],
      trips: ['1:BTC/USDC:drawdown'],
    },
  ])('$name', ({ p, path, trips }) => {
    expect(run(p, path)).toEqual(trips);
  });

  it('a trip names what it pauses and its figures', () => {
    const state = initialKillSwitch(NOON);
    const input = { pairs: ['BTC/USDC'], quoteOf, held: () => false, now: NOON };
    const s1 = stepKillSwitch(
      state,
      { ...input, dailyPnl: { 'BTC/USDC': d('30') } },
      params({ drawdown: '50' }),
    );
    const s2 = stepKillSwitch(
      s1.state,
      { ...input, dailyPnl: { 'BTC/USDC': d('-25') } },
      params({ drawdown: '50' }),
    );
    expect(s2.trips).toEqual([
      {
        key: 'BTC/USDC',
        pair: 'BTC/USDC',
        rule: 'drawdown',
        detail: "day PnL -25 is 55 below the day's peak 30 (drawdown limit 50)",
      },
    ]);
    expect(s2.pnl['BTC/USDC']?.toFixed()).toBe('-25');
    const daemon = stepKillSwitch(
      state,
      { ...input, dailyPnl: { 'BTC/USDC': d('-60') } },
      params({ drawdown: '50', scope: 'daemon' }),
    );
    expect(daemon.trips.map((t) => [t.key, t.pair])).toEqual([['quote:USDC', null]]);
  });
});

describe('the kill switch across a restart (its stored arming)', () => {
  const p = params({ profitLock: '100' });
  const input = (btc: string, at = NOON) => ({
    dailyPnl: { 'BTC/USDC': d(btc) },
    pairs: ['BTC/USDC'],
    quoteOf,
    held: () => false,
    now: at,
  });

  it('a profit lock resumed above its limit does not trip again after a restart; without the stored state it would', () => {
    // Trips at 120, resumed (armed again) at 130.
    let s = stepKillSwitch(initialKillSwitch(NOON), input('120'), p).state;
    const tripped = s;
    s = stepKillSwitch(s, input('130'), p).state;
    expect(armingChanged(tripped, s)).toBe(true);
    const stored = encodeKillSwitch(s);
    // The restart: the same day, the PnL at 140.
    const restored = decodeKillSwitch(stored, utcDay(NOON + 60_000))!;
    expect(stepKillSwitch(restored, input('140', NOON + 60_000), p).trips).toEqual([]);
    expect(
      stepKillSwitch(initialKillSwitch(NOON), input('140', NOON + 60_000), p).trips.map((t) => t.rule),
    ).toEqual(['profit-lock']);
  });

  it('decodes only its own shape of the same day; a new peak alone is not a change to store', () => {
    const s = stepKillSwitch(initialKillSwitch(NOON), input('10'), p).state;
    const text = encodeKillSwitch(s);
    expect(JSON.parse(text)).toEqual({
      v: 1,
      day: utcDay(NOON),
      marks: { 'BTC/USDC': { peak: '10', armedAt: '0', tripped: false } },
    });
    expect(decodeKillSwitch(text, utcDay(NOON) + 1)).toBeNull();
    expect(
      decodeKillSwitch('{"v":1,"day":1,"marks":{"x":{"peak":10,"armedAt":"0","tripped":false}}}', 1),
    ).toBeNull();
    expect(decodeKillSwitch('not json', utcDay(NOON))).toBeNull();
    const higher = stepKillSwitch(s, input('50'), p).state;
    expect(higher.marks['BTC/USDC']!.peak.toFixed()).toBe('50');
    expect(armingChanged(s, higher)).toBe(false);
  });
});

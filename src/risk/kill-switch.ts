/**
 * The kill switch (`risk.killSwitch`): a pure decision from the day's PnL path to a pause. It
 * watches the day's marked-to-mid PnL (since the UTC day began, the daily loss guard's baseline)
 * of each pair (`scope: pair`) or of each group of pairs sharing a quote instrument (`scope:
 * daemon`; amounts in different instruments are never added) and trips when
 * - `drawdown`: the PnL has fallen `drawdown` or more below its peak of the day, or
 * - `profitLock`: the PnL has risen `profitLock` or more above where the switch was armed (the
 *   day's start, or the PnL when it was last resumed), locking that profit in.
 * A trip pauses (the daemon adds a `kill-switch` pause of the pair, or of every pair) and the
 * switch holds that key tripped while the pause stands. Once an operator resumes, the key is
 * armed again at the PnL of that moment: its peak and its profit base restart there, so a
 * resume never trips again at once on the same figures. A new UTC day starts every key afresh.
 *
 * Where each watch was armed, whether it tripped, and its peak then are stored by the daemon (the
 * journal's meta, `kill-switch-codec.ts`) whenever a watch trips or is armed again, and read back
 * after a restart the same UTC day: a resumed profit lock does not trip again at the first cycle.
 * The peak reached since is not stored; after a restart it is at least the stored one (or 0, the
 * day's start), a peak the day surely reached. A pause it caused is journaled and stays.
 */
import { Dec, ZERO } from '../core/decimal.js';
import { utcDay } from './daily-loss-guard.js';

/** The rules, in the order they are checked. */
export type KillSwitchRule = 'drawdown' | 'profit-lock';

/** The switch's parameters (`risk.killSwitch` resolved): both amounts null is off. */
export interface KillSwitchParams {
  readonly drawdown: Dec | null;
  readonly profitLock: Dec | null;
  readonly scope: 'daemon' | 'pair';
}

/** One key's watch: the day's peak, the PnL it was armed at, and whether it has tripped. */
export interface KillSwitchMark {
  readonly peak: Dec;
  readonly armedAt: Dec;
  readonly tripped: boolean;
}

/** The state carried between steps; create with {@link initialKillSwitch}. */
export interface KillSwitchState {
  readonly day: number;
  /** By key: the pair (`scope: pair`) or `quote:<instrument>` (`scope: daemon`). */
  readonly marks: Readonly<Record<string, KillSwitchMark>>;
}

/** A trip: which key, what it pauses (a pair, or null for every pair), the rule and its figures. */
export interface KillSwitchTrip {
  readonly key: string;
  readonly pair: string | null;
  readonly rule: KillSwitchRule;
  readonly detail: string;
}

/** One step's input. */
export interface KillSwitchInput {
  /** The day's PnL per pair (since the UTC day began); a pair not known is absent. */
  readonly dailyPnl: Readonly<Record<string, Dec>>;
  readonly pairs: readonly string[];
  readonly quoteOf: (pair: string) => string;
  /** True for a key whose scope a kill-switch pause holds now. */
  readonly held: (key: string) => boolean;
  readonly now: number;
}

/** One step's result. */
export interface KillSwitchStep {
  readonly state: KillSwitchState;
  readonly trips: readonly KillSwitchTrip[];
  /** Each key's day PnL now (for status and metrics). */
  readonly pnl: Readonly<Record<string, Dec>>;
}

/** A state with nothing watched yet. */
export function initialKillSwitch(now: number): KillSwitchState {
  return { day: utcDay(now), marks: {} };
}

/** True when neither rule is set. */
export function killSwitchOff(params: KillSwitchParams): boolean {
  return params.drawdown === null && params.profitLock === null;
}

/** The key of a pair's figures under `scope`. */
export function killSwitchKey(
  params: KillSwitchParams,
  pair: string,
  quoteOf: (p: string) => string,
): string {
  return params.scope === 'pair' ? pair : `quote:${quoteOf(pair)}`;
}

/** Advances the switch (see the module doc). Pure. */
export function stepKillSwitch(
  state: KillSwitchState,
  input: KillSwitchInput,
  params: KillSwitchParams,
): KillSwitchStep {
  const day = utcDay(input.now);
  const marks: Record<string, KillSwitchMark> = state.day === day ? { ...state.marks } : {};
  if (killSwitchOff(params)) return { state: { day, marks }, trips: [], pnl: {} };
  const pnl = keyPnl(input, params);
  const trips: KillSwitchTrip[] = [];
  for (const [key, current] of Object.entries(pnl)) {
    const m = nextMark(marks[key], current, input.held(key));
    marks[key] = m;
    if (m.tripped) continue;
    const trip = judge(m, current, params);
    if (trip === null) continue;
    marks[key] = { ...m, tripped: true };
    trips.push({ key, pair: params.scope === 'pair' ? key : null, ...trip });
  }
  return { state: { day, marks }, trips, pnl };
}

/** A key's mark before judging `current`; `held`: its kill-switch pause stands. */
function nextMark(mark: KillSwitchMark | undefined, current: Dec, held: boolean): KillSwitchMark {
  // First sight today: the day began at 0, so the peak is at least that.
  if (mark === undefined) {
    return held
      ? { peak: current, armedAt: current, tripped: true }
      : { peak: Dec.max(ZERO, current), armedAt: ZERO, tripped: false };
  }
  // Tripped and resumed since: armed again where the PnL stands now (judged from the next step).
  if (mark.tripped) return held ? mark : { peak: current, armedAt: current, tripped: false };
  return { ...mark, peak: Dec.max(mark.peak, current) };
}

function judge(
  m: KillSwitchMark,
  current: Dec,
  params: KillSwitchParams,
): { rule: KillSwitchRule; detail: string } | null {
  const fall = m.peak.minus(current);
  if (params.drawdown !== null && fall.gte(params.drawdown)) {
    return {
      rule: 'drawdown',
      detail: `day PnL ${current.toFixed()} is ${fall.toFixed()} below the day's peak ${m.peak.toFixed()} (drawdown limit ${params.drawdown.toFixed()})`,
    };
  }
  const gain = current.minus(m.armedAt);
  if (params.profitLock !== null && gain.gte(params.profitLock)) {
    return {
      rule: 'profit-lock',
      detail: `day PnL ${current.toFixed()} is ${gain.toFixed()} above ${m.armedAt.toFixed()} (profit lock ${params.profitLock.toFixed()})`,
    };
  }
  return null;
}

/** The day's PnL per key: a pair's own, or the sum over the known pairs of one quote instrument. */
function keyPnl(input: KillSwitchInput, params: KillSwitchParams): Record<string, Dec> {
  const out: Record<string, Dec> = {};
  for (const pair of input.pairs) {
    const v = input.dailyPnl[pair];
    if (v === undefined) continue;
    const key = killSwitchKey(params, pair, input.quoteOf);
    out[key] = (out[key] ?? ZERO).plus(v);
  }
  return out;
}

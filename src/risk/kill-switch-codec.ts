/**
 * The kill switch's state as text, so a restart keeps where each watch was armed (and whether it
 * had tripped) within the UTC day: without it, a profit lock resumed above its limit would trip
 * again at the first cycle after a restart. The daemon stores it in the journal's `meta` when a
 * watch trips or is armed again, not on every new peak. Pure.
 *
 * `{"v":1,"day":…,"marks":{key:{"peak":"…","armedAt":"…","tripped":bool}}}`, amounts as decimal
 * strings. {@link decodeKillSwitch} returns null for anything else, or a state of another day:
 * the day then starts afresh, as the switch did before it was stored.
 */
import { DECIMAL_STRING, dec, toWire } from '../core/decimal.js';
import type { KillSwitchMark, KillSwitchState } from './kill-switch.js';

/** The meta key of the kill switch's state. */
export const KILL_SWITCH_MEMORY_KEY = 'risk.kill_switch';

const VERSION = 1;

/** `state` as text. */
export function encodeKillSwitch(state: KillSwitchState): string {
  const marks = Object.fromEntries(
    Object.keys(state.marks)
      .sort()
      .map((key) => {
        const m = state.marks[key]!;
        return [key, { peak: toWire(m.peak), armedAt: toWire(m.armedAt), tripped: m.tripped }];
      }),
  );
  return JSON.stringify({ v: VERSION, day: state.day, marks });
}

/** The state `text` encodes when it is of `day`, else null. Never throws. */
export function decodeKillSwitch(text: string, day: number): KillSwitchState | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(raw) || raw['v'] !== VERSION || raw['day'] !== day || !isObject(raw['marks'])) return null;
  const marks: Record<string, KillSwitchMark> = {};
  for (const [key, m] of Object.entries(raw['marks'])) {
    if (!isObject(m) || typeof m['tripped'] !== 'boolean') return null;
    const peak = m['peak'];
    const armedAt = m['armedAt'];
    if (typeof peak !== 'string' || typeof armedAt !== 'string') return null;
    if (!DECIMAL_STRING.test(peak) || !DECIMAL_STRING.test(armedAt)) return null;
    marks[key] = { peak: dec(peak), armedAt: dec(armedAt), tripped: m['tripped'] };
  }
  return { day, marks };
}

/** True when a step changed what is stored: a watch tripped, was armed again, or appeared. */
export function armingChanged(before: KillSwitchState, after: KillSwitchState): boolean {
  if (before.day !== after.day) return true;
  const keys = new Set([...Object.keys(before.marks), ...Object.keys(after.marks)]);
  for (const key of keys) {
    const a = before.marks[key];
    const b = after.marks[key];
    if (a === undefined || b === undefined) return true;
    if (a.tripped !== b.tripped || !a.armedAt.eq(b.armedAt)) return true;
  }
  return false;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

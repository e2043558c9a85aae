/**
 * Process runs and the clientOrderId counter, both kept in `meta`.
 *
 * - `run_counter` / `run.<n>` / `current_run`: every read-write open registers a run with a fresh
 *   random id, its pid, its start time and the pid of a stale lock it took over (crash forensics).
 * - `client_order_counter`: a durable monotonic counter. A clientOrderId suffix is
 *   `<runId>-<counter base36>`: the counter alone never repeats within a store; the random run id
 *   keeps suffixes unique even if the store is restored from an old backup (counter rewound) or
 *   replaced by an empty one, so the venue's idempotency key is never reused for a new intent.
 */
import { randomBytes } from 'node:crypto';
import { JournalInputError } from './errors.js';
import type { Statements } from './statements.js';

/** Meta keys the journal owns; `Journal.setMeta` refuses them. */
export const OWN_META_KEYS = /^(client_order_counter|run_counter|current_run|run\.\d+)$/;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 8 characters of lowercase RFC 4648 base32: 40 random bits. */
export function randomRunId(): string {
  let bits = 0n;
  for (const b of randomBytes(5)) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 7; i >= 0; i--) out += BASE32[Number((bits >> BigInt(i * 5)) & 31n)];
  return out;
}

/** What `meta.run.<n>` records. */
export interface RunRecord {
  readonly runId: string;
  readonly pid: number;
  readonly startedAt: number;
  /** Pid of the stale lock this run took over, if any. */
  readonly staleLockPid: number | null;
}

/** Registers a run in `meta`. Call inside a transaction. Returns the run's number. */
export function registerRun(st: Statements, run: RunRecord): number {
  const n = Number(bump(st, 'run_counter'));
  st.setMeta.run(`run.${n}`, JSON.stringify(run));
  st.setMeta.run('current_run', run.runId);
  return n;
}

/**
 * Takes the next clientOrderId counter value (durable once the statement commits; it runs as
 * its own auto-commit transaction) and renders the suffix.
 */
export function nextSuffix(st: Statements, runId: string): string {
  const n = Number(bump(st, 'client_order_counter'));
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new JournalInputError(`journal: bad client order counter ${n}`);
  return `${runId}-${n.toString(36)}`;
}

function bump(st: Statements, key: string): string {
  const row = st.bumpCounter.get(key);
  if (row === undefined) throw new JournalInputError(`journal: meta ${key} is missing`);
  return row.value;
}

/**
 * Readiness: whether the daemon is quoting, and every reason it is not. Ready means the startup
 * preflight passed, recovery is over, the quote cycle runs, the account is ACTIVE with a working
 * API key, and at least one pair may quote. A pair that is halted (stale book, price jump, daily
 * loss…) is listed as a reason but only makes the daemon not ready when every pair is halted.
 * The shape is the observability module's `Readiness` (`/readyz`).
 */
import type { AccountView } from '../../market/market-snapshot.js';
import type { RiskVerdict } from '../../risk/risk-types.js';
import type { StaleBook } from '../../market/book-watch.js';
import type { DaemonPhase } from '../daemon-types.js';
import type { PreflightReport } from '../startup/preflight.js';
import { failedChecks } from '../startup/startup.js';

/** The answer: ready, or why not (for people, never parsed). */
export interface DaemonReadiness {
  readonly ready: boolean;
  readonly reasons: readonly string[];
  /** What is paused or halted on purpose (the daemon's controls); absent when nothing is. */
  readonly paused?: readonly string[];
}

/** What readiness is judged from. */
export interface ReadinessInput {
  readonly phase: DaemonPhase;
  readonly preflight: PreflightReport | null;
  readonly recoveryError: string | null;
  readonly account: AccountView | null;
  readonly authFailing: boolean;
  /** The last quote cycle's risk verdict, null before the first cycle. */
  readonly verdict: RiskVerdict | null;
  readonly stale: readonly StaleBook[];
  readonly pairs: readonly string[];
  /** True while a provisional start prepares beside the preflight's GET /balances. */
  readonly provisional?: boolean;
}

const PHASE_REASON: Partial<Record<DaemonPhase, string>> = {
  created: 'not started',
  recovering: 'recovering orders from the journal and the venue',
  closing: 'shutting down',
  closed: 'stopped',
  failed: 'failed to start',
};

/** Judges readiness; every failing condition is listed. */
export function assessDaemonReadiness(input: ReadinessInput): DaemonReadiness {
  const reasons: string[] = [];
  const phaseReason = PHASE_REASON[input.phase];
  if (input.phase === 'preflight') {
    if (input.provisional === true) {
      reasons.push(
        'the startup preflight is reading the balances (the first order may be prepared meanwhile; nothing is signed before it passes)',
      );
    } else if (input.preflight === null) reasons.push('the startup preflight is running');
    else for (const f of failedChecks(input.preflight)) reasons.push(`preflight failed: ${f}`);
  } else if (phaseReason !== undefined) {
    reasons.push(phaseReason);
  }
  if (input.recoveryError !== null) reasons.push(`recovery failed: ${input.recoveryError}`);
  if (input.phase === 'running') {
    if (input.authFailing) reasons.push('the API key is failing (401 on the last authenticated call)');
    if (input.account === null) reasons.push('the account has not been read yet');
    else if (input.account.status !== 'ACTIVE') {
      reasons.push(`the account is ${input.account.status}: the venue refuses new placements`);
    }
    const v = input.verdict;
    if (v === null) reasons.push('no quote cycle has run yet');
    else {
      const halted = input.pairs.filter((p) => v.pairStates[p] === 'halted');
      for (const r of v.reasons) {
        if (r.rule === 'not-ready' || r.rule === 'max-inventory') continue;
        reasons.push(`${r.pair ?? 'all pairs'}: ${r.rule}: ${r.detail}`);
      }
      for (const s of input.stale) reasons.push(`${s.pair}: the book is stale (${s.proof})`);
      const notReady = !v.ready || (input.pairs.length > 0 && halted.length === input.pairs.length);
      return { ready: !notReady && reasons.every((r) => !isBlocking(r, input)), reasons };
    }
  }
  return { ready: false, reasons };
}

/** Account-wide conditions block readiness; pair-level ones only list. */
function isBlocking(reason: string, input: ReadinessInput): boolean {
  return !input.pairs.some((p) => reason.startsWith(`${p}: `));
}

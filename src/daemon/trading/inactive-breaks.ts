/**
 * While the account is not ACTIVE (suspended, disabled) the venue refuses new placements but
 * still takes cancels. A quote that left tolerance would normally be replaced make-before-break:
 * the replacement is placed first and the old order cancelled once it rests. With placements
 * refused that never happens and the old quote would rest, unrepriced, on a moving market. So
 * the replaced order of every placement the gate denied for the account is cancelled now (break
 * without make); the slot is placed again on reactivation. Pure.
 *
 * Not while the API key fails: cancels need it too, and they would only fail.
 */
import type { AccountView } from '../../market/market-snapshot.js';
import type { RiskVerdict } from '../../risk/risk-types.js';
import type { CancelAction } from '../../strategy/quote-types.js';

/** See the module doc. */
export function inactiveBreaks(verdict: RiskVerdict, account: AccountView | null): CancelAction[] {
  if (account === null || account.authFailing || account.status === 'ACTIVE') return [];
  const out: CancelAction[] = [];
  for (const d of verdict.denied) {
    const replaces = d.action.replaces;
    if (d.reason !== 'not-ready' || replaces === null) continue;
    out.push({
      type: 'cancel',
      key: replaces,
      reason: `${d.action.reason ?? 'replace'}: the account is ${account.status}; cancelled now, placed again on reactivation`,
    });
  }
  return out;
}

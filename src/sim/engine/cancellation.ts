/**
 * The prepare step of a cancel on the simulated venue, POST /orders/{contractId}/cancel: by the
 * current contract id only, with the contract's 404 and 409 answers, and otherwise a cancel
 * command to sign. Submission and commit of that command are `submission.ts` and `commits.ts`.
 */
import type { Account } from './accounts.js';
import type { PreparedCommand } from './commands.js';
import { createCommand } from './commands-lifecycle.js';
import type { EngineCore } from './engine-core.js';
import { type OrderRecord, isRestingOrder } from './orders.js';
import { SimError, contractNotFound, validationError } from './sim-error.js';

/** The outcome of POST /orders/{contractId}/cancel: always a cancel to sign (202). */
export interface CancelPrepared {
  order: OrderRecord;
  command: PreparedCommand;
}

/**
 * POST /orders/{contractId}/cancel, by the CURRENT contract id only:
 *
 * - an unknown id, another party's, or a contract archived by a partial fill → 404
 *   CONTRACT_NOT_FOUND (deliberately indistinguishable);
 * - the order's last contract after a full fill → 409 ORDER_ALREADY_FILLED; after a cancel →
 *   409 ORDER_ALREADY_CANCELLED; after an expiry → 404 CONTRACT_NOT_FOUND (no longer active);
 * - otherwise a cancel command to sign. Cancels are not rate limited, are allowed for
 *   non-ACTIVE accounts (their resting orders continue unaffected), may run concurrently for
 *   one party and even for one order (the first to commit wins; the others' commits fail).
 *
 * A stranded order still gets a cancel to sign: it is the commit that cannot complete.
 */
export function prepareCancel(
  core: EngineCore,
  account: Account,
  contractId: string,
  body: unknown,
): CancelPrepared {
  let reason: string | null = null;
  if (body !== undefined && body !== null) {
    if (typeof body !== 'object' || Array.isArray(body)) throw validationError('Body must be a JSON object');
    const r = (body as Record<string, unknown>)['reason'];
    if (r !== undefined && r !== null && typeof r !== 'string')
      throw validationError('reason must be a string');
    reason = typeof r === 'string' ? r : null;
  }
  const o = core.orders.byContractId(contractId);
  if (!o || o.partyId !== account.partyId || o.contractId !== contractId) throw contractNotFound();
  if (o.status === 'FILLED') throw new SimError(409, 'ORDER_ALREADY_FILLED', 'Order already filled');
  if (o.status === 'CANCELLED') throw new SimError(409, 'ORDER_ALREADY_CANCELLED', 'Order already cancelled');
  if (!isRestingOrder(o)) throw contractNotFound();
  const command = createCommand(core, {
    kind: 'cancel',
    partyId: o.partyId,
    orderId: o.orderId,
    contractId,
    reason,
  });
  return { order: o, command };
}

/**
 * Invariant 2: nothing is signed unless the prepared order equals the intent. The order's fields
 * are compared by THE prepared-order check, `echoDiffs` of the state machine (the same function
 * decides Prepared → PREPARED or REJECTED, so the pipeline and the machine cannot disagree); this
 * file adds what only the pipeline sees: decimals the wire sends unparseable, and the envelope of
 * a 202 (nothing committed yet, a signature asked for). Pure and exact.
 */
import { DECIMAL_STRING, dec, toWire } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { PrepareCancelResult, PrepareOrderResult } from '../venue/call-types.js';
import type { Order } from '../venue/schemas.js';
import { echoDiffs } from '../orders/fsm/index.js';
import { echoFromWire } from '../orders/wire-events.js';
import type { PlacementIntent } from './placement/placement-intent.js';

/** The verdict of an echo check: `ok` with no diffs, or the human-readable differences. */
export interface EchoVerdict {
  readonly ok: boolean;
  readonly diffs: readonly string[];
}

function verdict(diffs: string[]): EchoVerdict {
  return { ok: diffs.length === 0, diffs };
}

/** Compares a wire decimal (or null) with ours; returns a diff or null. */
function decimalDiff(field: string, wire: string | null | undefined, ours: Dec | null): string | null {
  if (wire == null || ours === null) {
    return (wire ?? null) === null && ours === null
      ? null
      : `${field} ${String(wire)} ≠ ${ours === null ? 'null' : toWire(ours)}`;
  }
  if (!DECIMAL_STRING.test(wire)) return `${field} ${JSON.stringify(wire)} is not a decimal`;
  return dec(wire).eq(ours) ? null : `${field} ${wire} ≠ ${toWire(ours)}`;
}

/**
 * Checks a 202 prepare response against the intent: pair, side, type, price and quantity equal
 * exactly; the clientOrderId (when echoed) is ours; nothing is committed yet (status and
 * contractId null, filled zero, per the contract); and there is a signing envelope that asks
 * for a signature.
 */
export function checkPlacementEcho(
  intent: PlacementIntent,
  clientOrderId: string,
  result: PrepareOrderResult,
): EchoVerdict {
  const diffs = orderDiffs(intent, clientOrderId, result.order);
  if (result.status === 202) {
    const o = result.order;
    if (o.status !== null) diffs.push(`202 with status ${o.status}`);
    if (o.contractId !== null) diffs.push(`202 with contractId ${o.contractId}`);
    const filled = decimalDiff('filled', o.filled, dec('0'));
    if (filled !== null) diffs.push(filled);
    if (!result.signing.requiresSignature) diffs.push('signing.requiresSignature is false');
    if (result.signing.preparedTransactionHash.length === 0) diffs.push('empty preparedTransactionHash');
  }
  return verdict(diffs);
}

/**
 * The field-by-field differences between a wire order and the intent: the state machine's
 * `echoDiffs` once both decimals parse; an unparseable decimal is a mismatch of its own.
 */
export function orderDiffs(intent: PlacementIntent, clientOrderId: string, order: Order): string[] {
  const unparseable = (['price', 'quantity'] as const)
    .filter((field) => order[field] != null && !DECIMAL_STRING.test(order[field]))
    .map((field) => `${field} ${JSON.stringify(order[field])} is not a decimal`);
  if (unparseable.length > 0) return unparseable;
  const expected = {
    pair: intent.pair,
    side: intent.side,
    type: intent.type ?? 'LIMIT',
    price: intent.price,
    quantity: intent.quantity,
    clientOrderId,
  };
  return echoDiffs(expected, echoFromWire(order));
}

/**
 * Checks a cancel prepare response: when it echoes an order, it is ours (same orderId) and the
 * contract we asked to cancel; when it needs a signature, the envelope is there.
 */
export function checkCancelEcho(
  expected: { readonly orderId: string | null; readonly contractId: string },
  result: PrepareCancelResult,
): EchoVerdict {
  const diffs: string[] = [];
  const o = result.order;
  if (o !== undefined) {
    if (expected.orderId !== null && o.orderId !== expected.orderId) {
      diffs.push(`orderId ${o.orderId} ≠ ${expected.orderId}`);
    }
    if (o.contractId !== null && o.contractId !== expected.contractId) {
      diffs.push(`contractId ${o.contractId} ≠ ${expected.contractId}`);
    }
  }
  if (!result.cancelled) {
    if (result.signing === null) diffs.push('no signing envelope on an unfinished cancel');
    else if (!result.signing.requiresSignature) diffs.push('signing.requiresSignature is false');
  }
  return verdict(diffs);
}
